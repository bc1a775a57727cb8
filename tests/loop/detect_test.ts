// Format detection: every format's response (with calls, and with only text) is
// recognised as its own; a response or stream event of another format, or a provider's
// error body, is refused by the readers and accumulators rather than read as "no calls".
import assert from "node:assert/strict";
import {
  createAccumulator,
  detectFormat,
  identifyResponse,
  InvalidResponseError,
  InvalidStreamEventError,
  LOOP_FORMATS,
  type LoopFormat,
  ProviderErrorResponseError,
  readToolCalls,
  WrongFormatError,
} from "../../loop/mod.ts";

/** A complete response of each format with only text: no tool calls. */
const TEXT_ONLY: Record<LoopFormat, unknown> = {
  "openai": {
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1,
    model: "gpt-4o",
    choices: [{
      index: 0,
      message: { role: "assistant", content: "Hello.", refusal: null, annotations: [] },
      logprobs: null,
      finish_reason: "stop",
    }],
    usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
  },
  "openai-responses": {
    id: "resp_1",
    object: "response",
    created_at: 1,
    status: "completed",
    error: null,
    incomplete_details: null,
    model: "gpt-4.1",
    output: [{
      type: "message",
      id: "msg_1",
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text: "Hello.", annotations: [] }],
    }],
    usage: { input_tokens: 5, output_tokens: 2, total_tokens: 7 },
  },
  "anthropic": {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-5",
    content: [{ type: "text", text: "Hello." }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 5, output_tokens: 2 },
  },
  "gemini": {
    candidates: [{
      content: { role: "model", parts: [{ text: "Hello." }] },
      finishReason: "STOP",
      index: 0,
    }],
    usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2, totalTokenCount: 7 },
    modelVersion: "gemini-2.0-flash",
    responseId: "r1",
  },
};

/** The same, in the smallest form each reader accepts. */
const MINIMAL: Record<LoopFormat, unknown> = {
  "openai": { choices: [{ message: { role: "assistant", content: "Hello." } }] },
  "openai-responses": { output: [] },
  "anthropic": { role: "assistant", content: [{ type: "text", text: "Hello." }] },
  "gemini": { candidates: [{ content: { role: "model", parts: [{ text: "Hello." }] } }] },
};

/** A response of each format with one call of math__add / math:add. */
const WITH_CALL: Record<LoopFormat, unknown> = {
  "openai": {
    object: "chat.completion",
    choices: [{
      message: {
        role: "assistant",
        content: null,
        tool_calls: [{
          id: "call_1",
          type: "function",
          function: { name: "math__add", arguments: '{"a":1}' },
        }],
      },
      finish_reason: "tool_calls",
    }],
  },
  "openai-responses": {
    object: "response",
    output: [{
      type: "function_call",
      id: "fc_1",
      call_id: "call_1",
      name: "math__add",
      arguments: '{"a":1}',
    }],
  },
  "anthropic": {
    type: "message",
    role: "assistant",
    content: [{ type: "tool_use", id: "toolu_1", name: "math__add", input: { a: 1 } }],
    stop_reason: "tool_use",
  },
  "gemini": {
    candidates: [{
      content: { role: "model", parts: [{ functionCall: { name: "math:add", args: { a: 1 } } }] },
    }],
  },
};

/** The first event of each format's stream. */
const FIRST_EVENT: Record<LoopFormat, unknown> = {
  "openai": {
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }],
  },
  "openai-responses": {
    type: "response.created",
    sequence_number: 0,
    response: { id: "resp_1", object: "response", status: "in_progress", output: [] },
  },
  "anthropic": {
    type: "message_start",
    message: { id: "msg_1", type: "message", role: "assistant", content: [], stop_reason: null },
  },
  "gemini": TEXT_ONLY.gemini,
};

/** Each provider's error body. */
const ERRORS: Record<string, unknown> = {
  "openai": {
    error: {
      message: "Incorrect API key provided.",
      type: "invalid_request_error",
      param: null,
      code: "invalid_api_key",
    },
  },
  "anthropic": {
    type: "error",
    error: { type: "overloaded_error", message: "Overloaded" },
    request_id: "req_1",
  },
  "gemini": {
    error: { code: 400, message: "API key not valid.", status: "INVALID_ARGUMENT", details: [] },
  },
};

Deno.test("every format's response with only text is recognised as its own and read as no calls", () => {
  for (const format of LOOP_FORMATS) {
    for (const response of [TEXT_ONLY[format], MINIMAL[format], WITH_CALL[format]]) {
      assert.equal(detectFormat(response), format, JSON.stringify(response));
      assert.equal(identifyResponse(response)?.kind, "response");
    }
    assert.deepEqual(readToolCalls(format, TEXT_ONLY[format]), []);
    assert.deepEqual(readToolCalls(format, MINIMAL[format]), []);
    assert.equal(readToolCalls(format, WITH_CALL[format]).length, 1);
  }
});

Deno.test("a response of another format is refused with wrong_format naming what it is and what was expected", () => {
  for (const given of LOOP_FORMATS) {
    for (const found of LOOP_FORMATS) {
      if (given === found) continue;
      for (const response of [TEXT_ONLY[found], MINIMAL[found], WITH_CALL[found]]) {
        assert.throws(
          () => readToolCalls(given, response),
          (e: unknown) => {
            assert.ok(e instanceof WrongFormatError, `${given} × ${found}: ${e}`);
            assert.equal(e.code, "wrong_format");
            assert.equal(e.expected, given);
            assert.equal(e.found.format, found);
            assert.match(e.message, new RegExp(`read it as "${found}"`));
            return true;
          },
          `${given} × ${found}: ${JSON.stringify(response)}`,
        );
      }
    }
  }
});

Deno.test("the message names both sides in words", () => {
  assert.throws(() => readToolCalls("openai", TEXT_ONLY.anthropic), {
    message:
      'expected an OpenAI Chat Completions response ({"choices": [{"message": ...}]}), found ' +
      'an Anthropic Messages response (type "message", content blocks); read it as "anthropic"',
  });
});

Deno.test("an Anthropic content array and a Responses output array are told apart by their item types", () => {
  const blocks = (WITH_CALL.anthropic as { content: unknown[] }).content;
  const items = (WITH_CALL["openai-responses"] as { output: unknown[] }).output;
  assert.equal(readToolCalls("anthropic", blocks).length, 1);
  assert.equal(readToolCalls("openai-responses", items).length, 1);
  assert.throws(() => readToolCalls("anthropic", items), WrongFormatError);
  assert.throws(() => readToolCalls("openai-responses", blocks), WrongFormatError);
  const outputItem = (TEXT_ONLY["openai-responses"] as { output: unknown[] }).output[0];
  assert.equal(detectFormat(outputItem), "openai-responses");
  assert.throws(() => readToolCalls("anthropic", outputItem), WrongFormatError);
});

Deno.test("values that are no provider's response are not recognised; readers refuse all but an empty content array", () => {
  for (const value of [[], {}, null, "hello", 42, true, { model: "m", messages: [] }]) {
    assert.equal(identifyResponse(value), undefined, JSON.stringify(value));
  }
  for (const format of LOOP_FORMATS) {
    for (const value of [{}, null, "hello", 42]) {
      assert.throws(() => readToolCalls(format, value), InvalidResponseError, `${format} ${value}`);
    }
  }
  // Anthropic and Responses readers also take a message's `content` / `output` array,
  // which may be empty; the whole-response check of `respond` refuses a bare `[]`.
  assert.deepEqual(readToolCalls("anthropic", []), []);
  assert.deepEqual(readToolCalls("openai-responses", []), []);
  assert.throws(() => readToolCalls("openai", []), InvalidResponseError);
  assert.throws(() => readToolCalls("gemini", []), InvalidResponseError);
});

Deno.test("each provider's error body is refused as a provider error, whatever the format it is read as", () => {
  for (const [provider, body] of Object.entries(ERRORS)) {
    assert.equal(identifyResponse(body)?.kind, "error");
    assert.equal(identifyResponse(body)?.provider, provider);
    assert.equal(detectFormat(body), undefined);
    for (const format of LOOP_FORMATS) {
      assert.throws(
        () => readToolCalls(format, body),
        (e: unknown) => {
          assert.ok(e instanceof ProviderErrorResponseError, `${format} × ${provider}: ${e}`);
          assert.equal(e.code, "provider_error");
          assert.equal(e.provider, provider);
          assert.match(e.message, /error response/);
          assert.match(e.message, /the request failed, there are no tool calls/);
          assert.equal(e.providerMessage, (body as { error: { message: string } }).error.message);
          return true;
        },
      );
    }
  }
  const failed = {
    object: "response",
    status: "failed",
    error: { code: "server_error", message: "boom" },
    output: [],
  };
  assert.throws(() => readToolCalls("openai-responses", failed), ProviderErrorResponseError);
  assert.throws(() => readToolCalls("openai", { error: "nope" }), ProviderErrorResponseError);
});

Deno.test("a stream event read as a whole response is refused: read it with an accumulator", () => {
  for (const format of ["openai", "openai-responses", "anthropic"] as const) {
    assert.equal(identifyResponse(FIRST_EVENT[format])?.kind, "stream_event");
    assert.throws(() => readToolCalls(format, FIRST_EVENT[format]), {
      name: "WrongFormatError",
      message: /it is a stream event: read it with an accumulator/,
    });
  }
  const chunks = [TEXT_ONLY.gemini, WITH_CALL.gemini];
  assert.equal(identifyResponse(chunks)?.kind, "stream_event");
  assert.throws(() => readToolCalls("gemini", chunks), WrongFormatError);
});

Deno.test("an accumulator refuses the first event of another format's stream, and reads its own", () => {
  for (const given of LOOP_FORMATS) {
    for (const found of LOOP_FORMATS) {
      const accumulator = createAccumulator(given);
      if (given === found) {
        assert.deepEqual(accumulator.push(FIRST_EVENT[found]), []);
        continue;
      }
      assert.throws(
        () => accumulator.push(FIRST_EVENT[found]),
        (e: unknown) => {
          assert.ok(e instanceof WrongFormatError, `${given} × ${found}: ${e}`);
          assert.equal(e.found.format, found);
          assert.match(e.message, /^stream event 0: expected an event of a /);
          return true;
        },
      );
      // A whole response of another format, given as an event, too.
      assert.throws(() => createAccumulator(given).push(WITH_CALL[found]), WrongFormatError);
    }
  }
});

Deno.test("an accumulator refuses a provider's error event after the events before it", () => {
  for (const format of LOOP_FORMATS) {
    for (const body of Object.values(ERRORS)) {
      const accumulator = createAccumulator(format);
      accumulator.push(FIRST_EVENT[format]);
      assert.throws(() => accumulator.push(body), {
        name: "ProviderErrorResponseError",
        message: /^stream event 1: /,
      });
    }
  }
  // The Responses API's own error event.
  assert.throws(
    () =>
      createAccumulator("openai-responses").push({
        type: "error",
        code: "rate_limit_exceeded",
        message: "Slow down",
        sequence_number: 3,
      }),
    (e: unknown) => e instanceof ProviderErrorResponseError && e.providerMessage === "Slow down",
  );
  // Not recognised: left to the accumulator's own checks.
  assert.throws(() => createAccumulator("openai").push({ choices: 1 }), InvalidStreamEventError);
  assert.deepEqual(createAccumulator("anthropic").push({}), []);
});
