// Private: how the CLI ends on SIGINT (Ctrl-C) and SIGTERM. While a command
// runs, both are caught. A command that can stop cleanly takes the first one
// (`onStopSignal`): its work is aborted and it ends through its usual path,
// which closes what it started. Otherwise (no command takes the signal, or a
// second one arrives) the CLI ends at once, but first sends SIGKILL to every
// process group it started: a signal's default action would end the CLI with
// no `unload`, and a group outlives its parent (a server that ignores SIGTERM
// and the end of its stdin would run on).

import { killLiveGroupsSync } from "../run/process/live_groups.ts";

/** The signals that stop the CLI. */
export type StopSignal = "SIGINT" | "SIGTERM";

/** The exit code of a CLI ended at once by a signal: 128 + the signal's number, as a shell shows. */
const EXIT_ON: Readonly<Record<StopSignal, number>> = { SIGINT: 130, SIGTERM: 143 };

const takers = new Set<(signal: StopSignal) => void>();
const listeners = new Map<StopSignal, () => void>();
let guards = 0;
let received = 0;

function onSignal(signal: StopSignal): void {
  received++;
  if (received === 1 && takers.size > 0) {
    for (const take of [...takers]) take(signal);
    return;
  }
  killLiveGroupsSync();
  Deno.exit(EXIT_ON[signal]);
}

/**
 * Catches SIGINT and SIGTERM until the returned function is called (where the
 * platform has them; elsewhere it does nothing). Calls nest.
 */
export function guardStopSignals(): () => void {
  if (guards++ === 0) {
    received = 0;
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      const listener = () => onSignal(signal);
      try {
        Deno.addSignalListener(signal, listener);
        listeners.set(signal, listener);
      } catch { /* no such signal on this platform */ }
    }
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--guards > 0) return;
    for (const [signal, listener] of listeners) Deno.removeSignalListener(signal, listener);
    listeners.clear();
  };
}

/**
 * Hands the first SIGINT or SIGTERM to `take` (which stops the command's work)
 * until the returned function is called; signals are caught meanwhile (see
 * {@linkcode guardStopSignals}). A later signal ends the CLI at once.
 */
export function onStopSignal(take: (signal: StopSignal) => void): () => void {
  const release = guardStopSignals();
  takers.add(take);
  return () => {
    takers.delete(take);
    release();
  };
}
