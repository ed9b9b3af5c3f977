/** Where a BatchWriter keeps items until the next flush. */
export interface BatchStore<T> {
  push(item: T): void;
  readonly length: number;
  /** Every item in arrival order; the store is empty afterwards. */
  take(): T[];
}

/** The default store: a plain array. */
export class ArrayStore<T> implements BatchStore<T> {
  private items: T[] = [];

  push(item: T): void {
    this.items.push(item);
  }

  get length(): number {
    return this.items.length;
  }

  take(): T[] {
    const items = this.items;
    this.items = [];
    return items;
  }
}
