// Helpers of the direct upstream path's tests (serve/_fast_upstream.ts):
// starting an HTTP fixture, calling a tool and recording everything the
// caller sees, counting the calls the direct path posted, and running a
// test body with the direct path on or off.

import type { Upstream, UpstreamNotification } from "../../serve/mod.ts";
import { directOptions } from "../../serve/_fast_upstream.ts";
import type { McpUpstream as Pool } from "../../serve/_mcp_upstream_pool.ts";
import { ROOT } from "./_helpers.ts";

/** A fixture server over HTTP: its URL and process. */
export interface HttpFixture {
  url: string;
  child: Deno.ChildProcess;
  close(): Promise<void>;
}

/** Starts `tests/fixtures/serve/<file>` with `--http 0` and reads the URL it prints. */
export async function startHttpFixture(file: string): Promise<HttpFixture> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", `tests/fixtures/serve/${file}`, "--http", "0"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the fixture exited");
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  void child.stdout.pipeTo(new WritableStream()).catch(() => {});
  return {
    url: text.trim(),
    child,
    async close() {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      await child.status;
    },
  };
}

/** What a caller of one tool call saw. */
export interface Seen {
  result?: Record<string, unknown>;
  error?: string;
  progress: unknown[];
  notifications: UpstreamNotification[];
}

/** Calls tool `name` as the gateway does (input-required results taken), recording what comes. */
export async function callOn(
  upstream: Upstream,
  name: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
  clientCapabilities: Record<string, unknown> = {},
): Promise<Seen> {
  const seen: Seen = { progress: [], notifications: [] };
  try {
    seen.result = await upstream.request("tools/call", { name, arguments: args }, {
      caller: "test",
      clientCapabilities,
      returnInputRequired: true,
      onProgress: (p) => seen.progress.push(p),
      onNotification: (n) => void seen.notifications.push(n),
      ...(signal === undefined ? {} : { signal }),
    });
  } catch (error) {
    const e = error as { code?: unknown; message?: string; name?: string };
    seen.error = typeof e.code === "number" ? `${e.code} ${e.message}` : "failed";
  }
  return seen;
}

/**
 * Counts the tool calls the direct path of `upstream` (an `mcpUpstream`)
 * posted, and those it handed to the SDK's path, from now on.
 */
export function spyOnDirectPosts(upstream: Upstream): { count(): number; handedBack(): number } {
  const pool = upstream as Pool;
  const before = pool.direct;
  return {
    count: () => pool.direct.posted - before.posted,
    handedBack: () => pool.direct.handedBack - before.handedBack,
  };
}

/** Runs `body` with the direct path on or off, over our HTTP/1.1 client or `fetch`. */
export async function withDirect<T>(
  options: { enabled: boolean; ownClient?: boolean },
  body: () => Promise<T>,
): Promise<T> {
  directOptions.enabled = options.enabled;
  directOptions.ownClient = options.ownClient ?? true;
  try {
    return await body();
  } finally {
    directOptions.enabled = true;
    directOptions.ownClient = true;
  }
}
