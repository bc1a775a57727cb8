// Private: a run waiting for a server's connection being opened, within what
// is left of the run's deadline; the last waiter to give up stops the start.

import { McpTimeoutError } from "./_checks.ts";
import type { Opening } from "./connection.ts";
import type { Connection } from "./_lifecycle.ts";
import { stderrHint } from "./_report.ts";
import { NO_TIMEOUT } from "./_sdk.ts";

/** Whether a deadline is set (`0` and `Infinity` mean none). */
export function limited(timeoutMs: number): boolean {
  return timeoutMs > 0 && timeoutMs < NO_TIMEOUT;
}

/** Who waits, and under which deadline. */
export interface WaitOptions {
  server: string;
  toolId: string | undefined;
  started: number;
  timeoutMs: number;
  signal: AbortSignal | undefined;
}

/** Settles with the opening's connection, or rejects at the deadline or abort. */
export function waitForOpening(opening: Opening, options: WaitOptions): Promise<Connection> {
  const { server, toolId, started, timeoutMs, signal } = options;
  opening.waiters++;
  return new Promise<Connection>((resolve, reject) => {
    let done = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (): boolean => {
      if (done) return false;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      opening.waiters--;
      return true;
    };
    const giveUp = (error: unknown): void => {
      if (!finish()) return;
      // Nobody waits for this server any more: stop starting it.
      if (opening.waiters === 0 && !opening.settled) opening.abort.abort(error);
      reject(error);
    };
    const onAbort = (): void => giveUp(signal!.reason);
    if (limited(timeoutMs)) {
      const left = Math.max(0, timeoutMs - (performance.now() - started));
      timer = setTimeout(() => {
        giveUp(
          new McpTimeoutError(timeoutMs, "connect", server, {
            toolId,
            hint: stderrHint(opening.stdio),
          }),
        );
      }, left);
    }
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    opening.promise.then((connection) => {
      if (finish()) resolve(connection);
    }, (error) => {
      if (finish()) reject(error);
    });
  });
}
