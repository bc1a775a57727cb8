/**
 * The process groups started in this process that were not stopped yet. A
 * group outlives its parent unless someone kills it (a server that ignores
 * SIGTERM and the end of its stdin runs on for ever), so each of them gets
 * SIGKILL when this process ends through `Deno.exit` or the end of its event
 * loop (`unload`); a program that ends on a signal (no `unload` then) calls
 * {@linkcode killLiveGroupsSync} first. A module of its own, with no imports:
 * the CLI loads it at start-up, and the process machinery only when it runs
 * one.
 *
 * @module
 */

/** A started group that was not yet seen gone or stopped with SIGKILL. */
export interface LiveGroup {
  /** The group's ID: the leader's pid. */
  readonly pgid: number;
  /** The leader. */
  readonly process: Deno.ChildProcess;
  /** True once the leader exited (its handle can no longer signal it). */
  leaderExited(): boolean;
}

const live = new Set<LiveGroup>();
let unloadHooked = false;
/** `Deno.kill` on a group needs an unscoped --allow-run; else the `kill` program does it. */
let viaKillProgram = false;

/**
 * How process groups can be signalled under the permissions granted, found
 * without prompting: `Deno.kill` of a group needs an unscoped `--allow-run`,
 * the `kill` program `--allow-run=kill`; `"none"`: only each group's leader
 * (through its own handle, which needs no permission). Asked with
 * `Deno.permissions.querySync`, because calling either without its grant
 * stops at a permission prompt on a terminal (and a closing CLI hangs there).
 */
export function groupSignallingAllowed(): "deno" | "command" | "none" {
  try {
    if (Deno.permissions.querySync({ name: "run" }).state === "granted") return "deno";
    if (Deno.permissions.querySync({ name: "run", command: "kill" }).state === "granted") {
      return "command";
    }
  } catch { /* a runtime without the query: signal the leaders only */ }
  return "none";
}

/** Tracks a started group until {@linkcode untrackLive}. */
export function trackLive(group: LiveGroup): void {
  if (!unloadHooked) {
    unloadHooked = true;
    globalThis.addEventListener("unload", () => killLiveGroupsSync());
  }
  live.add(group);
}

/** Stops tracking a group: it is gone, or was sent SIGKILL. */
export function untrackLive(group: LiveGroup): void {
  live.delete(group);
}

/**
 * Sends SIGKILL, synchronously, to every group not stopped yet: the leader
 * through its handle, the whole group through `Deno.kill` (unscoped
 * `--allow-run`) or else the `kill` program (`--allow-run=kill`). Returns how
 * many groups there were.
 */
export function killLiveGroupsSync(): number {
  const groups = [...live];
  live.clear();
  const rest: number[] = [];
  const allowed = groups.length === 0 ? "none" : groupSignallingAllowed();
  if (allowed === "command") viaKillProgram = true;
  for (const group of groups) {
    if (!group.leaderExited()) {
      try {
        group.process.kill("SIGKILL");
      } catch { /* already gone */ }
    }
    if (allowed === "none") continue; // never a prompt: only the leader was reached
    if (viaKillProgram) {
      rest.push(group.pgid);
      continue;
    }
    try {
      Deno.kill(-group.pgid, "SIGKILL");
    } catch (error) {
      if (error instanceof Deno.errors.NotCapable) {
        viaKillProgram = true;
        rest.push(group.pgid);
      } // else ESRCH / EPERM: the group is gone
    }
  }
  if (rest.length > 0) {
    try {
      new Deno.Command("kill", {
        args: ["-s", "KILL", "--", ...rest.map((pgid) => `-${pgid}`)],
        clearEnv: true,
        env: {},
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).outputSync();
    } catch { /* no --allow-run=kill either: only the leaders were reached */ }
  }
  return groups.length;
}
