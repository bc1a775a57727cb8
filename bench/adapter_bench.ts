// Converting 10,000 typical tools (the sample tools and the real MCP servers'
// tools, under distinct namespaces) from MCP to OpenAI strict, Anthropic and
// Gemini. tools/s = 10,000 / (avg time per iteration). The baseline, measured
// in the same run, is a deep copy of the same tools (structuredClone): the
// least any conversion that returns a new tool must do.
//
//   deno bench --allow-read bench/adapter_bench.ts

import { defaultRegistry } from "../adapter/mod.ts";
import type { Tool } from "../model/mod.ts";
import { ALL_CASES } from "../tests/adapter/_cases.ts";
import everything from "../tests/fixtures/adapter/mcp_servers/server_everything.json" with {
  type: "json",
};
import filesystem from "../tests/fixtures/adapter/mcp_servers/server_filesystem.json" with {
  type: "json",
};
import memory from "../tests/fixtures/adapter/mcp_servers/server_memory.json" with { type: "json" };

const N = 10_000;
const base: Tool[] = [
  ...Object.values(ALL_CASES),
  ...(everything.tools as unknown as Tool[]),
  ...(filesystem.tools as unknown as Tool[]),
  ...(memory.tools as unknown as Tool[]),
];
const tools: Tool[] = Array.from({ length: N }, (_, i) => ({
  ...base[i % base.length],
  namespace: `ns${i % 97}`,
}));
const registry = defaultRegistry();

function run(to: string, options: Parameters<typeof registry.convert>[3]): number {
  let warnings = 0;
  for (const tool of tools) warnings += registry.convert(tool, "mcp", to, options).warnings.length;
  return warnings;
}

Deno.bench(`baseline: structuredClone, ${N} tools`, { group: "adapter", baseline: true }, () => {
  for (const tool of tools) structuredClone(tool);
});

Deno.bench(`MCP → OpenAI strict, ${N} tools`, { group: "adapter" }, () => {
  run("openai", { strict: true });
});

Deno.bench(`MCP → OpenAI auto, ${N} tools`, { group: "adapter" }, () => {
  run("openai", { strict: "auto" });
});

Deno.bench(`MCP → Anthropic, ${N} tools`, { group: "adapter" }, () => {
  run("anthropic", {});
});

Deno.bench(`MCP → Anthropic strict, ${N} tools`, { group: "adapter" }, () => {
  run("anthropic", { strict: true });
});

Deno.bench(`MCP → Gemini parameters, ${N} tools`, { group: "adapter" }, () => {
  run("gemini", {});
});
