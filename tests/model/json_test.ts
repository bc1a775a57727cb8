import assert from "node:assert/strict";
import {
  fromJSON,
  fromMCPJSON,
  InvalidToolError,
  toJSON,
  toMCPJSON,
  type Tool,
} from "../../model/mod.ts";
import { foreignPrototypes, withoutProtoAccessor, withProtoAccessor } from "../adapter/_proto.ts";

const full: Tool = {
  name: "read",
  title: "Read",
  description: "Read a file",
  inputSchema: {
    type: "object",
    properties: { path: { type: "string", "x-ui": { widget: "file" } } },
    required: ["path"],
    $defs: { n: { const: null, default: null } },
  },
  outputSchema: { type: "object", properties: { text: { type: "string" } } },
  annotations: { readOnlyHint: true },
  icons: [{ src: "https://example.com/a.png", theme: "dark" }],
  execution: { taskSupport: "optional" },
  _meta: { k: [1, null] },
  namespace: "fs",
  version: "1.0.0",
  tags: ["files"],
};

Deno.test("toJSON and fromJSON keep every field, nulls and x- keys included", () => {
  assert.deepEqual(fromJSON(toJSON(full)), full);
  assert.deepEqual(fromJSON(new TextEncoder().encode(toJSON(full))), full);
});

Deno.test("toMCPJSON strips namespace, version and tags and keeps the rest", () => {
  const mcp = JSON.parse(toMCPJSON(full));
  const { namespace: _n, version: _v, tags: _t, ...rest } = full;
  assert.deepEqual(mcp, rest);
});

Deno.test("fromMCPJSON ignores extensions present in the text", () => {
  const tool = fromMCPJSON(toJSON(full));
  assert.equal("namespace" in tool, false);
  assert.equal("version" in tool, false);
  assert.equal("tags" in tool, false);
  assert.equal(tool.name, "read");
});

Deno.test("fromJSON gives InvalidToolError with the parser's cause for bad JSON", () => {
  assert.throws(() => fromJSON("{not json"), (e) => {
    assert.ok(e instanceof InvalidToolError);
    assert.ok(e.cause instanceof SyntaxError);
    assert.match(e.message, /is not valid JSON/);
    return true;
  });
  assert.throws(() => fromJSON("[1]"), /must be a JSON object/);
});

Deno.test("fromJSON rejects a parsed tool that breaks the rules", () => {
  assert.throws(() => fromJSON('{"name":"a b","inputSchema":{"type":"object"}}'), InvalidToolError);
});

Deno.test("toJSON is deterministic for the same input", () => {
  assert.equal(toJSON(full), toJSON(structuredClone(full)));
});

// `__proto__` keys: JSON text makes them own keys; no function may
// turn one into a prototype assignment on engines where `__proto__` is an
// accessor (Node, Bun, browsers; Deno with --unstable-unsafe-proto).
const PROTO_TEXT = JSON.stringify({
  name: "proto",
  inputSchema: { type: "object", properties: { x: { type: "string" } }, required: ["x"] },
  namespace: "ns",
}).replace(
  '"properties":{',
  '"properties":{"__proto__":{"type":"string","default":{"__proto__":{"polluted":true}}},',
).replace('"required":["x"]', '"required":["__proto__","x"]').replace(
  '"namespace"',
  '"__proto__":{"top":1},"namespace"',
);

Deno.test("toJSON, fromJSON, toMCPJSON and fromMCPJSON keep __proto__ keys as data at every level", () => {
  const run = () => {
    const full = fromJSON(PROTO_TEXT);
    const mcp = fromMCPJSON(PROTO_TEXT);
    return {
      full,
      mcp,
      fullText: toJSON(full),
      mcpText: toMCPJSON(full),
      mcpOfMcp: toMCPJSON(mcp),
    };
  };
  const hostile = withProtoAccessor(run);
  assert.deepEqual(
    JSON.stringify(hostile),
    JSON.stringify(withoutProtoAccessor(run)),
    "the same result with and without the accessor",
  );
  assert.equal(hostile.fullText, PROTO_TEXT);
  assert.equal(hostile.mcpText, PROTO_TEXT.replace(',"namespace":"ns"', ""));
  assert.equal(hostile.mcpOfMcp, hostile.mcpText);
  for (const tool of [hostile.full, hostile.mcp]) {
    assert.ok(Object.hasOwn(tool, "__proto__"), "the top-level field stays a field");
    assert.ok(Object.hasOwn(tool.inputSchema.properties!, "__proto__"));
    assert.deepEqual(tool.inputSchema.required, ["__proto__", "x"]);
    assert.deepEqual(foreignPrototypes(tool), []);
  }
  assert.equal(Object.hasOwn(hostile.mcp, "namespace"), false);
});
