import assert from "node:assert/strict";
import {
  anthropicAdapter,
  defaultRegistry,
  InvalidProviderToolError,
  preflight,
} from "../../adapter/mod.ts";
import { ALL_CASES, FEATURE_TOOLS, SEED_TOOLS } from "./_cases.ts";

const registry = defaultRegistry();
type Anthropic = { name: string; input_schema: Record<string, unknown>; strict?: boolean };

Deno.test("anthropic non-strict passes the schema through and passes preflight", () => {
  for (const [name, tool] of Object.entries(ALL_CASES)) {
    const out = registry.convert(tool, "mcp", "anthropic");
    assert.deepEqual((out.tool as Anthropic).input_schema, tool.inputSchema, name);
    assert.equal((out.tool as Anthropic).strict, undefined);
    assert.deepEqual(preflight([out.tool], "anthropic"), [], name);
  }
});

Deno.test("anthropic strict output passes strict preflight for every case", () => {
  for (const [name, tool] of Object.entries(ALL_CASES)) {
    const out = registry.convert(tool, "mcp", "anthropic", { strict: true });
    assert.equal((out.tool as Anthropic).strict, true);
    assert.deepEqual(preflight([out.tool], "anthropic"), [], name);
  }
});

Deno.test("anthropic strict keeps optional fields optional (no nullable idiom)", () => {
  const out = registry.convert(SEED_TOOLS.email_sender, "mcp", "anthropic", { strict: true });
  const schema = (out.tool as Anthropic).input_schema as {
    required: string[];
    properties: Record<string, { type: unknown }>;
  };
  assert.deepEqual(schema.required, ["to", "subject", "body"]);
  assert.equal(schema.properties.cc.type, "array");
  assert.equal(out.normalizer.identity, true);
});

Deno.test("anthropic strict lowers minItems above 1 and drops numeric and length constraints", () => {
  const tool = {
    name: "t",
    inputSchema: {
      type: "object" as const,
      properties: { xs: { type: "array", items: { type: "string", maxLength: 3 }, minItems: 3 } },
      required: ["xs"],
      additionalProperties: false,
    },
  };
  const out = registry.convert(tool, "mcp", "anthropic", { strict: true });
  const xs =
    ((out.tool as Anthropic).input_schema.properties as Record<string, Record<string, unknown>>).xs;
  assert.equal(xs.minItems, 1);
  assert.match(String(xs.description), /minItems: 3/);
  assert.deepEqual(out.warnings.map((w) => `${w.feature} ${w.action} ${w.effect}`), [
    "maxLength moved-to-description widens",
    "minItems rewritten widens",
  ]);
});

Deno.test("anthropic strict cuts recursion and reports it", () => {
  const out = registry.convert(FEATURE_TOOLS.ref_defs, "mcp", "anthropic", { strict: true });
  const cut = out.warnings.find((w) => w.feature === "$ref" && w.action === "dropped");
  assert.equal(cut?.path, "/inputSchema/$defs/person/properties/reports/items/$ref");
  assert.equal(cut?.effect, "narrows");
});

Deno.test("anthropic merges a root anyOf into one object and warns that it widens", () => {
  const tool = {
    name: "t",
    inputSchema: {
      type: "object" as const,
      anyOf: [
        { properties: { a: { type: "string" } }, required: ["a"] },
        { properties: { b: { type: "string" } }, required: ["b"] },
      ],
    },
  };
  const out = registry.convert(tool, "mcp", "anthropic");
  const schema = (out.tool as Anthropic).input_schema;
  assert.equal(schema.anyOf, undefined);
  assert.deepEqual(Object.keys(schema.properties as object), ["a", "b"]);
  assert.equal(out.warnings[0].feature, "anyOf");
  assert.equal(out.warnings[0].effect, "widens");
  assert.deepEqual(preflight([out.tool], "anthropic"), []);
});

Deno.test("anthropic replaces an unresolvable $ref and reports it", () => {
  const tool = {
    name: "t",
    inputSchema: { type: "object" as const, properties: { a: { $ref: "#/$defs/missing" } } },
  };
  const out = registry.convert(tool, "mcp", "anthropic");
  assert.deepEqual((out.tool as Anthropic).input_schema.properties, { a: {} });
  assert.equal(out.warnings[0].path, "/inputSchema/properties/a/$ref");
  assert.deepEqual(
    preflight([{ name: "t", input_schema: tool.inputSchema }], "anthropic")[0].code,
    "unresolved_ref",
  );
});

Deno.test("anthropic toCanonical rejects a tool without input_schema", () => {
  assert.throws(() => anthropicAdapter.toCanonical({ name: "x" }), InvalidProviderToolError);
  assert.throws(
    () => anthropicAdapter.toCanonical({ name: 1, input_schema: { type: "object" } }),
    InvalidProviderToolError,
  );
});
