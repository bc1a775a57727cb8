/**
 * Processes the runner starts live in their own process group, so that
 * stopping one stops everything it started (grandchildren included). Every
 * group not yet stopped is tracked (`live_groups.ts`): it gets SIGKILL when
 * this process ends, as a group outlives its parent otherwise. Command
 * providers, stdio MCP servers and module tools all start their processes
 * here.
 *
 * @module
 */

import { groupSignallingAllowed, type LiveGroup, trackLive, untrackLive } from "./live_groups.ts";

/** Default wait between SIGTERM and SIGKILL, in ms. */
export const DEFAULT_KILL_GRACE_MS = 2000;

/** How often a group whose leader has exited is checked for survivors, in ms. */
const POLL_MS = 25;

/** Options of {@linkcode spawnGroup}. */
export interface SpawnGroupOptions {
  /** Arguments. */
  args?: readonly string[];
  /** The child's complete environment (nothing else is inherited). */
  env: Record<string, string>;
  /** Working directory. */
  cwd?: string;
  /** stdin/stdout/stderr modes (default all "piped"). */
  stdin?: "piped" | "null" | "inherit";
  /** stdout mode. */
  stdout?: "piped" | "null" | "inherit";
  /** stderr mode. */
  stderr?: "piped" | "null" | "inherit";
}

/** A child process leading its own process group. */
export interface GroupChild {
  /** The Deno child process. */
  readonly process: Deno.ChildProcess;
  /**
   * Stops the whole group: SIGTERM now, SIGKILL after `graceMs` to whatever is
   * left of it (the leader, and grandchildren that outlive the leader or
   * ignore SIGTERM). Resolves once the leader has exited and the group is
   * empty, or SIGKILL was sent. Safe to call more than once, also after the
   * leader exited by itself.
   */
  stop(graceMs?: number): Promise<void>;
}

/**
 * How process groups are signalled. `Deno.kill` with a negative pid needs an
 * unscoped `--allow-run`; under a scoped grant (what the CLI asks for) the
 * `kill` program does the same job and needs only `--allow-run=kill`.
 * `"none"`: neither is allowed, so only the leader itself can be signalled.
 */
let groupSignalling: "deno" | "command" | "none" | undefined;

/** Runs `kill -s <signal> -- -<pgid>`; true when a member of the group got it. */
async function killCommand(pgid: number, signal: "TERM" | "KILL" | "0"): Promise<boolean> {
  const args = signal === "0" ? ["-0", "--", `-${pgid}`] : ["-s", signal, "--", `-${pgid}`];
  const { code } = await new Deno.Command("kill", {
    args,
    clearEnv: true,
    env: {},
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).output();
  return code === 0;
}

/**
 * Sends a signal (or probes with 0) to a process group: true when the group
 * has members, false once it is gone, undefined when it cannot be signalled.
 */
async function signalGroup(
  pgid: number,
  signal: "SIGTERM" | "SIGKILL" | 0,
): Promise<boolean | undefined> {
  // What the grants allow, asked without a prompt (a prompt on a terminal would hang closing).
  groupSignalling ??= groupSignallingAllowed();
  if (groupSignalling === "deno") {
    try {
      Deno.kill(-pgid, signal as Deno.Signal);
      groupSignalling = "deno";
      return true;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotCapable)) {
        if (error instanceof Deno.errors.NotFound) return false; // ESRCH: the group is gone
        if (error instanceof Deno.errors.PermissionDenied) return false; // EPERM: not ours now
        if (signal === 0) return true; // a runtime refusing signal 0: assume alive until SIGKILL
        return false;
      }
      groupSignalling = "command";
    }
  }
  if (groupSignalling === "command") {
    try {
      return await killCommand(pgid, signal === 0 ? "0" : signal === "SIGTERM" ? "TERM" : "KILL");
    } catch {
      groupSignalling = "none"; // no --allow-run=kill either
    }
  }
  return undefined;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Starts a program as the leader of a new process group (`detached`), with
 * exactly the environment given (`clearEnv`).
 *
 * @throws Deno.errors.NotFound when the program does not exist.
 */
export function spawnGroup(command: string, options: SpawnGroupOptions): GroupChild {
  const process = new Deno.Command(command, {
    args: options.args === undefined ? [] : [...options.args],
    env: options.env,
    clearEnv: true,
    cwd: options.cwd,
    detached: true,
    stdin: options.stdin ?? "piped",
    stdout: options.stdout ?? "piped",
    stderr: options.stderr ?? "piped",
  }).spawn();
  const pgid = process.pid;
  let leaderExited = false;
  const exited = process.status.then(
    () => void (leaderExited = true),
    () => void (leaderExited = true),
  );
  const tracked: LiveGroup = { pgid, process, leaderExited: () => leaderExited };
  trackLive(tracked);
  // Once the group was seen empty it is never signalled again: its ID may be reused.
  let groupGone = false;
  const alive = async (): Promise<boolean> => {
    if (!groupGone && (await signalGroup(pgid, 0)) === false) groupGone = true;
    if (groupGone) untrackLive(tracked);
    return !groupGone;
  };
  const send = async (signal: "SIGTERM" | "SIGKILL"): Promise<void> => {
    if (!leaderExited) {
      try {
        process.kill(signal);
      } catch { /* already gone */ }
    }
    if (!groupGone) {
      const reached = await signalGroup(pgid, signal);
      if (reached === false) groupGone = true;
      if (reached === undefined) groupGone = leaderExited; // only the leader can be reached
      if (groupGone) untrackLive(tracked);
    }
  };
  let stopping: Promise<void> | undefined;
  const stop = (graceMs: number = DEFAULT_KILL_GRACE_MS): Promise<void> => {
    stopping ??= (async () => {
      await send("SIGTERM");
      const deadline = performance.now() + Math.max(0, graceMs);
      // Wait for the leader, then for the rest of the group, until the grace ends.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, Math.max(0, graceMs));
      });
      await Promise.race([exited, grace]);
      while (leaderExited && (await alive()) && performance.now() < deadline) await delay(POLL_MS);
      clearTimeout(timer);
      if (!leaderExited || (await alive())) {
        await send("SIGKILL");
        await exited;
      }
      untrackLive(tracked);
    })();
    return stopping;
  };
  return { process, stop };
}
