// The strict input normalizer picks the anyOf branch a value belongs to before
// it fills or strips the nulls of optional properties.

import assert from "node:assert/strict";
import { defaultRegistry } from "../../adapter/mod.ts";
import type { Tool } from "../../model/mod.ts";

const registry = defaultRegistry();

function strict(a: Record<string, unknown>) {
  const tool: Tool = {
    name: "pick",
    inputSchema: {
      type: "object",
      properties: { a },
      required: ["a"],
      additionalProperties: false,
    },
  };
  return registry.convert(tool, "mcp", "openai", { strict: true }).normalizer;
}

Deno.test("strict normalizer: a const null branch does not take an object", () => {
  const normalizer = strict({
    anyOf: [
      { const: null },
      { type: "object", properties: { r: { type: "integer" } }, additionalProperties: false },
    ],
  });
  assert.deepEqual(normalizer.denormalize({ a: {} }), { a: { r: null } });
  assert.deepEqual(normalizer.normalize({ a: { r: null } }), { a: {} });
});

Deno.test("strict normalizer: a branch whose property types do not fit is not chosen", () => {
  const closed = (props: Record<string, unknown>) => ({
    type: "object",
    properties: props,
    additionalProperties: false,
  });
  const normalizer = strict({
    anyOf: [
      closed({ r: { type: "integer" }, q: { type: "string" } }),
      closed({ r: { type: "boolean" } }),
    ],
  });
  assert.deepEqual(normalizer.denormalize({ a: { r: false } }), { a: { r: false } });
  assert.deepEqual(normalizer.denormalize({ a: { r: 1 } }), { a: { r: 1, q: null } });
});
