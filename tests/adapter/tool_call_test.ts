import assert from "node:assert/strict";
import {
  defaultRegistry,
  InvalidToolCallError,
  parseToolCall,
  ToolNameMap,
  UnknownToolNameError,
} from "../../adapter/mod.ts";
import { SEED_TOOLS } from "./_cases.ts";

Deno.test("parseToolCall reads an OpenAI Chat Completions call and parses its JSON arguments", () => {
  const call = {
    id: "call_1",
    type: "function",
    function: { name: "math__add", arguments: '{"a":1}' },
  };
  assert.deepEqual(parseToolCall(call), {
    format: "openai",
    toolId: "math:add",
    callId: "call_1",
    arguments: { a: 1 },
  });
});

Deno.test("parseToolCall reads an OpenAI Responses function_call", () => {
  const call = { type: "function_call", call_id: "c", name: "echo", arguments: "" };
  assert.deepEqual(parseToolCall(call), {
    format: "openai-responses",
    toolId: "echo",
    callId: "c",
    arguments: {},
  });
});

Deno.test("parseToolCall reads Gemini function calls with and without the wrapper", () => {
  assert.deepEqual(parseToolCall({ functionCall: { name: "fs:read", args: { p: "/" } } }), {
    format: "gemini",
    toolId: "fs:read",
    arguments: { p: "/" },
  });
  assert.equal(parseToolCall({ name: "fs:read", args: {} }).format, "gemini");
  assert.equal(parseToolCall({ name: "read", arguments: {} }).format, "mcp");
});

Deno.test("parseToolCall needs the name map for hashed names", () => {
  const names = new ToolNameMap(["files.v2:read"], "openai");
  const name = names.toProvider("files.v2:read");
  const call = { type: "tool_use", id: "t", name, input: {} };
  assert.throws(() => parseToolCall(call), UnknownToolNameError);
  assert.equal(parseToolCall(call, { names }).toolId, "files.v2:read");
});

Deno.test("parseToolCall applies the strict normalizer of the tool", () => {
  const { normalizer } = defaultRegistry().convert(SEED_TOOLS.email_sender, "mcp", "openai", {
    strict: true,
  });
  const call = {
    type: "function",
    function: {
      name: "email__email_sender",
      arguments: '{"to":["a@b"],"subject":"s","body":"b","cc":null,"attachments":null}',
    },
  };
  const parsed = parseToolCall(call, { normalizers: { "email:email_sender": normalizer } });
  assert.deepEqual(parsed.arguments, { to: ["a@b"], subject: "s", body: "b" });
});

Deno.test("parseToolCall rejects unknown shapes and malformed JSON", () => {
  assert.throws(
    () => parseToolCall({ type: "function", function: { name: "x", arguments: "{" } }),
    InvalidToolCallError,
  );
  assert.throws(() => parseToolCall({ foo: 1 }), InvalidToolCallError);
  assert.throws(() => parseToolCall(null), InvalidToolCallError);
});
