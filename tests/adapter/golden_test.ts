// Golden fixtures: every direction, for five sample tools and one case per
// schema feature whose support differs between providers. Regenerate with
//   UPDATE_GOLDEN=1 deno test --allow-read --allow-write --allow-env tests/adapter/golden_test.ts

import assert from "node:assert/strict";
import { type ConvertOptions, defaultRegistry } from "../../adapter/mod.ts";
import { ALL_CASES } from "./_cases.ts";

const DIR = new URL("../fixtures/adapter/golden/", import.meta.url);
const UPDATE = Deno.env.get("UPDATE_GOLDEN") === "1";
const registry = defaultRegistry();

interface Direction {
  name: string;
  from: string;
  to: string;
  options?: ConvertOptions;
  /** How the source is made: the MCP case converted to `from` with these options. */
  via?: ConvertOptions;
}

const DIRECTIONS: Direction[] = [
  { name: "mcp_to_mcp", from: "mcp", to: "mcp" },
  { name: "mcp_to_openai_strict", from: "mcp", to: "openai", options: { strict: true } },
  { name: "mcp_to_openai_auto", from: "mcp", to: "openai", options: { strict: "auto" } },
  { name: "mcp_to_openai_nonstrict", from: "mcp", to: "openai", options: { strict: false } },
  {
    name: "mcp_to_openai_responses_strict",
    from: "mcp",
    to: "openai-responses",
    options: { strict: true },
  },
  { name: "mcp_to_anthropic", from: "mcp", to: "anthropic" },
  { name: "mcp_to_anthropic_strict", from: "mcp", to: "anthropic", options: { strict: true } },
  { name: "mcp_to_gemini", from: "mcp", to: "gemini" },
  {
    name: "mcp_to_gemini_json",
    from: "mcp",
    to: "gemini",
    options: { geminiSchema: "parametersJsonSchema" },
  },
  { name: "openai_to_mcp", from: "openai", to: "mcp", via: { strict: true } },
  { name: "openai_responses_to_mcp", from: "openai-responses", to: "mcp", via: { strict: false } },
  { name: "anthropic_to_mcp", from: "anthropic", to: "mcp" },
  { name: "gemini_to_mcp", from: "gemini", to: "mcp" },
  {
    name: "gemini_json_to_mcp",
    from: "gemini",
    to: "mcp",
    via: { geminiSchema: "parametersJsonSchema" },
  },
  {
    name: "anthropic_to_openai_strict",
    from: "anthropic",
    to: "openai",
    options: { strict: true },
  },
  { name: "openai_to_gemini", from: "openai", to: "gemini", via: { strict: false } },
  {
    name: "gemini_to_anthropic_strict",
    from: "gemini",
    to: "anthropic",
    options: { strict: true },
  },
];

function render(direction: Direction): unknown {
  const cases: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(ALL_CASES)) {
    const source = direction.from === "mcp"
      ? tool
      : registry.convert(tool, "mcp", direction.from, direction.via).tool;
    const out = registry.convert(source, direction.from, direction.to, direction.options);
    cases[name] = {
      source,
      tool: out.tool,
      warnings: out.warnings.map((w) =>
        `${w.path} ${w.feature} ${w.action} ${w.effect}: ${w.message}`
      ),
      ...(out.strict === undefined ? {} : { strict: out.strict }),
    };
  }
  return { from: direction.from, to: direction.to, options: direction.options ?? {}, cases };
}

for (const direction of DIRECTIONS) {
  Deno.test(`golden ${direction.name}: conversion matches the committed fixture`, async () => {
    const file = new URL(`${direction.name}.json`, DIR);
    const actual = JSON.parse(JSON.stringify(render(direction)));
    if (UPDATE) {
      await Deno.writeTextFile(file, JSON.stringify(actual, null, 2) + "\n");
      return;
    }
    const expected = JSON.parse(await Deno.readTextFile(file));
    assert.deepEqual(actual, expected);
  });
}

Deno.test("golden mcp_to_mcp: every case round-trips byte for byte", () => {
  for (const tool of Object.values(ALL_CASES)) {
    const out = registry.convert(tool, "mcp", "mcp");
    assert.equal(JSON.stringify(out.tool), JSON.stringify(tool));
    assert.deepEqual(out.warnings, []);
  }
});
