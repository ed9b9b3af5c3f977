import { ArrayStore, type BatchStore } from './batch-store';

/**
 * Collects items on the request path and hands them to `flush` in batches: at most `delayMs`
 * after the first item arrives (DESIGN.md: within one second), and always on `close()`, so a
 * graceful shutdown loses nothing. A failing flush keeps its items for the next attempt.
 * The items wait in a `BatchStore`: a plain array unless the caller brings a cheaper one.
 */
export class BatchWriter<T> {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly flush: (items: readonly T[]) => void,
    private readonly delayMs: number,
    private readonly onError: (err: unknown, pending: number) => void,
    private readonly store: BatchStore<T> = new ArrayStore<T>(),
  ) {}

  push(item: T): void {
    this.store.push(item);
    if (!this.timer) {
      this.timer = setTimeout(() => this.drain(), this.delayMs);
      this.timer.unref();
    }
  }

  get pending(): number {
    return this.store.length;
  }

  drain(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.store.length === 0) return;
    const batch = this.store.take();
    try {
      this.flush(batch);
    } catch (err) {
      for (const item of batch) this.store.push(item);
      this.onError(err, this.store.length);
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
