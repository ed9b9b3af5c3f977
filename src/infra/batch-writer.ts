/**
 * Collects items on the request path and hands them to `flush` in batches: at most `delayMs`
 * after the first item arrives (DESIGN.md: within one second), and always on `close()`, so a
 * graceful shutdown loses nothing. A failing flush keeps its items for the next attempt.
 */
export class BatchWriter<T> {
  private items: T[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly flush: (items: readonly T[]) => void,
    private readonly delayMs: number,
    private readonly onError: (err: unknown, pending: number) => void,
  ) {}

  push(item: T): void {
    this.items.push(item);
    if (!this.timer) {
      this.timer = setTimeout(() => this.drain(), this.delayMs);
      this.timer.unref();
    }
  }

  get pending(): number {
    return this.items.length;
  }

  drain(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.items.length === 0) return;
    const batch = this.items;
    this.items = [];
    try {
      this.flush(batch);
    } catch (err) {
      this.items = batch.concat(this.items);
      this.onError(err, this.items.length);
      if (!this.timer) {
        this.timer = setTimeout(() => this.drain(), this.delayMs);
        this.timer.unref();
      }
    }
  }

  close(): void {
    this.drain();
  }
}
