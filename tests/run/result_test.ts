import assert from "node:assert/strict";
import { ToolResultError } from "../../run/mod.ts";
import { normalizeMcpResult } from "../../run/result.ts";

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
      content: [{ type: "text", text: "1" }, { type: "text", text: "b" }],
    }),
    ["1", "b"],
  );
});

Deno.test("normalizeMcpResult keeps every block, in order, when any block is not text", () => {
  const content = [
    { type: "text", text: "1" },
    { type: "image", data: "AAAA", mimeType: "image/png" },
    { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
    { type: "resource_link", uri: "file:///a.txt", name: "a.txt" },
    { type: "resource", resource: { uri: "file:///b.txt", text: "bee" } },
    { type: "text", text: "b" },
  ];
  assert.deepEqual(normalizeMcpResult({ content: structuredClone(content) }), content);
  const image = [{ type: "image", data: "AAAA", mimeType: "image/png" }];
  assert.deepEqual(normalizeMcpResult({ content: image }), image);
});

Deno.test("normalizeMcpResult gives undefined only when there is no content at all", () => {
  assert.equal(normalizeMcpResult({ content: [] }), undefined);
});

Deno.test("normalizeMcpResult keeps structuredContent as the value, with non-text content in the raw result", () => {
  const raw = {
    content: [{ type: "image", data: "AAAA", mimeType: "image/png" }],
    structuredContent: { n: 1 },
  };
  assert.deepEqual(normalizeMcpResult(raw), { n: 1 });
});

Deno.test("ToolResultError redacts the content's text before cutting it for the message", () => {
  const content = [{ type: "text", text: "a".repeat(1990) + "S3CRET-TOKEN-VALUE" }];
  const cut = new ToolResultError(content, { toolId: "t" });
  assert.match(cut.message, /S3CRET-TO/, "without redact the excerpt cuts the secret");
  const error = new ToolResultError(content, {
    toolId: "t",
    redact: (text) => text.replaceAll("S3CRET-TOKEN-VALUE", "***"),
  });
  assert.doesNotMatch(error.message, /S3CRET/);
  assert.match(error.message, /a\*\*\*$/);
  assert.deepEqual(error.content, content, "the content itself is kept as sent");
});
