// Test helper: the live child processes of a process (Linux, through ps),
// and a sampler that records the most seen at once while some work runs.

/**
 * The PIDs and resident memory (VmRSS, KiB) of `parent`'s live children
 * whose executable is named `comm` (default `deno`), as `ps` reads them from
 * /proc (Deno lets a program read /proc itself only with --allow-all). Tests
 * that count the children of the test process itself give their children an
 * executable of their own name (a link to deno): the test files run side by
 * side in one process, so other files' children are its children too.
 */
export async function childrenOf(
  parent: number,
  comm = "deno",
): Promise<{ pid: number; rssKiB: number }[]> {
  const out = await new Deno.Command("ps", {
    args: ["-o", "pid=,rss=,stat=,comm=", "--ppid", String(parent)],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).output();
  const children: { pid: number; rssKiB: number }[] = [];
  for (const line of new TextDecoder().decode(out.stdout).split("\n")) {
    const [pid, rss, stat, name] = line.trim().split(/\s+/);
    if (name !== comm || stat.startsWith("Z")) continue;
    children.push({ pid: Number(pid), rssKiB: Number(rss) });
  }
  return children;
}

/** What a sampler saw: the most children at once, and the most summed VmRSS (KiB). */
export interface ChildSamples {
  most: number;
  mostRssKiB: number;
  samples: number;
}

/** Samples `parent`'s children every `everyMs` until `stop()` resolves what it saw. */
export function sampleChildren(
  parent: number,
  everyMs = 20,
  comm = "deno",
): { stop: () => Promise<ChildSamples> } {
  const seen: ChildSamples = { most: 0, mostRssKiB: 0, samples: 0 };
  let running = true;
  const loop = (async () => {
    while (running) {
      const children = await childrenOf(parent, comm);
      seen.samples++;
      seen.most = Math.max(seen.most, children.length);
      seen.mostRssKiB = Math.max(seen.mostRssKiB, children.reduce((n, c) => n + c.rssKiB, 0));
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return seen;
    },
  };
}
