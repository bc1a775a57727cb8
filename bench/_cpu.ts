// CPU time of processes and their descendants, read from /proc/<pid>/stat
// (Linux; Deno grants /proc/<pid> only with --allow-all). Used by
// bench/gateway_bench.ts to report the CPU each process spends per call.

/** Clock ticks per second of /proc's utime and stime (the kernel's USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

interface Stat {
  pid: number;
  ppid: number;
  /** utime + stime, ms. */
  cpuMs: number;
}

function statOf(pid: number): Stat | undefined {
  let text: string;
  try {
    text = Deno.readTextFileSync(`/proc/${pid}/stat`);
  } catch {
    return undefined;
  }
  // The command name is in parentheses and may hold spaces: fields follow the last ")".
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  // fields[0] is field 3 (state): ppid is field 4, utime 14, stime 15.
  const ppid = Number(fields[1]);
  const ticks = Number(fields[11]) + Number(fields[12]);
  return { pid, ppid, cpuMs: ticks * 1000 / TICKS_PER_SECOND };
}

/** Every live process's stat. */
function allStats(): Stat[] {
  const out: Stat[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const stat = statOf(Number(entry.name));
    if (stat !== undefined) out.push(stat);
  }
  return out;
}

/** The descendants of `pid` (children, grandchildren...), not `pid` itself. */
export function descendantsOf(pid: number): number[] {
  const stats = allStats();
  const byParent = new Map<number, number[]>();
  for (const s of stats) byParent.set(s.ppid, [...(byParent.get(s.ppid) ?? []), s.pid]);
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of byParent.get(queue.shift()!) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** CPU time (user + system, ms) the processes spent so far; gone ones count 0. */
export function cpuMs(pids: readonly number[]): number {
  let total = 0;
  for (const pid of pids) total += statOf(pid)?.cpuMs ?? 0;
  return total;
}

/** Resident memory of a process, bytes (0 when it is gone). */
export function rssBytes(pid: number): number {
  try {
    const text = Deno.readTextFileSync(`/proc/${pid}/status`);
    const match = /VmRSS:\s+(\d+) kB/.exec(text);
    return match === null ? 0 : Number(match[1]) * 1024;
  } catch {
    return 0;
  }
}
