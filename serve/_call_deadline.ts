// Private: the per-call pieces of a forwarded call that were built from
// general-purpose parts on every call: the deadline joined with the client's
// signal (`AbortSignal.timeout` + `AbortSignal.any` leave a timer pending for
// the whole deadline and register the joined signal with both sources), and
// the UTF-8 size of a result checked against its cap (an encoded copy of the
// whole result per call).

/** A call's signal: aborted by the client's signal or at the deadline, whichever comes first. */
export interface CallDeadline {
  /** Aborts with the client's reason, or with a `TimeoutError` at the deadline. */
  readonly signal: AbortSignal;
  /** Whether the deadline (not the client) aborted it. */
  readonly expired: boolean;
  /** Stops the timer and lets go of the client's signal (the call is over). */
  clear(): void;
}

/**
 * The signal of one call: what `AbortSignal.any([client, AbortSignal.timeout(ms)])`
 * gives (the same reasons: the client's, or a `TimeoutError` `DOMException`),
 * with the timer cleared and the listener removed once the call is over.
 */
export function callDeadline(timeoutMs: number, client: AbortSignal | undefined): CallDeadline {
  const controller = new AbortController();
  let expired = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const follow = () => controller.abort(client!.reason);
  if (client?.aborted) {
    controller.abort(client.reason);
  } else {
    client?.addEventListener("abort", follow, { once: true });
    // Referenced, like Deno's AbortSignal.timeout once someone listens: a
    // call in progress keeps the process alive until it ends or expires.
    timer = setTimeout(() => {
      expired = true;
      controller.abort(
        new DOMException("The operation was aborted due to timeout", "TimeoutError"),
      );
    }, timeoutMs);
  }
  return {
    signal: controller.signal,
    get expired() {
      return expired;
    },
    clear() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      client?.removeEventListener("abort", follow);
    },
  };
}

/**
 * The UTF-8 byte length of `text` when it is over `max`, else `undefined`;
 * a text whose every character could take 3 bytes (a UTF-16 unit is at most
 * 3 UTF-8 bytes) and still fit is not measured.
 */
export function utf8LengthOver(text: string, max: number): number | undefined {
  if (text.length * 3 <= max) return undefined;
  const size = new TextEncoder().encode(text).length;
  return size > max ? size : undefined;
}
