// The plain shape of a `tools/call` result (serve/_plain_result.ts), which
// both eras' direct paths pass on without the protocol's schema: for each
// era, a plain result comes out as the SDK's own reading of it (the 2025
// `CallToolResult` schema, the 2026-07-28 client codec), keys in the same
// order; every other shape (another block kind, a block key the schema
// drops or puts first, a wrong type, an unknown key, a `_meta` the era does
// not pass as it is) is left to the SDK; one era's plain shape is not the
// other's.

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { specTypeSchemas } from "@modelcontextprotocol/server";
import { modernClient } from "../../serve/_fast_upstream_modern.ts";
import {
  LEGACY_PLAIN,
  MODERN_PLAIN,
  type PlainShape,
  plainToolResult,
} from "../../serve/_plain_result.ts";

const info = { "io.modelcontextprotocol/serverInfo": { name: "s", version: "1" } };
const text = [{ type: "text", text: "hi" }];

/** Results of either era's plain shape, without the era's own keys. */
const PLAIN_BODIES: Record<string, unknown>[] = [
  { content: text },
  { content: [] },
  { isError: true, structuredContent: { b: 1, a: [2] }, content: text },
  { content: [...text, { type: "text", text: "" }], isError: false },
  { structuredContent: {}, content: text },
];

/** Results neither era passes as they are, without the era's own keys. */
const OTHER_BODIES: Record<string, unknown>[] = [
  { content: [{ text: "hi", type: "text" }] },
  { content: [{ type: "text", text: "hi", annotations: {} }] },
  { content: [{ type: "image", data: "AA==", mimeType: "image/png" }] },
  { content: [{ type: "text", text: 5 }] },
  { content: [null] },
  { content: "text" },
  { content: text, isError: "no" },
  { content: text, structuredContent: [1] },
  { content: text, structuredContent: null },
  { content: text, extra: 1 },
  { content: text, _meta: {} },
  { content: text, _meta: { ...info, "x/y": 1 } },
  { content: text, _meta: { "io.modelcontextprotocol/serverInfo": { name: 5, version: "1" } } },
  {
    content: text,
    _meta: { "io.modelcontextprotocol/serverInfo": { name: "s", version: "1", title: "T" } },
  },
  { structuredContent: {} },
];

/** The 2025-era reading: what the SDK's server sends after its `CallToolResult` schema. */
function legacyReading(raw: unknown): unknown {
  const schema = (specTypeSchemas as unknown as Record<string, {
    safeParse(value: unknown): { success: boolean; data?: unknown };
  }>).CallToolResult;
  const parsed = schema.safeParse(raw);
  assert.ok(parsed.success, JSON.stringify(raw));
  return parsed.data;
}

/** The 2026-07-28 reading: the client codec's, on a connection that negotiated it. */
function modernReading(): (raw: unknown) => unknown {
  const client = new Client({ name: "t", version: "1" });
  (client as unknown as { _negotiatedProtocolVersion: string })._negotiatedProtocolVersion =
    "2026-07-28";
  const codec = modernClient(client)!._wireCodec();
  return (raw) => {
    const decoded = codec.decodeResult("tools/call", raw);
    assert.equal(decoded.kind, "complete", JSON.stringify(raw));
    const checked = codec.validateResult("tools/call", (decoded as { result: unknown }).result);
    assert.ok(checked.ok, JSON.stringify(raw));
    return (checked as { value: unknown }).value;
  };
}

function assertVerdicts(
  shape: PlainShape,
  plain: unknown[],
  other: unknown[],
  reading: (raw: unknown) => unknown,
): void {
  for (const raw of plain) {
    const passed = plainToolResult(raw, shape);
    assert.notEqual(passed, undefined, `not plain: ${JSON.stringify(raw)}`);
    assert.equal(JSON.stringify(passed), JSON.stringify(reading(raw)));
  }
  for (const raw of other) {
    assert.equal(plainToolResult(raw, shape), undefined, `plain: ${JSON.stringify(raw)}`);
  }
}

Deno.test("a plain 2025 result comes out as the CallToolResult schema gives it, keys in the same order; other shapes, a _meta or a resultType are left to the schema", () => {
  assertVerdicts(
    LEGACY_PLAIN,
    PLAIN_BODIES,
    [
      ...OTHER_BODIES,
      { content: text, _meta: info },
      { content: text, resultType: "complete" },
      [text],
      "text",
      null,
    ],
    legacyReading,
  );
});

Deno.test("a plain 2026-07-28 result comes out as the client codec reads it, keys in the same order; other shapes, no or another resultType are left to the codec", () => {
  const complete = (body: Record<string, unknown>) => ({ ...body, resultType: "complete" });
  assertVerdicts(
    MODERN_PLAIN,
    [
      ...PLAIN_BODIES.map(complete),
      complete({ content: [], _meta: info }),
      { _meta: info, isError: true, structuredContent: { a: 1 }, content: text, ...complete({}) },
    ],
    [
      ...OTHER_BODIES.map(complete),
      ...PLAIN_BODIES,
      { resultType: "input_required", inputRequests: {} },
      { resultType: "incomplete", content: text },
      [text],
    ],
    modernReading(),
  );
});
