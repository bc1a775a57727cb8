import assert from "node:assert/strict";
import {
  defaultRegistry,
  geminiAdapter,
  InvalidProviderToolError,
  preflight,
} from "../../adapter/mod.ts";
import { ALL_CASES, FULL_TOOL, SEED_TOOLS } from "./_cases.ts";

const registry = defaultRegistry();
type Gemini = {
  name: string;
  parameters?: Record<string, unknown>;
  parametersJsonSchema?: Record<string, unknown>;
  response?: Record<string, unknown>;
};

Deno.test("gemini output passes preflight for every case, in both schema fields", () => {
  for (const [name, tool] of Object.entries(ALL_CASES)) {
    for (const geminiSchema of ["parameters", "parametersJsonSchema"] as const) {
      const out = registry.convert(tool, "mcp", "gemini", { geminiSchema });
      const found = preflight([out.tool], "gemini").map((p) => `${p.code} ${p.path}`);
      assert.deepEqual(found, [], `${name} ${geminiSchema}`);
    }
  }
});

Deno.test("gemini parameters map types, nullable and string enums to the OpenAPI subset", () => {
  const out = registry.convert(SEED_TOOLS.file_search, "mcp", "gemini");
  const tool = out.tool as Gemini;
  assert.equal(tool.name, "files:file_search");
  assert.deepEqual(tool.parameters, {
    type: "OBJECT",
    properties: {
      directory: { type: "STRING", description: "Directory to search in" },
      pattern: { type: "STRING", description: "Search pattern (glob or regex)" },
      recursive: { type: "BOOLEAN", description: "Whether to search recursively", default: false },
      file_type: {
        type: "STRING",
        description: "Filter by file type",
        enum: ["any", "file", "directory"],
        default: "any",
      },
    },
    required: ["directory", "pattern"],
  });
  assert.deepEqual(out.warnings, []);
});

Deno.test("gemini writes the output schema as response, and reads it back", () => {
  const out = registry.convert(FULL_TOOL, "mcp", "gemini");
  const tool = out.tool as Gemini;
  assert.deepEqual(tool.response, {
    type: "OBJECT",
    properties: { title: { type: "STRING" }, pages: { type: "INTEGER", minimum: 1 } },
    required: ["title"],
  });
  const back = geminiAdapter.toCanonical(tool).tool;
  assert.deepEqual(back.outputSchema, {
    type: "object",
    properties: { title: { type: "string" }, pages: { type: "integer", minimum: 1 } },
    required: ["title"],
  });
});

Deno.test("gemini parametersJsonSchema drops only the root $schema and rewrites draft-07 keywords", () => {
  const out = registry.convert(FULL_TOOL, "mcp", "gemini", {
    geminiSchema: "parametersJsonSchema",
  });
  const schema = (out.tool as Gemini).parametersJsonSchema!;
  assert.equal(schema.$schema, undefined);
  assert.deepEqual((schema.properties as Record<string, unknown>).range, {
    type: "array",
    prefixItems: [{ type: "integer" }, { type: "integer" }],
  });
  assert.ok(schema.$defs !== undefined && schema.definitions === undefined);
  assert.ok(out.warnings.some((w) => w.path === "/inputSchema/$schema"));
});

Deno.test("gemini omits parameters for a tool without arguments and says so", () => {
  const tool = { name: "now", inputSchema: { type: "object" as const, properties: {} } };
  const out = registry.convert(tool, "mcp", "gemini");
  assert.deepEqual(out.tool, { name: "now" });
  assert.equal(out.warnings[0]?.feature, "properties");
  const back = registry.convert(out.tool, "gemini", "mcp").tool;
  assert.deepEqual(back, { name: "now", inputSchema: { type: "object" } });
});

Deno.test("gemini toCanonical reads nullable, example and uppercase types back into JSON Schema", () => {
  const tool = geminiAdapter.toCanonical({
    name: "ns:f",
    parameters: {
      type: "OBJECT",
      properties: {
        a: { type: "STRING", nullable: true, enum: ["x"], example: "x" },
        b: { type: "ARRAY", items: { type: "INTEGER" } },
      },
      required: ["b"],
    },
  }).tool;
  assert.equal(tool.namespace, "ns");
  assert.deepEqual(tool.inputSchema, {
    type: "object",
    properties: {
      a: { type: ["string", "null"], enum: ["x", null], examples: ["x"] },
      b: { type: "array", items: { type: "integer" } },
    },
    required: ["b"],
  });
});

Deno.test("gemini toCanonical rejects parameters together with parametersJsonSchema", () => {
  assert.throws(
    () =>
      geminiAdapter.toCanonical({
        name: "f",
        parameters: { type: "OBJECT" },
        parametersJsonSchema: { type: "object" },
      }),
    InvalidProviderToolError,
  );
});

Deno.test("gemini keeps the chosen schema field through a round trip", () => {
  const json = registry.convert(SEED_TOOLS.calculator, "mcp", "gemini", {
    geminiSchema: "parametersJsonSchema",
  }).tool;
  const again = registry.convert(json, "gemini", "gemini").tool as Gemini;
  assert.ok(again.parametersJsonSchema !== undefined && again.parameters === undefined);
});
