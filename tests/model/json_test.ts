import assert from "node:assert/strict";
import {
  fromJSON,
  fromMCPJSON,
  InvalidToolError,
  toJSON,
  toMCPJSON,
  type Tool,
} from "../../model/mod.ts";

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
