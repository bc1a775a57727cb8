// Private: processes the runner starts live in their own process group, so that
// stopping one stops everything it started (grandchildren included).

/** Default wait between SIGTERM and SIGKILL, in ms. */
export const DEFAULT_KILL_GRACE_MS = 2000;

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
   * Stops the whole group: SIGTERM now, SIGKILL after `graceMs` unless the
   * group is gone. Resolves once the direct child has exited. Safe to call
   * more than once.
   */
  stop(graceMs?: number): Promise<void>;
}

function signalGroup(pid: number, signal: Deno.Signal): boolean {
  try {
    Deno.kill(-pid, signal);
    return true;
  } catch {
    return false; // the group is gone (ESRCH) or was never ours
  }
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
  let stopping: Promise<void> | undefined;
  const stop = (graceMs: number = DEFAULT_KILL_GRACE_MS): Promise<void> => {
    stopping ??= (async () => {
      if (!signalGroup(process.pid, "SIGTERM")) {
        try {
          process.kill("SIGTERM");
        } catch { /* already gone */ }
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const exited = process.status.then(() => "exited" as const, () => "exited" as const);
      const grace = new Promise<"grace">((resolve) => {
        timer = setTimeout(() => resolve("grace"), graceMs);
      });
      const first = await Promise.race([exited, grace]);
      clearTimeout(timer);
      // Grandchildren may ignore SIGTERM or outlive the leader: make sure the group is gone.
      if (first === "grace") {
        signalGroup(process.pid, "SIGKILL");
        try {
          process.kill("SIGKILL");
        } catch { /* already gone */ }
        await exited;
      } else {
        signalGroup(process.pid, "SIGKILL");
      }
    })();
    return stopping;
  };
  return { process, stop };
}
