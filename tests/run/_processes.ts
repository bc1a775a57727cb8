// Test helpers: whether processes are still running.

/**
 * Whether a process has exited. A zombie (exited, waiting for its reaper)
 * counts as exited. Uses `ps` (Deno denies reading /proc/<pid> without
 * --allow-all); without `ps`, waits up to 5 s for `kill(pid, 0)` to fail.
 */
export async function exited(pid: number): Promise<boolean> {
  try {
    const out = await new Deno.Command("ps", { args: ["-o", "stat=", "-p", String(pid)] })
      .output();
    const stat = new TextDecoder().decode(out.stdout).trim();
    return stat === "" || stat.startsWith("Z");
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  for (let waited = 0; waited < 5000; waited += 50) {
    try {
      Deno.kill(pid, 0 as unknown as Deno.Signal);
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/** Reads pids (one per line) from a file a command wrote, waiting up to 10 s for `count` of them. */
export async function readPids(path: string, count: number): Promise<number[]> {
  for (let waited = 0; waited < 10_000; waited += 25) {
    const text = await Deno.readTextFile(path).catch(() => "");
    const pids = text.split("\n").filter((line) => /^\d+$/.test(line.trim())).map(Number);
    if (pids.length >= count) return pids;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${path} did not get ${count} pids`);
}
