// Starts `serve --http 127.0.0.1:0` through the CLI as users run it, for
// bench/serve_load.ts, and stops it: SIGTERM, then SIGKILL if it has not
// exited within 15 s.

/** A running serve. */
export interface RunningServe {
  /** The MCP endpoint. */
  url: string;
  /** The process ID of serve (the `deno` process itself). */
  pid: number;
  /** The last lines serve wrote to stderr, and how many it wrote in all. */
  log(): { tail: string[]; lines: number };
  /** Stops serve; says how it ended. */
  stop(): Promise<{ code: number; killed: boolean }>;
}

const TAIL = 20;

/**
 * Starts `deno run -A ...denoFlags cli.ts serve <manifest> --http 127.0.0.1:0 ...args`
 * with `env` added.
 */
export async function startServe(
  root: string,
  manifest: string,
  args: string[],
  env: Record<string, string>,
  denoFlags: string[] = [],
): Promise<RunningServe> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      ...denoFlags,
      `${root}cli.ts`,
      "serve",
      manifest,
      "--http",
      "127.0.0.1:0",
      ...args,
    ],
    cwd: root,
    env,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const tail: string[] = [];
  let lines = 0;
  let resolveUrl!: (url: string) => void;
  let rejectUrl!: (error: Error) => void;
  const url = new Promise<string>((resolve, reject) => {
    resolveUrl = resolve;
    rejectUrl = reject;
  });
  // Serve writes an access-log line per call: read them all (a full pipe
  // would stall serve), keep the last few for the report.
  const pump = (async () => {
    let buffered = "";
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) {
      buffered += decoder.decode(chunk, { stream: true });
      for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        lines++;
        tail.push(line);
        if (tail.length > TAIL) tail.shift();
        const match = /serving .* at (http:\/\/\S+)/.exec(line);
        if (match) resolveUrl(match[1]);
      }
    }
    rejectUrl(new Error(`serve exited before listening:\n${tail.join("\n")}`));
  })();
  const timer = setTimeout(
    () => rejectUrl(new Error(`serve did not listen within 60 s:\n${tail.join("\n")}`)),
    60_000,
  );
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    let killed = false;
    const grace = setTimeout(() => {
      killed = true;
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
    }, 15_000);
    const status = await child.status;
    clearTimeout(grace);
    await pump;
    return { code: status.code, killed };
  };
  try {
    return {
      url: await url,
      pid: child.pid,
      log: () => ({ tail: [...tail], lines }),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
