// Reading whole responses: names back through the request's name table (hashed names
// too), normalizers, problems kept as data, and malformed responses refused with a location.
import assert from "node:assert/strict";
import {
  InvalidResponseError,
  LOOP_FORMATS,
  prepareTools,
  readAnthropicCalls,
  readChatCompletionsCalls,
  readGeminiCalls,
  readResponsesCalls,
  readToolCalls,
} from "../../loop/mod.ts";
import type { Tool } from "../../model/mod.ts";
import { UnknownFormatError } from "../../adapter/mod.ts";

const HASHED: Tool = {
  name: "read",
  namespace: "files.v2",
  inputSchema: {
    type: "object",
    properties: { path: { type: "string" }, limit: { type: "integer" } },
    required: ["path"],
    additionalProperties: false,
  },
};

Deno.test("a hashed name maps back through the request's table; without it, it is an unknown tool", () => {
  const prepared = prepareTools([HASHED], "openai-responses");
  const name = (prepared.definitions[0] as { name: string }).name;
  assert.match(name, /_[0-9a-f]{8}$/);
  const response = {
    output: [{ type: "function_call", call_id: "c", name, arguments: '{"path":"a"}' }],
  };
  assert.equal(readResponsesCalls(response, prepared)[0].toolId, "files.v2:read");
  const [unknown] = readResponsesCalls(response);
  assert.equal(unknown.problem?.code, "unknown_tool");
  assert.deepEqual(unknown.arguments, { path: "a" }); // kept for the caller
});

Deno.test("strict conversions' normalizers map the model's nulls back to absent", () => {
  const prepared = prepareTools([HASHED], "openai", { strict: true });
  const name = (prepared.definitions[0] as { function: { name: string } }).function.name;
  const [call] = readChatCompletionsCalls({
    choices: [{
      message: {
        role: "assistant",
        tool_calls: [{
          id: "c",
          type: "function",
          function: { name, arguments: '{"path":"a","limit":null}' },
        }],
      },
    }],
  }, prepared);
  assert.deepEqual(call.arguments, { path: "a" });
});

Deno.test("calls keep their order and position among other content", () => {
  const calls = readAnthropicCalls([
    { type: "tool_use", id: "a", name: "x", input: {} },
    { type: "text", text: "and" },
    { type: "tool_use", id: "b", name: "y", input: null },
  ]);
  assert.deepEqual(calls.map((c) => [c.index, c.id, c.name, c.arguments]), [
    [0, "a", "x", {}],
    [1, "b", "y", {}],
  ]);
  const gemini = readGeminiCalls({
    candidates: [{
      content: { role: "model", parts: [{ text: "hi" }, { functionCall: { name: "x" } }] },
    }],
  });
  assert.deepEqual(gemini.map((c) => [c.index, c.name, c.arguments]), [[0, "x", {}]]);
});

Deno.test("a call without a name is an invalid_call problem, not an exception", () => {
  const [call] = readChatCompletionsCalls({
    role: "assistant",
    tool_calls: [{ id: "c", type: "function", function: { arguments: "{}" } }],
  });
  assert.equal(call.problem?.code, "invalid_call");
});

Deno.test("malformed responses are InvalidResponseErrors located by JSON Pointer", () => {
  const cases: Array<[() => unknown, string]> = [
    [() => readChatCompletionsCalls({ choices: "x" }), "/choices"],
    [() => readChatCompletionsCalls({ choices: [] }), "/choices/0/message"],
    [() => readChatCompletionsCalls({ role: "assistant", tool_calls: [42] }), "/tool_calls/0"],
    [() => readResponsesCalls({ output: {} }), "/output"],
    [() => readResponsesCalls({ output: [7] }), "/output/0"],
    [() => readAnthropicCalls({ content: "text" }), "/content"],
    [
      () => readGeminiCalls({ candidates: [{ content: { parts: {} } }] }),
      "/candidates/0/content/parts",
    ],
    [() => readGeminiCalls(null), ""],
  ];
  for (const [read, pointer] of cases) {
    assert.throws(read, (e) => e instanceof InvalidResponseError && e.pointer === pointer, pointer);
  }
});

Deno.test("a Gemini candidate without content (blocked) has no calls", () => {
  assert.deepEqual(readGeminiCalls({ candidates: [{ finishReason: "SAFETY" }] }), []);
  assert.deepEqual(readGeminiCalls({ candidates: [] }), []);
});

Deno.test("readToolCalls dispatches on the format and refuses others", () => {
  assert.equal(LOOP_FORMATS.length, 4);
  assert.throws(() => readToolCalls("cohere" as never, {}), UnknownFormatError);
});
