// Entry point for the official MCP conformance harness (client mode):
//   deno task conformance:mcp
// The harness starts a scripted Streamable HTTP server per scenario, then runs
// this program with the server URL as the last argument and the scenario name
// in MCP_CONFORMANCE_SCENARIO. Every scenario is driven through our Runner:
// connect + list (importMcpTools), then run the scenario's tools.

import { Runner } from "../../run/mod.ts";

const url = Deno.args.at(-1);
const scenario = Deno.env.get("MCP_CONFORMANCE_SCENARIO") ?? "";
if (url === undefined) {
  console.error("usage: conformance_client.ts <server-url>");
  Deno.exit(2);
}

/** Arguments for the tools the scenarios offer; other tools get `{}`. */
const ARGS: Record<string, Record<string, unknown>> = {
  add_numbers: { a: 5, b: 3 },
};

const runner = new Runner({
  mcpServers: { server: { transport: "http", url } },
  // Accept every form with the defaults the server declared (SEP-1034).
  onElicitation: () => ({ action: "accept", content: {} }),
  timeoutMs: 20_000,
});

let failed = false;
try {
  const { imported, skipped } = await runner.importMcpTools("server", { namespace: null });
  console.log(`[${scenario}] listed ${imported.length} tools, skipped ${skipped.length}`);
  if (scenario !== "initialize") {
    for (const { id, tool } of imported) {
      const result = await runner.run(id, ARGS[tool.name] ?? {});
      console.log(`[${scenario}] ${id} -> ${JSON.stringify(result.structured)}`);
    }
  }
} catch (error) {
  failed = true;
  console.error(`[${scenario}] ${(error as Error).name}: ${(error as Error).message}`);
} finally {
  await runner.close();
}
Deno.exit(failed ? 1 : 0);
