/**
 * An unbounded push → async-iterator queue (for readers that consume everything they subscribe
 * to: tests, `hermes chat`). `end()` finishes iteration after the buffered items.
 */
export class AsyncQueue<T> implements AsyncIterableIterator<T> {
  private readonly items: T[] = [];
  private readonly waiters: Array<(r: IteratorResult<T>) => void> = [];
  private ended = false;

  /** Adds an item (ignored after `end`). */
  push(item: T): void {
    if (this.ended) return;
    const w = this.waiters.shift();
    if (w) w({ value: item, done: false });
    else this.items.push(item);
  }

  /** Ends iteration once the buffered items are consumed. */
  end(): void {
    this.ended = true;
    for (const w of this.waiters.splice(0)) w({ value: undefined as never, done: true });
  }

  next(): Promise<IteratorResult<T>> {
    if (this.items.length) return Promise.resolve({ value: this.items.shift()!, done: false });
    if (this.ended) return Promise.resolve({ value: undefined as never, done: true });
    return new Promise((r) => this.waiters.push(r));
  }

  return(): Promise<IteratorResult<T>> {
    this.end();
    this.items.length = 0;
    return Promise.resolve({ value: undefined as never, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
