// Private: executions still at work, so that closing a runner can wait for the
// ones a run gave up on (timed out or cancelled) to settle.

/** The set of executions in flight. */
export class InFlight {
  readonly #pending = new Set<Promise<unknown>>();

  /** Keeps `work` until it settles. */
  track(work: Promise<unknown>): void {
    const settled = work.then(() => undefined, () => undefined);
    this.#pending.add(settled);
    settled.then(() => this.#pending.delete(settled));
  }

  /** Settles when every execution now in flight has, or after `timeoutMs`; never rejects. */
  async settled(timeoutMs: number): Promise<void> {
    if (this.#pending.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        Promise.allSettled(this.#pending),
        new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}
