// What a process costs the machine: its resident memory and the processes it
// started (children, grandchildren...), read with one `ps` per sample (Deno
// grants /proc/<pid> only with --allow-all). Used by bench/serve_load.ts to
// watch `serve` and the tool processes it starts.

/** One sample of a process tree. */
export interface TreeSample {
  /** Resident memory of the root process, bytes (0 when it is gone). */
  rss: number;
  /** How many descendants were alive. */
  children: number;
  /** Their process IDs, each with when it started (ms since the epoch, to the second). */
  pids: Map<number, number>;
  /** Their command lines. */
  commands: string[];
}

interface Row {
  pid: number;
  ppid: number;
  rssKb: number;
  state: string;
  /** When it started, ms since the epoch (to the second). */
  started: number;
  args: string;
}

async function table(): Promise<Row[]> {
  const { stdout } = await new Deno.Command("ps", {
    args: ["-e", "-o", "pid=,ppid=,rss=,etimes=,stat=,args="],
    stdout: "piped",
    stderr: "null",
  }).output();
  const now = Date.now();
  return new TextDecoder().decode(stdout).split("\n").filter((l) => l.trim() !== "").map((l) => {
    const [pid, ppid, rss, elapsed, state, ...args] = l.trim().split(/\s+/);
    return {
      pid: Number(pid),
      ppid: Number(ppid),
      rssKb: Number(rss),
      state: state ?? "",
      started: now - Number(elapsed) * 1000,
      args: args.join(" "),
    };
  });
}

/** Samples the root's memory and its live (not zombie) descendants. */
export async function sampleTree(pid: number): Promise<TreeSample> {
  const rows = (await table()).filter((r) => !r.state.startsWith("Z"));
  const byParent = new Map<number, number[]>();
  for (const row of rows) byParent.set(row.ppid, [...(byParent.get(row.ppid) ?? []), row.pid]);
  const started = new Map(rows.map((r) => [r.pid, r.started]));
  const pids = new Map<number, number>();
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of byParent.get(queue.shift()!) ?? []) {
      if (!pids.has(child)) {
        pids.set(child, started.get(child)!);
        queue.push(child);
      }
    }
  }
  const root = rows.find((r) => r.pid === pid);
  const commands = rows.filter((r) => pids.has(r.pid)).map((r) => r.args);
  return { rss: (root?.rssKb ?? 0) * 1024, children: pids.size, pids, commands };
}

/**
 * Which of these processes (ID and start time, as sampled) are still alive:
 * not zombies, and started when they were seen (not a new process that reuses
 * the ID).
 */
export async function stillAlive(seen: Map<number, number>): Promise<number[]> {
  return (await table())
    .filter((r) => !r.state.startsWith("Z"))
    .filter((r) => seen.has(r.pid) && Math.abs(seen.get(r.pid)! - r.started) <= 2000)
    .map((r) => r.pid);
}
