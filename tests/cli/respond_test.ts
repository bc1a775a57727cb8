// `respond`: a model's response on stdin, its calls run with the manifest's tools, the
// answer in the provider's format on stdout; exit codes; --stream; permissions first.
import assert from "node:assert/strict";
import { cli, flagsFor, tempManifest } from "./_cli.ts";

const EXAMPLE = ["--allow-read=examples"];
const RESPOND = ["respond", "examples/tools.yaml", "--format"];

const CALLS: Array<[string, string, Record<string, unknown>]> = [
  ["c0", "calculate", { operation: "multiply", a: 6, b: 7 }],
  ["c1", "calculate", { operation: "multiply", a: "6" }],
  ["c2", "calculus", { a: 1 }],
  ["c3", "calculate", { operation: "divide", a: 1, b: 0 }],
];

function response(format: string, calls = CALLS): unknown {
  const sep = format === "gemini" ? ":" : "__";
  const name = (n: string) => `math${sep}${n}`;
  switch (format) {
    case "openai":
      return {
        choices: [{
          message: {
            role: "assistant",
            content: null,
            tool_calls: calls.map(([id, n, args]) => ({
              id,
              type: "function",
              function: { name: name(n), arguments: JSON.stringify(args) },
            })),
          },
          finish_reason: "tool_calls",
        }],
      };
    case "openai-responses":
      return {
        output: calls.map(([id, n, args]) => ({
          type: "function_call",
          id: `fc_${id}`,
          call_id: id,
          name: name(n),
          arguments: JSON.stringify(args),
        })),
      };
    case "anthropic":
      return {
        role: "assistant",
        content: calls.map(([id, n, input]) => ({ type: "tool_use", id, name: name(n), input })),
        stop_reason: "tool_use",
      };
    default:
      return {
        candidates: [{
          content: {
            role: "model",
            parts: calls.map(([id, n, args]) => ({ functionCall: { id, name: name(n), args } })),
          },
        }],
      };
  }
}

/** The four answers' texts (or Gemini response objects), in call order, per format. */
function answers(format: string, stdout: string): unknown[] {
  const messages = JSON.parse(stdout) as Array<Record<string, unknown>>;
  switch (format) {
    case "openai":
      assert.deepEqual(
        messages.map((m) => [m.role, m.tool_call_id]),
        CALLS.map(([id]) => ["tool", id]),
      );
      return messages.map((m) => JSON.parse(m.content as string));
    case "openai-responses":
      assert.deepEqual(
        messages.map((m) => [m.type, m.call_id]),
        CALLS.map(([id]) => ["function_call_output", id]),
      );
      return messages.map((m) => JSON.parse(m.output as string));
    case "anthropic": {
      assert.equal(messages.length, 1);
      assert.equal(messages[0].role, "user");
      const blocks = messages[0].content as Array<Record<string, unknown>>;
      assert.deepEqual(blocks.map((b) => [b.type, b.tool_use_id, b.is_error ?? false]), [
        ["tool_result", "c0", false],
        ["tool_result", "c1", true],
        ["tool_result", "c2", true],
        ["tool_result", "c3", true],
      ]);
      return blocks.map((b) => JSON.parse(b.content as string));
    }
    default: {
      assert.equal(messages.length, 1);
      const parts = messages[0].parts as Array<{ functionResponse: Record<string, unknown> }>;
      assert.deepEqual(parts.map((p) => [p.functionResponse.id, p.functionResponse.name]), [
        ["c0", "math:calculate"],
        ["c1", "math:calculate"],
        ["c2", "math:calculus"],
        ["c3", "math:calculate"],
      ]);
      return parts.map((p) => {
        const r = p.functionResponse.response as { output?: unknown; error?: { code: string } };
        return r.error === undefined ? r.output : { ...r.error, error: r.error.code };
      });
    }
  }
}

for (const format of ["openai", "openai-responses", "anthropic", "gemini"]) {
  Deno.test(`respond --format ${format}: every call answered in order; failures say what to fix; exit 1`, async () => {
    const out = await cli([...RESPOND, format], {
      flags: EXAMPLE,
      stdin: JSON.stringify(response(format)),
    });
    assert.equal(out.code, 1, out.stderr);
    const [ok, invalid, unknown, failed] = answers(format, out.stdout) as Array<
      Record<string, unknown>
    >;
    assert.deepEqual(ok, { result: 42 });
    assert.equal(invalid.error, "invalid_arguments");
    assert.deepEqual((invalid.issues as Array<{ path: string }>).map((i) => i.path), ["/a", "/b"]);
    assert.equal(unknown.error, "unknown_tool");
    assert.ok(
      (unknown.available as string[]).includes(
        format === "gemini" ? "math:calculate" : "math__calculate",
      ),
    );
    assert.equal(failed.error, "execution");
    assert.equal(failed.message, "the tool failed: division by zero");
    assert.match(out.stderr, /note: call 1 \(math(__|:)calculate\): invalid_arguments: /);
  });
}

Deno.test("respond: exit 0 when every call succeeds; a response without calls prints []", async () => {
  const ok = await cli([...RESPOND, "anthropic"], {
    flags: EXAMPLE,
    stdin: JSON.stringify(response("anthropic", [CALLS[0]])),
  });
  assert.equal(ok.code, 0, ok.stderr);
  assert.deepEqual(JSON.parse(ok.stdout), [{
    role: "user",
    content: [{ type: "tool_result", tool_use_id: "c0", content: '{"result":42}' }],
  }]);
  const none = await cli([...RESPOND, "openai"], {
    flags: EXAMPLE,
    stdin: JSON.stringify({ choices: [{ message: { role: "assistant", content: "hi" } }] }),
  });
  assert.equal(none.code, 0, none.stderr);
  assert.deepEqual(JSON.parse(none.stdout), []);
});

Deno.test("respond --stream: the provider's event stream gives the same answer as the whole response", async () => {
  const events = [
    {
      type: "message_start",
      message: { id: "m", type: "message", role: "assistant", content: [] },
    },
    {
      type: "content_block_start",
      index: 0,
      content_block: { type: "tool_use", id: "c0", name: "math__calculate", input: {} },
    },
    {
      type: "content_block_delta",
      index: 0,
      delta: { type: "input_json_delta", partial_json: '{"operation":"mul' },
    },
    {
      type: "content_block_delta",
      index: 0,
      delta: { type: "input_json_delta", partial_json: 'tiply","a":6,"b":7}' },
    },
    { type: "content_block_stop", index: 0 },
    { type: "message_delta", delta: { stop_reason: "tool_use" } },
    { type: "message_stop" },
  ];
  const sse = events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");
  const streamed = await cli([...RESPOND, "anthropic", "--stream"], { flags: EXAMPLE, stdin: sse });
  const whole = await cli([...RESPOND, "anthropic"], {
    flags: EXAMPLE,
    stdin: JSON.stringify(response("anthropic", [CALLS[0]])),
  });
  assert.equal(streamed.code, 0, streamed.stderr);
  assert.equal(streamed.stdout, whole.stdout);
  const cut = await cli([...RESPOND, "anthropic", "--stream"], {
    flags: EXAMPLE,
    stdin: sse.slice(0, sse.indexOf("tiply")),
  });
  assert.equal(cut.code, 2);
  assert.match(cut.stderr, /ended in the middle of call 0 \(id "c0", name "math__calculate"/);
});

Deno.test("respond: usage errors exit 2 and run nothing", async () => {
  const cases: Array<[string[], string, RegExp]> = [
    [
      ["respond", "examples/tools.yaml"],
      "{}",
      /--format must be one of openai, openai-responses, anthropic, gemini/,
    ],
    [[...RESPOND, "cohere"], "{}", /got "cohere"/],
    [[...RESPOND, "openai"], "not json", /the response on stdin is not JSON/],
    [
      [...RESPOND, "openai"],
      '{"choices":"x"}',
      /the response on stdin is not an OpenAI Chat Completions response .*: it is an object with keys "choices" \(openai response: \/choices must be an array\); pipe the model's whole response into respond --format openai$/m,
    ],
    [[...RESPOND, "openai", "--concurrency", "0"], "{}", /--concurrency must be/],
  ];
  for (const [args, stdin, message] of cases) {
    const out = await cli(args, { flags: EXAMPLE, stdin });
    assert.equal(out.code, 2, `${args.join(" ")}: ${out.stderr}`);
    assert.match(out.stderr, message);
    assert.equal(out.stdout, "");
  }
});

Deno.test("respond --help documents the formats and the exit codes", async () => {
  const out = await cli(["respond", "--help"], { flags: EXAMPLE });
  assert.equal(out.code, 0);
  assert.match(out.stdout, /--format <f>\s+openai \| openai-responses \| anthropic \| gemini/);
  assert.match(out.stdout, /Exit codes: 0 every call succeeded, 1 the answer was printed/);
  const usage = await cli(["--help"], { flags: EXAMPLE });
  assert.match(usage.stdout, /respond <manifest> --format f/);
});

Deno.test("respond: a called tool whose permission is missing stops everything (exit 3); others need none", async () => {
  const manifest = await tempManifest([
    "version: 1",
    "providers:",
    "  shell: { command: sh, args: [-c, 'cat >/dev/null; echo {}'] }",
    "tools:",
    "  - { name: calculate, namespace: math, builtin: calculate }",
    "  - { name: run, namespace: sh, provider: shell, inputSchema: { type: object } }",
  ].join("\n"));
  const flags = [`--allow-read=${manifest}`];
  const sh = await cli(["respond", manifest, "--format", "anthropic"], {
    flags,
    stdin: JSON.stringify({
      content: [
        {
          type: "tool_use",
          id: "a",
          name: "math__calculate",
          input: { operation: "add", a: 1, b: 2 },
        },
        { type: "tool_use", id: "b", name: "sh__run", input: {} },
      ],
    }),
  });
  assert.equal(sh.code, 3, sh.stderr);
  assert.match(sh.stderr, /--allow-run/);
  assert.equal(sh.stdout, "");
  const calc = await cli(["respond", manifest, "--format", "anthropic"], {
    flags,
    stdin: JSON.stringify(response("anthropic", [CALLS[0]])),
  });
  assert.equal(calc.code, 0, calc.stderr);
});

Deno.test("respond: the flags `permissions <manifest>` prints are enough to run any tool the model calls", async () => {
  const manifest = await tempManifest([
    "version: 1",
    "providers:",
    "  shell: { command: sh, args: [-c, 'cat >/dev/null; echo {}'] }",
    "tools:",
    "  - { name: run, namespace: sh, provider: shell, inputSchema: { type: object } }",
  ].join("\n"));
  const out = await cli(["respond", manifest, "--format", "openai"], {
    flags: await flagsFor(manifest),
    stdin: JSON.stringify({
      choices: [{
        message: {
          role: "assistant",
          tool_calls: [{
            id: "c",
            type: "function",
            function: { name: "sh__run", arguments: "{}" },
          }],
        },
      }],
    }),
  });
  assert.equal(out.code, 0, out.stderr);
  assert.deepEqual(JSON.parse(out.stdout), [{ role: "tool", tool_call_id: "c", content: "{}" }]);
});

/** A response of each format with only text: no tool calls. */
const TEXT_ONLY: Record<string, unknown> = {
  "openai": {
    object: "chat.completion",
    choices: [{ index: 0, message: { role: "assistant", content: "Hi." }, finish_reason: "stop" }],
  },
  "openai-responses": {
    object: "response",
    status: "completed",
    error: null,
    output: [{
      type: "message",
      id: "msg_1",
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text: "Hi.", annotations: [] }],
    }],
  },
  "anthropic": {
    id: "msg_1",
    type: "message",
    role: "assistant",
    content: [{ type: "text", text: "Hi." }],
    stop_reason: "end_turn",
  },
  "gemini": {
    candidates: [{ content: { role: "model", parts: [{ text: "Hi." }] }, finishReason: "STOP" }],
  },
};

const FOUND: Record<string, string> = {
  "openai": "an OpenAI Chat Completions response (choices with a message)",
  "openai-responses": 'an OpenAI Responses response (object "response", output items)',
  "anthropic": 'an Anthropic Messages response (type "message", content blocks)',
  "gemini": "a Gemini response (candidates)",
};

const FORMATS = ["openai", "openai-responses", "anthropic", "gemini"];

Deno.test("respond: a response of another format exits 2 naming what it is and the --format to pass; its own reads as no calls", async () => {
  const runs = FORMATS.flatMap((given) =>
    FORMATS.map(async (found) => {
      for (const body of [TEXT_ONLY[found], response(found)]) {
        const out = await cli([...RESPOND, given], { flags: EXAMPLE, stdin: JSON.stringify(body) });
        if (given === found) {
          assert.equal(out.code, body === TEXT_ONLY[found] ? 0 : 1, out.stderr);
          if (body === TEXT_ONLY[found]) assert.deepEqual(JSON.parse(out.stdout), []);
          continue;
        }
        assert.equal(out.code, 2, `${given} × ${found}: ${out.stderr}`);
        assert.equal(out.stdout, "");
        assert.equal(
          out.stderr,
          `error: the response on stdin is ${FOUND[found]}; run respond --format ${found}\n`,
        );
      }
    })
  );
  await Promise.all(runs);
});

Deno.test("respond: stdin that is no provider response exits 2 naming what it is and what to pass", async () => {
  const cases: Array<[string, string, string]> = [
    ["anthropic", "[]", "an empty array"],
    ["openai-responses", "[]", "an empty array"],
    ["openai", "[]", "an empty array (openai response: / must be an object)"],
    ["anthropic", "{}", "an empty object (anthropic response: /content must be an array)"],
    ["gemini", "null", "null (gemini response: / must be an object)"],
    [
      "openai-responses",
      '"hello"',
      'a string ("hello") (openai-responses response: /output must be an array)',
    ],
    ["anthropic", "42", "a number (42) (anthropic response: /content must be an array)"],
    ["anthropic", '{"content":[]}', 'an object with keys "content"'],
  ];
  const shapes: Record<string, string> = {
    "openai": 'an OpenAI Chat Completions response ({"choices": [{"message": ...}]})',
    "openai-responses": 'an OpenAI Responses response ({"object": "response", "output": [...]})',
    "anthropic": 'an Anthropic Messages response ({"type": "message", "content": [...]})',
    "gemini": 'a Gemini response ({"candidates": [{"content": {"parts": [...]}}]})',
  };
  await Promise.all(cases.map(async ([format, stdin, found]) => {
    const out = await cli([...RESPOND, format], { flags: EXAMPLE, stdin });
    assert.equal(out.code, 2, `${format} ${stdin}: ${out.stderr}`);
    assert.equal(out.stdout, "");
    assert.equal(
      out.stderr,
      `error: the response on stdin is not ${shapes[format]}: it is ${found}; ` +
        `pipe the model's whole response into respond --format ${format}\n`,
    );
  }));
});

Deno.test("respond: a provider's error body exits 2 as a provider error with its message, whatever the format", async () => {
  const bodies: Array<[unknown, RegExp]> = [
    [
      {
        error: {
          message: "Incorrect API key provided.",
          type: "invalid_request_error",
          param: null,
          code: "invalid_api_key",
        },
      },
      /is an OpenAI error response \(error.type "invalid_request_error", error.code "invalid_api_key"\): "Incorrect API key provided."/,
    ],
    [
      { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
      /is an Anthropic error response \(type "error", error.type "overloaded_error"\): "Overloaded"/,
    ],
    [
      { error: { code: 400, message: "API key not valid.", status: "INVALID_ARGUMENT" } },
      /is a Gemini error response \(error.code 400, error.status "INVALID_ARGUMENT"\): "API key not valid."/,
    ],
  ];
  await Promise.all(bodies.flatMap(([body, message], i) =>
    // Each body read as two formats: its provider's and another one.
    [FORMATS[i === 0 ? 0 : i + 1], FORMATS[(i + 1) % 4]].map(async (format) => {
      const out = await cli([...RESPOND, format], { flags: EXAMPLE, stdin: JSON.stringify(body) });
      assert.equal(out.code, 2, out.stderr);
      assert.match(out.stderr, message);
      assert.match(out.stderr, /the model request failed, so there are no tool calls to run\n$/);
    })
  ));
});

Deno.test("respond --stream: another format's stream, a stream without --stream, and a whole response with it exit 2 saying what to run", async () => {
  const anthropicSse = 'event: message_start\ndata: {"type":"message_start","message":' +
    '{"id":"m","type":"message","role":"assistant","content":[]}}\n\n';
  const chatSse = 'data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":' +
    '{"role":"assistant","content":"Hi"}}]}\n\ndata: [DONE]\n\n';
  const cases: Array<[string[], string, string]> = [
    [
      ["openai", "--stream"],
      anthropicSse,
      'the stream on stdin: event 0 is an Anthropic Messages stream event (type "message_start"); run respond --format anthropic --stream',
    ],
    [
      ["anthropic", "--stream"],
      chatSse,
      'the stream on stdin: event 0 is an OpenAI Chat Completions stream chunk (object "chat.completion.chunk"); run respond --format openai --stream',
    ],
    [
      ["anthropic"],
      anthropicSse,
      "the response on stdin is a server-sent event stream, not JSON; run respond --format anthropic --stream",
    ],
    [
      ["anthropic", "--stream"],
      JSON.stringify(TEXT_ONLY.anthropic),
      `stdin has no server-sent events (no "data:" lines); it is ${FOUND.anthropic}; run respond --format anthropic without --stream`,
    ],
    [
      ["gemini", "--stream"],
      'data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
      'the stream on stdin: event 0 is an Anthropic error response (type "error", error.type "overloaded_error"): "Overloaded"; the model request failed, so there are no tool calls to run',
    ],
    [
      ["anthropic", "--stream"],
      anthropicSse +
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
      'the stream on stdin: event 1 is an Anthropic error response (type "error", error.type "overloaded_error"): "Overloaded"; the model request failed, so there are no tool calls to run',
    ],
    [
      ["openai-responses", "--stream"],
      'data: {"hello":1}\n\n',
      `the stream on stdin has no OpenAI Responses stream event; its first event is an object with keys "hello"; pipe the provider's text/event-stream into respond --format openai-responses --stream`,
    ],
    [["openai", "--stream"], "", 'stdin has no server-sent events (no "data:" lines): it is empty'],
  ];
  await Promise.all(cases.map(async ([args, stdin, message]) => {
    const out = await cli([...RESPOND, ...args], { flags: EXAMPLE, stdin });
    assert.equal(out.code, 2, `${args.join(" ")}: ${out.stderr}`);
    assert.equal(out.stdout, "");
    assert.equal(out.stderr, `error: ${message}\n`);
  }));
  // Its own stream with only text: no calls.
  const own = await cli([...RESPOND, "openai", "--stream"], { flags: EXAMPLE, stdin: chatSse });
  assert.equal(own.code, 0, own.stderr);
  assert.deepEqual(JSON.parse(own.stdout), []);
});

Deno.test("respond: a module tool refused by its sandbox tells the model the kind of access, not the operator's paths or grants", async () => {
  const manifest = await tempManifest(
    [
      "version: 1",
      "tools:",
      "  - name: peek",
      "    module: ./peek.ts",
      "    inputSchema: { type: object }",
    ].join("\n"),
    {
      "peek.ts":
        'export default async () => await Deno.readTextFile(import.meta.dirname + "/secret.txt");\n',
    },
  );
  const dir = manifest.slice(0, manifest.lastIndexOf("/"));
  await Deno.writeTextFile(`${dir}/secret.txt`, "operator's file");
  const calls = {
    choices: [{
      message: {
        role: "assistant",
        tool_calls: [{ id: "c1", type: "function", function: { name: "peek", arguments: "{}" } }],
      },
    }],
  };
  const out = await cli(["respond", manifest, "--format", "openai"], {
    flags: await flagsFor(manifest, "peek"),
    stdin: JSON.stringify(calls),
  });
  assert.equal(out.code, 1, out.stderr);
  const [answer] = JSON.parse(out.stdout);
  const told = JSON.parse(answer.content);
  assert.equal(told.error, "not_permitted");
  assert.match(told.message, /refused read access it needs by the sandbox/);
  // Nothing of the operator's machine or manifest reaches the model.
  assert.doesNotMatch(answer.content, /\/|manifest|permissions\.read|secret\.txt/);
  // The operator's note keeps the path and the grant to change.
  assert.match(
    out.stderr,
    new RegExp(
      `note: call 0 \\(peek\\): not_permitted: .*secret\\.txt.*permissions\\.read of tool "peek"`,
    ),
  );
});
