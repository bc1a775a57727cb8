import assert from "node:assert/strict";
import { normalizeMcpResult } from "../../run/mod.ts";

Deno.test("normalizeMcpResult prefers structuredContent over text", () => {
  assert.deepEqual(
    normalizeMcpResult({
      content: [{ type: "text", text: "ignored" }],
      structuredContent: { a: 1 },
    }),
    { a: 1 },
  );
});

Deno.test("normalizeMcpResult parses one JSON text block and keeps other text as text", () => {
  assert.deepEqual(normalizeMcpResult({ content: [{ type: "text", text: ' {"x": [1]} ' }] }), {
    x: [1],
  });
  assert.equal(normalizeMcpResult({ content: [{ type: "text", text: "42" }] }), 42);
  assert.equal(normalizeMcpResult({ content: [{ type: "text", text: "Echo: hi" }] }), "Echo: hi");
  assert.equal(normalizeMcpResult({ content: [{ type: "text", text: "" }] }), "");
});

Deno.test("normalizeMcpResult turns several text blocks into a list of strings", () => {
  assert.deepEqual(
    normalizeMcpResult({
      content: [
        { type: "text", text: "1" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "text", text: "b" },
      ],
    }),
    ["1", "b"],
  );
});

Deno.test("normalizeMcpResult gives undefined when there is no text (images stay in the raw result)", () => {
  assert.equal(
    normalizeMcpResult({ content: [{ type: "image", data: "AAAA", mimeType: "image/png" }] }),
    undefined,
  );
});
