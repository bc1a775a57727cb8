// The tools/list output of real MCP servers (recorded by
// tests/fixtures/adapter/record_mcp_tools.ts), converted to every target.

import assert from "node:assert/strict";
import { type ConvertOptions, defaultRegistry, preflight } from "../../adapter/mod.ts";
import type { Tool } from "../../model/mod.ts";
import { uncovered } from "./_diff.ts";
import { ALL_CASES } from "./_cases.ts";

const SERVERS = ["server_everything", "server_filesystem", "server_memory"];
const TARGETS: { name: string; to: string; options?: ConvertOptions }[] = [
  { name: "mcp", to: "mcp" },
  { name: "openai strict", to: "openai", options: { strict: true } },
  { name: "openai auto", to: "openai", options: { strict: "auto" } },
  { name: "openai-responses strict", to: "openai-responses", options: { strict: true } },
  { name: "openai-responses non-strict", to: "openai-responses", options: { strict: false } },
  { name: "anthropic", to: "anthropic" },
  { name: "anthropic strict", to: "anthropic", options: { strict: true } },
  { name: "gemini parameters", to: "gemini" },
  {
    name: "gemini parametersJsonSchema",
    to: "gemini",
    options: { geminiSchema: "parametersJsonSchema" },
  },
];
const registry = defaultRegistry();

async function load(server: string): Promise<Tool[]> {
  const url = new URL(`../fixtures/adapter/mcp_servers/${server}.json`, import.meta.url);
  return JSON.parse(await Deno.readTextFile(url)).tools;
}

function checkDiffs(label: string, tools: Record<string, Tool>): void {
  for (const target of TARGETS) {
    for (const [name, tool] of Object.entries(tools)) {
      const out = registry.convert(tool, "mcp", target.to, target.options);
      const back = registry.convert(out.tool, target.to, "mcp").tool as Tool;
      const missing = [
        ...uncovered(tool.inputSchema, back.inputSchema, "/inputSchema", out.warnings),
        ...uncovered(tool.outputSchema, back.outputSchema, "/outputSchema", out.warnings),
      ];
      assert.deepEqual(
        missing,
        [],
        `${label} ${name} → ${target.name}: differences without a warning`,
      );
    }
  }
}

for (const server of SERVERS) {
  Deno.test(`real ${server} tools convert to every target and pass that target's preflight`, async () => {
    const tools = await load(server);
    assert.ok(tools.length >= 9);
    for (const target of TARGETS) {
      const converted = tools.map((tool) =>
        registry.convert(tool, "mcp", target.to, target.options).tool
      );
      for (const [i, tool] of converted.entries()) {
        assert.deepEqual(preflight([tool], target.to), [], `${tools[i].name} → ${target.name}`);
      }
      if (target.name !== "anthropic strict") {
        assert.deepEqual(preflight(converted, target.to), [], `all tools → ${target.name}`);
      }
    }
  });

  Deno.test(`real ${server} tools: every schema difference after conversion is covered by a warning`, async () => {
    const tools = await load(server);
    checkDiffs(server, Object.fromEntries(tools.map((t) => [t.name, t])));
  });
}

Deno.test("real servers: Anthropic strict budgets are reported when all tools of a server go strict", async () => {
  const tools = await load("server_filesystem");
  const converted = tools.map((tool) =>
    registry.convert(tool, "mcp", "anthropic", { strict: true }).tool
  );
  const budget = preflight(converted, "anthropic").filter((p) => p.code === "budget_exceeded");
  assert.ok(budget.every((p) => p.path === ""));
});

Deno.test("golden cases: every schema difference after conversion is covered by a warning", () => {
  checkDiffs("case", ALL_CASES);
});
