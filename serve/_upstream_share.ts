// Private: who may take one of an upstream's connections, so that one
// downstream caller (a principal: token subject, static token name, address)
// can never hold all of them while others wait. A call that hangs upstream
// holds its connection until its deadline; without shares, a few such calls
// of one client would make every other client's call to the same server wait
// for that deadline too.
//
// The rule, with `max` connections, a per-caller `share` and a `reserve`:
// - a caller holding fewer than its share takes any free connection;
// - callers holding their share or more wait while a caller under its share
//   waits; then the one holding the fewest connections goes first, but none
//   of them takes one of the last `reserve` free connections (kept for the
//   callers that come next);
// - a caller's own requests are served in the order they came.
// Every wait ends when its signal aborts (the caller's cancel or deadline).

/** The limits of one upstream's connections. */
export interface ShareLimits {
  /** Connections in use at most. */
  max: number;
  /** Connections one caller takes before others waiting go first. */
  share: number;
  /** Free connections a caller over its share never takes. */
  reserve: number;
}

interface Waiter {
  caller: string;
  resolve(): void;
  reject(error: unknown): void;
}

/** The connections in use, by caller, and the requests waiting for one. */
export class ConnectionShares {
  readonly limits: ShareLimits;
  readonly #held = new Map<string, number>();
  readonly #waiting: Waiter[] = [];
  #used = 0;

  constructor(limits: ShareLimits) {
    this.limits = limits;
  }

  /** Connections in use (granted and not released). */
  get used(): number {
    return this.#used;
  }

  /** Requests waiting. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Connections `caller` holds. */
  held(caller: string): number {
    return this.#held.get(caller) ?? 0;
  }

  /**
   * Settles once `caller` may use one more connection (counted until
   * {@linkcode ConnectionShares.release}); rejects with the signal's reason
   * when it aborts first.
   */
  acquire(caller: string, signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const at = this.#waiting.indexOf(waiter);
        if (at < 0) return;
        this.#waiting.splice(at, 1);
        reject(signal!.reason);
        // A caller over its share waited behind this one: it may go now.
        this.#serve();
      };
      const waiter: Waiter = {
        caller,
        resolve: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
        reject: (error) => {
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(waiter);
      this.#serve();
    });
  }

  /** Gives back a connection `caller` held; serves who waits. */
  release(caller: string): void {
    const held = this.held(caller);
    if (held <= 1) this.#held.delete(caller);
    else this.#held.set(caller, held - 1);
    this.#used--;
    this.#serve();
  }

  /** Fails every waiting request with `error`. */
  rejectAll(error: unknown): void {
    for (const waiter of this.#waiting.splice(0)) waiter.reject(error);
  }

  /** Grants what the rule lets through, until nothing more can be granted. */
  #serve(): void {
    for (;;) {
      const at = this.#next();
      if (at < 0) return;
      const [waiter] = this.#waiting.splice(at, 1);
      this.#used++;
      this.#held.set(waiter.caller, this.held(waiter.caller) + 1);
      waiter.resolve();
    }
  }

  /**
   * The waiting request to serve next: the first one of a caller under its
   * share; else, when more than the reserve is free, the first one of the
   * caller holding the fewest connections; else none (-1).
   */
  #next(): number {
    const free = this.limits.max - this.#used;
    if (free <= 0) return -1;
    const under = this.#waiting.findIndex((w) => this.held(w.caller) < this.limits.share);
    if (under >= 0 || free <= this.limits.reserve) return under;
    let best = -1;
    for (let i = 0; i < this.#waiting.length; i++) {
      if (best < 0 || this.held(this.#waiting[i].caller) < this.held(this.#waiting[best].caller)) {
        best = i;
      }
    }
    return best;
  }
}

/** The limits for `max` connections with the defaults of what is not given. */
export function shareLimits(
  name: string,
  options: { maxConnections?: number; callerShare?: number; reservedConnections?: number },
): ShareLimits {
  const whole = (key: string, value: number | undefined, min: number): number | undefined => {
    if (value === undefined) return undefined;
    if (!Number.isInteger(value) || value < min) {
      throw new RangeError(
        `upstream server ${
          JSON.stringify(name)
        }: ${key} must be an integer of at least ${min}; got ${String(value)}`,
      );
    }
    return value;
  };
  const max = whole("maxConnections", options.maxConnections, 1) ?? 16;
  const share = Math.min(
    max,
    whole("callerShare", options.callerShare, 1) ?? Math.max(1, Math.floor(max / 4)),
  );
  const reserve = whole("reservedConnections", options.reservedConnections, 0) ??
    Math.min(share, max - share);
  if (reserve >= max) {
    throw new RangeError(
      `upstream server ${
        JSON.stringify(name)
      }: reservedConnections (${reserve}) must be below maxConnections (${max})`,
    );
  }
  return { max, share, reserve };
}
