// Private: an unbounded single-consumer async queue that can be ended.

export class AsyncQueue<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #waiting: ((result: IteratorResult<T>) => void) | undefined;
  #ended = false;

  push(item: T): void {
    if (this.#ended) return;
    if (this.#waiting !== undefined) {
      const wake = this.#waiting;
      this.#waiting = undefined;
      wake({ value: item, done: false });
    } else {
      this.#items.push(item);
    }
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#waiting !== undefined) {
      const wake = this.#waiting;
      this.#waiting = undefined;
      wake({ value: undefined, done: true });
    }
  }

  next(): Promise<IteratorResult<T>> {
    if (this.#items.length > 0) {
      return Promise.resolve({ value: this.#items.shift()!, done: false });
    }
    if (this.#ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.#waiting = resolve));
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return { next: () => this.next() };
  }
}
