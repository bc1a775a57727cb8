// Connect times of MCP servers through the runner: spawn (or first request),
// handshake and tools/list, for a 2025-era npm server and a 2026-07-28 server
// written with the v2 SDK, per `protocol` setting. Needs --allow-run.
//
//   deno bench -A bench/mcp_connect_bench.ts
import { type McpServerConfig, Runner } from "../run/mod.ts";

const canRun = Deno.permissions.querySync({ name: "run" }).state === "granted";
const deno = Deno.execPath();
const everything: McpServerConfig = {
  transport: "stdio",
  command: deno,
  args: ["run", "-A", "--no-config", "npm:@modelcontextprotocol/server-everything@2026.8.31"],
};

async function connect(config: McpServerConfig): Promise<void> {
  const runner = new Runner({ mcpServers: { s: config } });
  try {
    await runner.importMcpTools("s");
  } finally {
    await runner.close();
  }
}

Deno.bench("server-everything (2025), stdio, default protocol", {
  group: "connect stdio",
  ignore: !canRun,
  n: 10,
  warmup: 1,
}, async () => {
  await connect(everything);
});
