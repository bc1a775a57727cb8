// Provider-specific conversion options live with their provider, in
// `providers.<format>`; Gemini's deprecated top-level `geminiSchema` keeps working.
import assert from "node:assert/strict";
import { defaultRegistry, type GeminiOptions } from "../../adapter/mod.ts";
import { ALL_CASES } from "./_cases.ts";

const registry = defaultRegistry();

Deno.test("providers.gemini.schema writes what geminiSchema writes, for every known case", () => {
  for (const [name, tool] of Object.entries(ALL_CASES)) {
    for (const schema of ["parameters", "parametersJsonSchema"] as const) {
      const gemini: GeminiOptions = { schema };
      const viaBag = registry.convert(tool, "mcp", "gemini", { providers: { gemini } });
      const viaFlag = registry.convert(tool, "mcp", "gemini", { geminiSchema: schema });
      assert.deepEqual(viaBag.tool, viaFlag.tool, `${name} ${schema}`);
      assert.deepEqual(viaBag.warnings, viaFlag.warnings, `${name} ${schema}`);
    }
  }
});

Deno.test("the deprecated geminiSchema wins over providers.gemini.schema, and a malformed bag is ignored", () => {
  const tool = { name: "t", inputSchema: { type: "object" as const, properties: { a: {} } } };
  const both = registry.convert(tool, "mcp", "gemini", {
    geminiSchema: "parameters",
    providers: { gemini: { schema: "parametersJsonSchema" } },
  });
  assert.ok("parameters" in (both.tool as object));
  for (const gemini of [null, "parametersJsonSchema", ["x"], 1]) {
    const out = registry.convert(tool, "mcp", "gemini", { providers: { gemini } });
    assert.ok("parameters" in (out.tool as object), String(gemini));
  }
  // other providers' entries are not Gemini's business
  const other = registry.convert(tool, "mcp", "gemini", {
    providers: { openai: { schema: "parametersJsonSchema" } },
  });
  assert.ok("parameters" in (other.tool as object));
});
