// Connect times of MCP servers over stdio: spawn, handshake and tools/list
// through the runner, for a 2025-era npm server (server-everything) and a
// 2026-07-28 server written with @modelcontextprotocol/server 2.x, per
// `protocol` setting; and, for comparison, the bare v2 SDK client with
// `versionNegotiation: 'auto'` (its stdio probe runs in an extra child
// process) and without (legacy). Needs --allow-run; skipped without it.
//
//   deno bench -A bench/mcp_connect_bench.ts
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { type McpProtocol, type McpStdioServerConfig, Runner } from "../run/mod.ts";

const canRun = Deno.permissions.querySync({ name: "run" }).state === "granted";
const deno = Deno.execPath();
const EVERYTHING = [
  "run",
  "-A",
  "--no-config",
  "npm:@modelcontextprotocol/server-everything@2026.8.31",
];
const MODERN = [
  "run",
  "-A",
  new URL("../tests/fixtures/run/mcp_modern_server.ts", import.meta.url).pathname,
  "stdio",
];

function config(args: string[], protocol?: McpProtocol): McpStdioServerConfig {
  return { transport: "stdio", command: deno, args, ...(protocol ? { protocol } : {}) };
}

async function viaRunner(server: McpStdioServerConfig): Promise<void> {
  const runner = new Runner({ mcpServers: { s: server } });
  try {
    await runner.importMcpTools("s");
  } finally {
    await runner.close();
  }
}

async function viaSdk(args: string[], mode: "auto" | "legacy"): Promise<void> {
  const client = new Client({ name: "bench", version: "0.0.0" }, {
    versionNegotiation: { mode },
  });
  await client.connect(new StdioClientTransport({ command: deno, args, stderr: "ignore" }));
  try {
    await client.listTools();
  } finally {
    await client.close();
  }
}

const options = { ignore: !canRun, n: 10, warmup: 1 };
const cases: [string, string, () => Promise<void>][] = [
  [
    "server-everything (2025)",
    "runner, protocol auto (default)",
    () => viaRunner(config(EVERYTHING)),
  ],
  [
    "server-everything (2025)",
    "runner, protocol legacy",
    () => viaRunner(config(EVERYTHING, "legacy")),
  ],
  [
    "server-everything (2025)",
    "bare SDK, versionNegotiation legacy",
    () => viaSdk(EVERYTHING, "legacy"),
  ],
  [
    "server-everything (2025)",
    "bare SDK, versionNegotiation auto",
    () => viaSdk(EVERYTHING, "auto"),
  ],
  ["2026-07-28 fixture", "runner, protocol auto (default)", () => viaRunner(config(MODERN))],
  ["2026-07-28 fixture", "runner, protocol legacy", () => viaRunner(config(MODERN, "legacy"))],
  ["2026-07-28 fixture", "bare SDK, versionNegotiation auto", () => viaSdk(MODERN, "auto")],
];
for (const [group, name, fn] of cases) {
  Deno.bench(`${group}: ${name}`, {
    ...options,
    group,
    baseline: name.startsWith("runner, protocol auto"),
  }, async () => {
    // An async function: deno bench does not await a plain one returning a promise.
    await fn();
  });
}
