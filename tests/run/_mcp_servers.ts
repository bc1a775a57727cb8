// Test helpers: real MCP servers from npm, started and stopped by the tests.

import type { McpStdioServerConfig } from "../../run/mod.ts";

export const EVERYTHING = "npm:@modelcontextprotocol/server-everything@2026.8.31";
export const FILESYSTEM = "npm:@modelcontextprotocol/server-filesystem@2026.8.31";
export const MEMORY = "npm:@modelcontextprotocol/server-memory@2026.8.31";

function denoRun(pkg: string, ...args: string[]): string[] {
  return ["run", "-A", "--no-config", pkg, ...args];
}

export function everythingStdio(): McpStdioServerConfig {
  return { transport: "stdio", command: Deno.execPath(), args: denoRun(EVERYTHING, "stdio") };
}

export function filesystemStdio(dir: string): McpStdioServerConfig {
  return { transport: "stdio", command: Deno.execPath(), args: denoRun(FILESYSTEM, dir) };
}

export function memoryStdio(file: string): McpStdioServerConfig {
  return {
    transport: "stdio",
    command: Deno.execPath(),
    args: denoRun(MEMORY),
    env: { MEMORY_FILE_PATH: file },
  };
}

export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** A server-everything over Streamable HTTP on a free port. */
export interface HttpServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export async function startEverythingHttp(): Promise<HttpServer> {
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: denoRun(EVERYTHING, "streamableHttp"),
    env: { PORT: String(port) },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  const deadline = setTimeout(() => child.kill("SIGKILL"), 30_000);
  while (!seen.includes("listening on port")) {
    const { value, done } = await reader.read();
    if (done) {
      clearTimeout(deadline);
      await child.status;
      throw new Error(`server-everything did not start: ${seen}`);
    }
    seen += value;
  }
  clearTimeout(deadline);
  const draining = (async () => {
    while (!(await reader.read()).done) { /* discard */ }
  })();
  let stopped = false;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    pid: child.pid,
    async stop() {
      if (!stopped) {
        stopped = true;
        try {
          child.kill("SIGKILL");
        } catch { /* already gone */ }
      }
      await child.status;
      await draining;
    },
  };
}

async function ps(args: string[]): Promise<string> {
  const { stdout } = await new Deno.Command("ps", { args, stdout: "piped", stderr: "null" })
    .output();
  return new TextDecoder().decode(stdout);
}

/** PIDs of this process's live children whose command line contains `needle` (uses `ps`). */
export async function childPids(needle: string): Promise<number[]> {
  const out = await ps(["-o", "pid=,stat=,args=", "--ppid", String(Deno.pid)]);
  return out.split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([pid, stat, ...args]) =>
      pid && !stat.startsWith("Z") && args.join(" ").includes(needle)
    )
    .map(([pid]) => Number(pid));
}

/** Whether a process exists and is not a zombie (uses `ps`). */
export async function isAlive(pid: number): Promise<boolean> {
  const stat = (await ps(["-o", "stat=", "-p", String(pid)])).trim();
  return stat !== "" && !stat.startsWith("Z");
}

/** The fault-test MCP server (tests/fixtures/run/mcp_fake_server.ts), in the given modes. */
export function fakeServer(
  modes = "normal",
  extra: Partial<McpStdioServerConfig> = {},
  options: string[] = [],
): McpStdioServerConfig {
  const script = new URL("../fixtures/run/mcp_fake_server.ts", import.meta.url).pathname;
  return {
    transport: "stdio",
    command: Deno.execPath(),
    args: ["run", "-A", "--no-config", script, modes, ...options],
    ...extra,
  };
}

/** Waits until none of the processes is alive (per `ps`), or `ms` passed; the ones still alive. */
export async function waitGone(pids: number[], ms: number): Promise<number[]> {
  const until = performance.now() + ms;
  while (true) {
    const alive: number[] = [];
    for (const pid of pids) if (await isAlive(pid)) alive.push(pid);
    if (alive.length === 0 || performance.now() > until) return alive;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The 2026-07-28 fixture server (`@modelcontextprotocol/server` 2.x) over stdio. */
export function modernStdio(
  flags: string[] = [],
  extra: Partial<McpStdioServerConfig> = {},
): McpStdioServerConfig {
  const script = new URL("../fixtures/run/mcp_modern_server.ts", import.meta.url).pathname;
  return {
    transport: "stdio",
    command: Deno.execPath(),
    args: ["run", "-A", script, "stdio", ...flags],
    ...extra,
  };
}

/** The 2026-07-28 fixture server over Streamable HTTP on a free port. */
export async function startModernHttp(flags: string[] = []): Promise<HttpServer> {
  const port = freePort();
  const script = new URL("../fixtures/run/mcp_modern_server.ts", import.meta.url).pathname;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script, "http", String(port), ...flags],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("listening on")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the modern fixture did not start: ${seen}`);
    seen += value;
  }
  void (async () => {
    while (!(await reader.read()).done) { /* discard */ }
  })();
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    pid: child.pid,
    async stop() {
      try {
        child.kill("SIGKILL");
      } catch { /* already gone */ }
      await child.status;
    },
  };
}
