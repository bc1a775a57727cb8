// Private: one run of a command provider's program. The program leads its own
// process group; its result is taken when it exits, even when a background
// grandchild still holds stdout open; nothing it started outlives the run.

import { Drain, HeadBuffer, within } from "../output/drain.ts";
import type { GroupChild } from "../process/group.ts";
import { TailBuffer } from "../output/text.ts";

/** How long stdout and stderr may still deliver after the program exited, in ms. */
const EXIT_DRAIN_MS = 500;

/** Limits of one run. */
interface RunLimits {
  /** Largest stdout kept, in bytes. */
  maxOutputBytes: number;
  /** How much of stderr is kept, in bytes. */
  stderrTailBytes: number;
  /** Wait between SIGTERM and SIGKILL, in ms. */
  killGraceMs: number;
}

/** How one run ended. */
export interface RunOutcome {
  /** The program's exit status (after a stop: how it was stopped). */
  status: Deno.CommandStatus;
  /** The first `maxOutputBytes` of stdout. */
  stdout: HeadBuffer;
  /** The tail of stderr. */
  stderr: string;
  /** Whether stdout passed `maxOutputBytes` (the group was stopped at once). */
  overflow: boolean;
}

/**
 * Writes `input` to the program's stdin, reads stdout (capped) and stderr (its
 * tail) until the program exits, the cap is passed or `signal` aborts, then
 * stops whatever is left of the group and settles once all of it is gone.
 */
export async function runGroup(
  group: GroupChild,
  input: Uint8Array,
  limits: RunLimits,
  signal: AbortSignal,
): Promise<RunOutcome> {
  const child = group.process;
  const out = new HeadBuffer(limits.maxOutputBytes);
  const err = new TailBuffer(limits.stderrTailBytes);
  const stdout = new Drain(child.stdout, (chunk) => out.push(chunk));
  const stderr = new Drain(child.stderr, (chunk) => err.push(chunk));
  const writer = child.stdin.getWriter();
  const writing = (async () => {
    try {
      await writer.write(input);
      await writer.close();
    } catch { /* the program exited (or was stopped) without reading its input */ }
  })();
  const stop = (): void => void group.stop(limits.killGraceMs);
  signal.addEventListener("abort", stop, { once: true });
  if (signal.aborted) stop();
  try {
    // A promise per run that never settles (a shared one would keep every run's reactions).
    const never = new Promise<never>(() => {});
    const overflowed = stdout.done.then((end) => end === "full" ? true : never, () => never);
    const first = await Promise.race([child.status, overflowed]);
    if (first === true) {
      await group.stop(limits.killGraceMs);
      return { status: await child.status, stdout: out, stderr: err.text(), overflow: true };
    }
    // The program exited: take what its pipes still hold, briefly, then stop the rest.
    await within(Promise.all([stdout.done, stderr.done]), EXIT_DRAIN_MS);
    await Promise.all([stdout.cancel(), stderr.cancel()]);
    return { status: first, stdout: out, stderr: err.text(), overflow: out.overflow };
  } finally {
    signal.removeEventListener("abort", stop);
    await group.stop(limits.killGraceMs);
    await Promise.all([stdout.cancel(), stderr.cancel()]);
    await writer.abort().catch(() => {});
    await Promise.allSettled([stdout.done, stderr.done, writing, child.status]);
  }
}
