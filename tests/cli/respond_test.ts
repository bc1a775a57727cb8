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
      /the response on stdin: openai response: \/choices must be an array/,
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
