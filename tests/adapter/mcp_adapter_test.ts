import assert from "node:assert/strict";
import {
  anthropicAdapter,
  defaultRegistry,
  mcpAdapter,
  PROVIDER_FIELDS_META_KEY,
} from "../../adapter/mod.ts";
import { InvalidToolError, type Tool } from "../../model/mod.ts";
import { FULL_TOOL } from "./_cases.ts";

Deno.test("mcp toCanonical and fromCanonical round-trip every field and keyword exactly", () => {
  const tool = {
    ...FULL_TOOL,
    inputSchema: {
      ...FULL_TOOL.inputSchema,
      properties: {
        ...FULL_TOOL.inputSchema.properties,
        n: { const: null, default: null, "x-custom": { deep: [1, null] } },
        t: { if: { minimum: 0 }, then: { multipleOf: 2 }, else: false, prefixItems: [true] },
      },
    },
  };
  const canonical = mcpAdapter.toCanonical(tool).tool;
  const back = mcpAdapter.fromCanonical(canonical);
  assert.equal(JSON.stringify(back.tool), JSON.stringify(tool));
  assert.deepEqual(back.warnings, []);
});

Deno.test("mcp toCanonical rejects an invalid tool with InvalidToolError", () => {
  assert.throws(
    () => mcpAdapter.toCanonical({ name: "bad name", inputSchema: { type: "object" } }),
    InvalidToolError,
  );
  assert.throws(
    () => mcpAdapter.toCanonical({ name: "x", inputSchema: { type: "string" } }),
    InvalidToolError,
  );
});

Deno.test("mcp keeps Anthropic-only fields in _meta so that Anthropic → MCP → Anthropic is exact", () => {
  const source = {
    name: "get_stock_price",
    description: "Price",
    input_schema: {
      type: "object",
      properties: { ticker: { type: "string" } },
      required: ["ticker"],
      additionalProperties: false,
    },
    strict: true,
    input_examples: [{ ticker: "AAPL" }],
    cache_control: { type: "ephemeral" },
  };
  const registry = defaultRegistry();
  const mcp = registry.convert(source, "anthropic", "mcp");
  const meta = (mcp.tool as { _meta: Record<string, unknown> })._meta;
  assert.deepEqual(meta[PROVIDER_FIELDS_META_KEY], {
    anthropic: {
      strict: true,
      input_examples: [{ ticker: "AAPL" }],
      cache_control: { type: "ephemeral" },
    },
  });
  assert.equal(mcp.warnings.length, 1);
  assert.equal(mcp.warnings[0].feature, "providerFields");
  const back = registry.convert(mcp.tool, "mcp", "anthropic");
  assert.deepEqual(back.tool, source);
  assert.equal(
    anthropicAdapter.fromCanonical(anthropicAdapter.toCanonical(source).tool).tool.strict,
    true,
  );
});

Deno.test("to MCP with fields: mcp, only MCP Tool fields are written, each other field a dropped warning", () => {
  const registry = defaultRegistry();
  const tool = {
    name: "add",
    namespace: "math",
    version: "1.0.0",
    tags: ["calc"],
    title: "Add",
    inputSchema: { type: "object" as const },
    annotations: { readOnlyHint: true },
    _meta: { "x.example/k": 1 },
  };
  const out = registry.convert(tool, "mcp", "mcp", { providers: { mcp: { fields: "mcp" } } });
  assert.deepEqual(out.tool, {
    name: "add",
    title: "Add",
    inputSchema: { type: "object" },
    annotations: { readOnlyHint: true },
    _meta: { "x.example/k": 1 },
  });
  assert.deepEqual(
    out.warnings.map((w) => [w.path, w.feature, w.action, w.effect]),
    [
      ["/namespace", "namespace", "dropped", "none"],
      ["/version", "version", "dropped", "none"],
      ["/tags", "tags", "dropped", "none"],
    ],
  );
  // A provider's tool read as MCP: its provider-only fields stay in _meta (an MCP field).
  const anthropic = registry.convert(
    { name: "math__add", input_schema: { type: "object" }, cache_control: { type: "ephemeral" } },
    "anthropic",
    "mcp",
    { providers: { mcp: { fields: "mcp" } } },
  );
  assert.deepEqual(Object.keys(anthropic.tool as object).sort(), ["_meta", "inputSchema", "name"]);
  assert.deepEqual(anthropic.warnings.filter((w) => w.action === "dropped").map((w) => w.path), [
    "/namespace",
  ]);
  // Without the option, the library's tool keeps them (lossless).
  assert.equal((registry.convert(tool, "mcp", "mcp").tool as Tool).namespace, "math");
});
