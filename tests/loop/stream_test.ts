// Streams: each format's accumulator gives the same calls as the whole response, whatever
// the chunking, and each call as soon as it is complete; fault cases: deltas split at any
// byte, merged events, out-of-order indexes, invalid JSON arguments, a stream that ends
// mid-call, contradicting events.
import assert from "node:assert/strict";
import {
  AnthropicAccumulator,
  ChatCompletionsAccumulator,
  createAccumulator,
  IncompleteCallError,
  IncompleteStreamError,
  InvalidStreamEventError,
  LOOP_FORMATS,
  type LoopFormat,
  parseSse,
  readToolCalls,
  ResponsesAccumulator,
  streamToolCalls,
  type ToolCall,
} from "../../loop/mod.ts";
import { fixtureJson, fixtureText, scenarioTools } from "./_scenario.ts";

const encoder = new TextEncoder();

async function* chunked(bytes: Uint8Array, sizes: (i: number) => number) {
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const n = Math.max(1, sizes(i));
    yield bytes.subarray(at, at + n);
    at += n;
  }
}

async function collect(iterable: AsyncIterable<ToolCall>): Promise<ToolCall[]> {
  const out: ToolCall[] = [];
  for await (const call of iterable) out.push(call);
  return out;
}

function byIndex(calls: ToolCall[]): ToolCall[] {
  return [...calls].sort((a, b) => a.index - b.index);
}

/** A deterministic pseudo-random sequence (no flaky tests). */
function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

for (const format of LOOP_FORMATS) {
  Deno.test(`${format}: the streamed fixture gives the same calls as the whole response, however the bytes are split`, async () => {
    const prepared = scenarioTools(format);
    const { response } = await fixtureJson(format, "response.json");
    const whole = readToolCalls(format, response, prepared);
    const bytes = encoder.encode(await fixtureText(format, "stream.sse"));
    const random = lcg(7);
    for (
      const [label, sizes] of [
        ["one chunk", () => bytes.length],
        ["every byte", () => 1],
        ["random", () => 1 + Math.floor(random() * 40)],
        ["prime", () => 13],
      ] as const
    ) {
      const streamed = await collect(
        streamToolCalls(format, parseSse(chunked(bytes, sizes)), prepared),
      );
      assert.deepEqual(byIndex(streamed), whole, `${format}, ${label}`);
    }
  });

  Deno.test(`${format}: a stream cut inside a call is an IncompleteCallError naming it, with every completed call`, async () => {
    const prepared = scenarioTools(format);
    const text = await fixtureText(format, "stream.sse");
    const whole = readToolCalls(
      format,
      (await fixtureJson(format, "response.json")).response,
      prepared,
    );
    // Cut in the middle of the last call's events (Gemini: in the middle of the last chunk).
    const marker = format === "gemini"
      ? '"fc_read"'
      : format === "anthropic"
      ? "/missing"
      : '\\"/missing';
    const cut = text.indexOf(marker) + 3;
    const seen: ToolCall[] = [];
    const error = await (async () => {
      for await (const call of streamToolCalls(format, parseSse([text.slice(0, cut)]), prepared)) {
        seen.push(call);
      }
    })().catch((e) => e);
    if (format === "gemini") {
      // A Gemini call is whole in its chunk: the cut chunk is lost mid-event, and says so.
      assert.ok(error instanceof IncompleteStreamError, String(error));
      assert.deepEqual(seen, whole.slice(0, 3));
      return;
    }
    assert.ok(error instanceof IncompleteCallError, String(error));
    assert.equal(error.code, "incomplete_call");
    assert.deepEqual(error.open.map((c) => [c.index, c.id, c.name]), [[
      3,
      whole[3].id,
      "files__read",
    ]]);
    assert.match(error.message, new RegExp(`call 3 \\(id "${whole[3].id}", name "files__read"`));
    assert.ok(error.cause instanceof IncompleteStreamError);
    assert.deepEqual(byIndex([...error.completed]), whole.slice(0, 3));
    assert.deepEqual(byIndex(seen), whole.slice(0, 3));
  });

  Deno.test(`${format}: merged events (an array at once) give the same calls as one by one`, async () => {
    const prepared = scenarioTools(format);
    const events: string[] = [];
    for await (const e of parseSse([await fixtureText(format, "stream.sse")])) events.push(e);
    const one = createAccumulator(format, prepared);
    const single = [...events.flatMap((e) => one.push(e)), ...one.end()];
    const merged = createAccumulator(format, prepared);
    const all = [...merged.push(events), ...merged.end()];
    assert.deepEqual(byIndex(all), byIndex(single));
    assert.equal(all.length, 4);
  });
}

function chatChunk(toolCalls: unknown[], finish: string | null = null) {
  return { choices: [{ index: 0, delta: { tool_calls: toolCalls }, finish_reason: finish }] };
}

Deno.test("openai: each call is handed out as soon as the next one starts and its arguments are whole", () => {
  const acc = new ChatCompletionsAccumulator();
  assert.deepEqual(
    acc.push(
      chatChunk([{
        index: 0,
        id: "c0",
        type: "function",
        function: { name: "a", arguments: '{"x":' },
      }]),
    ),
    [],
  );
  assert.deepEqual(acc.push(chatChunk([{ index: 0, function: { arguments: "1}" } }])), []);
  const done = acc.push(
    chatChunk([{ index: 1, id: "c1", type: "function", function: { name: "b", arguments: "{" } }]),
  );
  assert.deepEqual(done.map((c) => [c.id, c.arguments]), [["c0", { x: 1 }]]);
  assert.deepEqual(
    acc.push(chatChunk([{ index: 1, function: { arguments: "}" } }], "tool_calls")).map((c) =>
      c.id
    ),
    ["c1"],
  );
  assert.deepEqual(acc.end(), []);
});

Deno.test("openai: out-of-order and interleaved indexes still give every call whole, by index", () => {
  const acc = new ChatCompletionsAccumulator();
  const out = [
    ...acc.push(
      chatChunk([{
        index: 1,
        id: "c1",
        type: "function",
        function: { name: "b", arguments: '{"y":' },
      }]),
    ),
    ...acc.push(
      chatChunk([{
        index: 0,
        id: "c0",
        type: "function",
        function: { name: "a", arguments: '{"x":' },
      }]),
    ),
    ...acc.push(
      chatChunk([{ index: 1, function: { arguments: "2" } }, {
        index: 0,
        function: { arguments: "1" },
      }]),
    ),
    ...acc.push(
      chatChunk([{ index: 0, function: { arguments: "}" } }, {
        index: 1,
        function: { arguments: "}" },
      }], "tool_calls"),
    ),
  ];
  assert.deepEqual(out.map((c) => [c.index, c.id, c.name, c.arguments]), [
    [0, "c0", "a", { x: 1 }],
    [1, "c1", "b", { y: 2 }],
  ]);
  assert.deepEqual(acc.calls.map((c) => c.index), [0, 1]);
});

Deno.test("openai: invalid JSON arguments complete as a call with an invalid_json problem, not an error", () => {
  const acc = new ChatCompletionsAccumulator();
  acc.push(
    chatChunk([{
      index: 0,
      id: "c0",
      type: "function",
      function: { name: "a", arguments: "{x:1" },
    }]),
  );
  const [call] = acc.push(chatChunk([], "tool_calls"));
  assert.equal(call.problem?.code, "invalid_json");
  assert.equal(call.argumentsText, "{x:1");
  assert.equal(call.arguments, undefined);
});

Deno.test("openai: finish_reason length with a call unfinished is an IncompleteCallError that keeps the finished calls", () => {
  const acc = new ChatCompletionsAccumulator();
  acc.push(
    chatChunk([{ index: 0, id: "c0", type: "function", function: { name: "a", arguments: "{}" } }]),
  );
  acc.push(
    chatChunk([{
      index: 1,
      id: "c1",
      type: "function",
      function: { name: "b", arguments: '{"long":"te' },
    }]),
  );
  assert.throws(() => acc.push(chatChunk([], "length")), (e) => {
    assert.ok(e instanceof IncompleteCallError);
    assert.deepEqual(e.open, [{ index: 1, id: "c1", name: "b", argumentsText: '{"long":"te' }]);
    assert.deepEqual(e.completed.map((c) => c.id), ["c0"]);
    return true;
  });
});

Deno.test("openai: more arguments for a call already handed out is an InvalidStreamEventError", () => {
  const acc = new ChatCompletionsAccumulator();
  acc.push(
    chatChunk([{ index: 0, id: "c0", type: "function", function: { name: "a", arguments: "{}" } }]),
  );
  acc.push(
    chatChunk([{ index: 1, id: "c1", type: "function", function: { name: "b", arguments: "" } }]),
  );
  assert.deepEqual(acc.push(chatChunk([{ index: 0, function: { arguments: "  " } }])), []); // whitespace is harmless
  assert.throws(
    () => acc.push(chatChunk([{ index: 0, function: { arguments: "x" } }])),
    (e) => e instanceof InvalidStreamEventError && e.eventIndex === 3 && /call 0/.test(e.message),
  );
});

Deno.test("openai: a usage chunk without choices and a garbage event", () => {
  const acc = new ChatCompletionsAccumulator();
  assert.deepEqual(acc.push({ id: "x", choices: [], usage: { total_tokens: 1 } }), []);
  assert.deepEqual(acc.push({ id: "x", usage: { total_tokens: 1 } }), []);
  assert.throws(() => acc.push("{not json"), (e) => e instanceof InvalidStreamEventError);
  assert.throws(() => acc.push(42), (e) => e instanceof InvalidStreamEventError);
  assert.throws(
    () => acc.push(chatChunk([{ index: -1 }])),
    (e) => e instanceof InvalidStreamEventError,
  );
});

Deno.test("openai-responses: deltas before their output_item.added, and a done alone, still give the calls", () => {
  const acc = new ResponsesAccumulator();
  assert.deepEqual(
    acc.push({
      type: "response.function_call_arguments.delta",
      item_id: "fc_1",
      output_index: 0,
      delta: '{"a":',
    }),
    [],
  );
  assert.deepEqual(
    acc.push({
      type: "response.function_call_arguments.done",
      item_id: "fc_1",
      output_index: 0,
      arguments: '{"a":1}',
    }),
    [],
  );
  const [first] = acc.push({
    type: "response.output_item.added",
    output_index: 0,
    item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "x", arguments: "" },
  });
  assert.deepEqual([first.id, first.arguments], ["call_1", { a: 1 }]);
  // Merged: only the item's done event.
  const [second] = acc.push({
    type: "response.output_item.done",
    output_index: 1,
    item: { type: "function_call", id: "fc_2", call_id: "call_2", name: "y", arguments: '{"b":2}' },
  });
  assert.deepEqual([second.index, second.id, second.arguments], [1, "call_2", { b: 2 }]);
  assert.deepEqual(acc.end(), []);
});

Deno.test("openai-responses: a stream that ends after deltas only names the call", () => {
  const acc = new ResponsesAccumulator();
  acc.push({
    type: "response.output_item.added",
    output_index: 0,
    item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "x", arguments: "" },
  });
  acc.push({
    type: "response.function_call_arguments.delta",
    item_id: "fc_1",
    output_index: 0,
    delta: '{"a"',
  });
  assert.throws(() => acc.end(), (e) => {
    assert.ok(e instanceof IncompleteCallError);
    assert.deepEqual(e.open, [{ index: 0, id: "call_1", name: "x", argumentsText: '{"a"' }]);
    return true;
  });
});

Deno.test("anthropic: deltas and stop before the block's start, and a text block's deltas, are handled", () => {
  const acc = new AnthropicAccumulator();
  acc.push({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
  acc.push({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "hi" } });
  acc.push({
    type: "content_block_delta",
    index: 1,
    delta: { type: "input_json_delta", partial_json: '{"a":' },
  });
  acc.push({
    type: "content_block_delta",
    index: 1,
    delta: { type: "input_json_delta", partial_json: "1}" },
  });
  assert.deepEqual(acc.push({ type: "content_block_stop", index: 1 }), []);
  const [call] = acc.push({
    type: "content_block_start",
    index: 1,
    content_block: { type: "tool_use", id: "toolu_1", name: "x", input: {} },
  });
  assert.deepEqual([call.index, call.id, call.arguments], [0, "toolu_1", { a: 1 }]);
});

Deno.test("anthropic: a tool_use block with no input deltas takes the start's input; invalid JSON is a problem", () => {
  const acc = new AnthropicAccumulator();
  acc.push({
    type: "content_block_start",
    index: 0,
    content_block: { type: "tool_use", id: "t0", name: "x", input: {} },
  });
  const [empty] = acc.push({ type: "content_block_stop", index: 0 });
  assert.deepEqual(empty.arguments, {});
  acc.push({
    type: "content_block_start",
    index: 1,
    content_block: { type: "tool_use", id: "t1", name: "x", input: {} },
  });
  acc.push({
    type: "content_block_delta",
    index: 1,
    delta: { type: "input_json_delta", partial_json: "{oops}" },
  });
  const [bad] = acc.push({ type: "content_block_stop", index: 1 });
  assert.equal(bad.problem?.code, "invalid_json");
});

Deno.test("anthropic: stop_reason max_tokens with a tool_use block open is an IncompleteCallError", () => {
  const acc = new AnthropicAccumulator();
  acc.push({
    type: "content_block_start",
    index: 0,
    content_block: { type: "tool_use", id: "t0", name: "x", input: {} },
  });
  acc.push({
    type: "content_block_delta",
    index: 0,
    delta: { type: "input_json_delta", partial_json: '{"a": "lo' },
  });
  assert.throws(
    () => acc.push({ type: "message_delta", delta: { stop_reason: "max_tokens" }, usage: {} }),
    (e) =>
      e instanceof IncompleteCallError && e.open[0].id === "t0" &&
      e.open[0].argumentsText === '{"a": "lo',
  );
});

Deno.test("parseSse: CRLF, CR, comments, multi-line data and a split UTF-8 character", async () => {
  const text = ': hello\r\nevent: x\r\ndata: {"t":"é€😀",\rdata: "n":1}\r\r\ndata: [DONE]\n\n';
  const bytes = encoder.encode(text);
  for (let size = 1; size <= 5; size++) {
    const out: string[] = [];
    for await (const d of parseSse(chunked(bytes, () => size))) out.push(d);
    assert.deepEqual(out.map((d) => JSON.parse(d)), [{ t: "é€😀", n: 1 }], `size ${size}`);
  }
});

Deno.test("parseSse: a last event without its blank line is given when whole, an IncompleteStreamError when cut", async () => {
  const whole: string[] = [];
  for await (const d of parseSse(['data: {"a":1}'])) whole.push(d);
  assert.deepEqual(whole, ['{"a":1}']);
  await assert.rejects(async () => {
    for await (const _ of parseSse(['data: {"a":'])) { /* drain */ }
  }, (e) => e instanceof IncompleteStreamError && e.excerpt === '{"a":');
});

Deno.test("an accumulator refuses events after end()", () => {
  for (const format of LOOP_FORMATS as readonly LoopFormat[]) {
    const acc = createAccumulator(format);
    acc.end();
    assert.throws(() => acc.push({}), (e) => e instanceof InvalidStreamEventError);
  }
});

Deno.test("a call whose streamed arguments grow past maxArgumentChars is refused, for every streaming format", () => {
  const piece = "x".repeat(600);
  const cases: Array<[LoopFormat, unknown, (i: number) => unknown]> = [
    [
      "openai",
      chatChunk([{ index: 0, id: "c", type: "function", function: { name: "a", arguments: "" } }]),
      () => chatChunk([{ index: 0, function: { arguments: piece } }]),
    ],
    [
      "openai-responses",
      {
        type: "response.output_item.added",
        output_index: 0,
        item: { type: "function_call", id: "fc", call_id: "c", name: "a", arguments: "" },
      },
      () => ({
        type: "response.function_call_arguments.delta",
        item_id: "fc",
        output_index: 0,
        delta: piece,
      }),
    ],
    ["anthropic", {
      type: "content_block_start",
      index: 0,
      content_block: { type: "tool_use", id: "t", name: "a", input: {} },
    }, () => ({
      type: "content_block_delta",
      index: 0,
      delta: { type: "input_json_delta", partial_json: piece },
    })],
  ];
  for (const [format, start, delta] of cases) {
    const acc = createAccumulator(format, { maxArgumentChars: 1000 });
    acc.push(start);
    acc.push(delta(0));
    assert.throws(
      () => acc.push(delta(1)),
      (e) => e instanceof InvalidStreamEventError && /longer than 1000 characters/.test(e.message),
      format,
    );
  }
});
