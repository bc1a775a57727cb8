// Input-required results (MCP 2026-07-28) through `serve --http` as a
// subprocess, in front of tests/fixtures/serve/upstream_input.ts: a 2026
// client and a 2026 upstream (passed through, the requestState sealed), a
// 2025-era client in front of a 2026 upstream (server-to-client requests), a
// 2026 client in front of a 2025-era upstream (its server-to-client requests
// as input-required results), and the misbehaving peers: a client changing
// or replaying a state, an upstream asking forever or sending garbage.

import assert from "node:assert/strict";
import { httpClient, ROOT, type Served, startHttp } from "./_helpers.ts";

const FIXTURE = `${ROOT}tests/fixtures/serve/upstream_input.ts`;
const TOKENS = { TOKEN_A: "token-a-0123456789", TOKEN_B: "token-b-0123456789" };

/** Starts serve in front of the fixture, spoken to in `protocol`. */
async function serve(
  protocol: "2026-07-28" | "legacy",
  extra: string[] = [],
  env: Record<string, string> = {},
): Promise<Served> {
  const dir = await Deno.makeTempDir({ prefix: "tf-input-required-" });
  await Deno.writeTextFile(
    `${dir}/tools.yaml`,
    [
      "version: 1",
      "servers:",
      "  input:",
      `    command: ${JSON.stringify(Deno.execPath())}`,
      `    args: [run, --quiet, --allow-all, ${JSON.stringify(FIXTURE)}]`,
      `    protocol: ${JSON.stringify(protocol)}`,
      "",
    ].join("\n"),
  );
  return await startHttp(["--token-env", "TOKEN_A", "--token-env", "TOKEN_B", ...extra], {
    manifest: `${dir}/tools.yaml`,
    env: { ...TOKENS, ...env },
  });
}

type Rpc = {
  result?: Record<string, unknown> & {
    resultType?: string;
    inputRequests?: Record<string, { method: string; params?: Record<string, unknown> }>;
    requestState?: string;
    content?: { type: string; text: string }[];
    isError?: boolean;
  };
  error?: { code: number; message: string };
};

const EVERY = { elicitation: {}, sampling: {}, roots: {} };
let ids = 0;

/** One stateless 2026-07-28 request, as the harness sends it. */
async function rpc(
  url: string,
  method: string,
  params: Record<string, unknown>,
  options: { token?: string; capabilities?: Record<string, unknown> } = {},
): Promise<Rpc> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(typeof params.name === "string" ? { "mcp-name": params.name } : {}),
      authorization: `Bearer ${options.token ?? TOKENS.TOKEN_A}`,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: ++ids,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "input-test", version: "1.0.0" },
          "io.modelcontextprotocol/clientCapabilities": options.capabilities ?? EVERY,
        },
      },
    }),
  });
  const text = await response.text();
  const json = text.trimStart().startsWith("{")
    ? text
    : text.split("\n").filter((l) => l.startsWith("data: ")).at(-1)!.slice(6);
  return JSON.parse(json) as Rpc;
}

const call = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  arguments: {},
  ...extra,
});
const accept = (content: Record<string, unknown>) => ({ action: "accept", content });

Deno.test("serve, 2026 client and upstream: the input-required result reaches the client with a sealed requestState, and the retry reaches the upstream with its own", async () => {
  const served = await serve("2026-07-28");
  try {
    const first = await rpc(
      served.url,
      "tools/call",
      call("test_input_required_state_echo", { arguments: { secret: "s3cr3t-value" } }),
    );
    assert.equal(first.result?.resultType, "input_required", JSON.stringify(first));
    assert.equal(first.result?.inputRequests?.confirm?.method, "elicitation/create");
    const state = first.result!.requestState!;
    // Sealed: neither the upstream's state nor what it carries can be read or kept.
    assert.match(state, /^tf1\./);
    assert.ok(!state.includes("s3cr3t"));
    assert.ok(!atob(state.slice(4).replaceAll("-", "+").replaceAll("_", "/")).includes("s3cr3t"));
    const second = await rpc(
      served.url,
      "tools/call",
      call("test_input_required_state_echo", {
        inputResponses: { confirm: accept({ ok: true }) },
        requestState: state,
      }),
    );
    assert.deepEqual(second.result?.content, [{
      type: "text",
      text: "state carried: s3cr3t-value",
    }]);
    assert.notEqual(second.result?.resultType, "input_required");
    const logged = /"tool":"test_input_required_state_echo"[^\n]*"outcome":"input_required"/;
    assert.match(await served.logged(logged), logged);

    // Several rounds, each with a new state; and prompts/get asks too.
    const r1 = await rpc(served.url, "tools/call", call("test_input_required_result_multi_round"));
    const r2 = await rpc(
      served.url,
      "tools/call",
      call("test_input_required_result_multi_round", {
        inputResponses: { step1: accept({ name: "Alice" }) },
        requestState: r1.result?.requestState,
      }),
    );
    assert.ok(r2.result?.inputRequests?.step2, JSON.stringify(r2));
    const r3 = await rpc(
      served.url,
      "tools/call",
      call("test_input_required_result_multi_round", {
        inputResponses: { step2: accept({ color: "blue" }) },
        requestState: r2.result?.requestState,
      }),
    );
    assert.equal(r3.result?.content?.[0].text, "Alice likes blue");
    const p1 = await rpc(served.url, "prompts/get", { name: "test_input_required_result_prompt" });
    assert.equal(p1.result?.resultType, "input_required");
    const p2 = await rpc(served.url, "prompts/get", {
      name: "test_input_required_result_prompt",
      inputResponses: { user_context: accept({ context: "tests" }) },
      requestState: p1.result?.requestState,
    });
    assert.deepEqual(p2.result?.messages, [
      { role: "user", content: { type: "text", text: "Prompt with context: tests" } },
    ]);
  } finally {
    await served.close();
  }
});

Deno.test("serve, 2026: a requestState that was changed, replayed by another caller or sent for another tool is refused with invalid params", async () => {
  const served = await serve("2026-07-28");
  try {
    const first = await rpc(
      served.url,
      "tools/call",
      call("test_input_required_state_echo", { arguments: { secret: "a's" } }),
    );
    const state = first.result!.requestState!;
    const retry = (name: string, requestState: string, token?: string) =>
      rpc(
        served.url,
        "tools/call",
        call(name, { inputResponses: { confirm: accept({ ok: true }) }, requestState }),
        { token },
      );
    const flipped = state.slice(0, -2) + (state.at(-2) === "A" ? "B" : "A") + state.at(-1);
    for (
      const [what, answer] of [
        ["tampered", await retry("test_input_required_state_echo", `${state}-TAMPERED`)],
        ["one character changed", await retry("test_input_required_state_echo", flipped)],
        ["not serve's", await retry("test_input_required_state_echo", "upstream-made-up")],
        [
          "another caller",
          await retry("test_input_required_state_echo", state, TOKENS.TOKEN_B),
        ],
        ["another tool", await retry("test_input_required_result_tampered_state", state)],
      ] as const
    ) {
      assert.equal(answer.error?.code, -32602, `${what}: ${JSON.stringify(answer)}`);
      assert.match(answer.error!.message, /Invalid or expired requestState/, what);
    }
    // The rightful caller still completes with it.
    const ok = await retry("test_input_required_state_echo", state);
    assert.equal(ok.result?.content?.[0].text, "state carried: a's");
  } finally {
    await served.close();
  }
});

Deno.test("serve, 2026: an upstream that asks for input forever gets the client an error result after 10 rounds", async () => {
  const served = await serve("2026-07-28");
  try {
    let state: string | undefined;
    let rounds = 0;
    for (;;) {
      const answer = await rpc(
        served.url,
        "tools/call",
        call("test_input_required_forever", {
          ...(state === undefined
            ? {}
            : { inputResponses: { again: accept({ ok: true }) }, requestState: state }),
        }),
      );
      if (answer.result?.resultType !== "input_required") {
        assert.equal(answer.result?.isError, true, JSON.stringify(answer));
        assert.match(
          answer.result!.content![0].text,
          /upstream server "input" answered tool "test_input_required_forever" with an input-required result that is not passed on: it asked for input 11 times in one call; the limit is 10/,
        );
        break;
      }
      rounds++;
      assert.ok(rounds <= 10, "more than 10 rounds passed");
      state = answer.result.requestState;
    }
    assert.equal(rounds, 10);
  } finally {
    await served.close();
  }
});

Deno.test("serve, 2026: an upstream's garbage input requests become an error result that says what is wrong", async () => {
  const served = await serve("2026-07-28");
  try {
    const cases: [string, RegExp][] = [
      ["not-object", /input request "bad" is not a request object with a method/],
      ["unknown-method", /input request "bad" is "tools\/call", which is none of/],
      ["no-method", /input request "bad" is not a request object with a method/],
      ["array", /neither inputRequests nor requestState/],
      ["state-not-string", /neither inputRequests nor requestState/],
    ];
    for (const [kind, expected] of cases) {
      const answer = await rpc(
        served.url,
        "tools/call",
        call("test_input_required_garbage", { arguments: { kind } }),
      );
      // Either serve's own error result, or the SDK's refusal of the malformed result.
      const text = answer.result?.content?.[0]?.text ?? answer.error?.message ?? "";
      assert.ok(
        answer.result?.resultType !== "input_required",
        `${kind}: ${JSON.stringify(answer)}`,
      );
      if (answer.result !== undefined) {
        assert.equal(answer.result.isError, true, kind);
        assert.match(text, expected, `${kind}: ${text}`);
      } else {
        assert.match(text, /input_required|inputRequests|requestState/, kind);
      }
    }
  } finally {
    await served.close();
  }
});

Deno.test("serve, 2025-era client with sessions in front of a 2026 upstream: the input requests arrive as elicitation, sampling and roots requests and the call completes", async () => {
  const served = await serve("2026-07-28", ["--sessions"]);
  // A step (connect, call, close) that does not end within 30 s fails with
  // serve's stderr (an intermittent hang was seen here in a few runs of this file).
  const within = <T>(work: Promise<T>): Promise<T> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    return Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within 30 s; serve's stderr:\n${served.stderr()}`)),
          30_000,
        );
      }),
    ]).finally(() => clearTimeout(timer));
  };
  const asked: string[] = [];
  const client = await within(httpClient(
    served.url,
    { authorization: `Bearer ${TOKENS.TOKEN_A}` },
    { elicitation: {}, sampling: {}, roots: {} },
  ));
  client.setRequestHandler("elicitation/create", (request) => {
    asked.push(`elicitation: ${request.params.message}`);
    const content: Record<string, string> = String(request.params.message).includes("color")
      ? { color: "blue" }
      : { name: "Alice" };
    return Promise.resolve({ action: "accept" as const, content });
  });
  client.setRequestHandler("sampling/createMessage", () => {
    asked.push("sampling");
    return Promise.resolve({
      role: "assistant",
      content: { type: "text", text: "Paris" },
      model: "m",
    });
  });
  client.setRequestHandler("roots/list", () => {
    asked.push("roots");
    return Promise.resolve({ roots: [{ uri: "file:///r" }] });
  });
  try {
    const rounds = await within(client.callTool({
      name: "test_input_required_result_multi_round",
      arguments: {},
    }));
    assert.deepEqual(rounds.content, [{ type: "text", text: "Alice likes blue" }]);
    const all = await within(client.callTool({
      name: "test_input_required_result_multiple_inputs",
      arguments: {},
    }));
    assert.match((all.content as { text: string }[])[0].text, /all inputs received/);
    assert.deepEqual(asked.sort(), [
      "elicitation: Step 1: What is your name?",
      "elicitation: Step 2: What is your favorite color?",
      "elicitation: What is your name?",
      "roots",
      "sampling",
    ]);
  } finally {
    await within(client.close()).catch(() => {});
    await served.close();
  }
});

Deno.test("serve, 2025-era client without the capability in front of a 2026 upstream: an error result says so", async () => {
  const served = await serve("2026-07-28");
  try {
    // Stateless 2025 (no --sessions): no server-to-client requests at all.
    const response = await fetch(served.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
        authorization: `Bearer ${TOKENS.TOKEN_A}`,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: call("test_input_required_result_elicitation"),
      }),
    });
    const text = await response.text();
    const json = text.trimStart().startsWith("{")
      ? text
      : text.split("\n").filter((l) => l.startsWith("data: ")).at(-1)!.slice(6);
    const answer = JSON.parse(json) as Rpc;
    const message = answer.result?.content?.[0]?.text ?? answer.error?.message ?? "";
    assert.equal(answer.result?.isError ?? true, true, text);
    assert.match(message, /elicitation|capabilit/i, text);
  } finally {
    await served.close();
  }
  const sessions = await serve("2026-07-28", ["--sessions"]);
  const client = await httpClient(sessions.url, { authorization: `Bearer ${TOKENS.TOKEN_A}` });
  try {
    const result = await client.callTool({
      name: "test_input_required_result_elicitation",
      arguments: {},
    });
    assert.equal(result.isError, true);
    assert.match((result.content as { text: string }[])[0].text, /elicitation/);
  } finally {
    await client.close();
    await sessions.close();
  }
});

Deno.test("serve, 2026 client in front of a 2025-era upstream: its server-to-client requests become input-required results and the retries complete the call", async () => {
  const served = await serve("legacy");
  try {
    const r1 = await rpc(served.url, "tools/call", call("test_input_required_result_multi_round"));
    assert.equal(r1.result?.resultType, "input_required", JSON.stringify(r1));
    const [[key1, request1]] = Object.entries(r1.result!.inputRequests!);
    assert.equal(request1.method, "elicitation/create");
    assert.equal(request1.params?.message, "Step 1: What is your name?");
    assert.equal(request1.params?._meta, undefined, "the upstream hop's progress token is dropped");
    // Without the answer: asked again.
    const again = await rpc(
      served.url,
      "tools/call",
      call("test_input_required_result_multi_round", { requestState: r1.result?.requestState }),
    );
    assert.deepEqual(Object.keys(again.result?.inputRequests ?? {}), [key1]);
    // Another caller cannot continue it.
    const foreign = await rpc(
      served.url,
      "tools/call",
      call("test_input_required_result_multi_round", {
        inputResponses: { [key1]: accept({ name: "Mallory" }) },
        requestState: again.result?.requestState,
      }),
      { token: TOKENS.TOKEN_B },
    );
    assert.equal(foreign.error?.code, -32602);
    const r2 = await rpc(
      served.url,
      "tools/call",
      call("test_input_required_result_multi_round", {
        inputResponses: { [key1]: accept({ name: "Alice" }) },
        requestState: again.result?.requestState,
      }),
    );
    const [[key2, request2]] = Object.entries(r2.result?.inputRequests ?? {});
    assert.equal(
      request2?.params?.message,
      "Step 2: What is your favorite color?",
      JSON.stringify(r2),
    );
    const r3 = await rpc(
      served.url,
      "tools/call",
      call("test_input_required_result_multi_round", {
        inputResponses: { [key2]: accept({ color: "green" }) },
        requestState: r2.result?.requestState,
      }),
    );
    assert.deepEqual(r3.result?.content, [{ type: "text", text: "Alice likes green" }]);
    // The call ended: its state continues nothing.
    const late = await rpc(
      served.url,
      "tools/call",
      call("test_input_required_result_multi_round", {
        inputResponses: { [key2]: accept({ color: "green" }) },
        requestState: r2.result?.requestState,
      }),
    );
    assert.equal(late.error?.code, -32602);
    assert.match(late.error!.message, /no longer running in this serve process/);
  } finally {
    await served.close();
  }
});

Deno.test("serve, 2026 client in front of a 2025-era upstream: a call whose client never answers ends at the tool's deadline", async () => {
  const served = await serve("legacy", ["--timeout", "1500"]);
  try {
    const r1 = await rpc(
      served.url,
      "tools/call",
      call("test_input_required_result_elicitation"),
    );
    const [key] = Object.keys(r1.result?.inputRequests ?? {});
    assert.ok(key, JSON.stringify(r1));
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const late = await rpc(
      served.url,
      "tools/call",
      call("test_input_required_result_elicitation", {
        inputResponses: { [key]: accept({ name: "Alice" }) },
        requestState: r1.result?.requestState,
      }),
    );
    assert.equal(late.error?.code, -32602, JSON.stringify(late));
    assert.match(late.error!.message, /no longer running/);
  } finally {
    await served.close();
  }
});

Deno.test("serve, 2026: two instances with one --request-state-key-env accept each other's requestState; with their own keys they refuse it", async () => {
  const key = { STATE_KEY: "a-shared-request-state-key-0123456789abcdef" };
  const [one, two, other] = await Promise.all([
    serve("2026-07-28", ["--request-state-key-env", "STATE_KEY"], key),
    serve("2026-07-28", ["--request-state-key-env", "STATE_KEY"], key),
    serve("2026-07-28"),
  ]);
  try {
    const first = await rpc(
      one.url,
      "tools/call",
      call("test_input_required_state_echo", { arguments: { secret: "shared" } }),
    );
    const retry = (url: string) =>
      rpc(
        url,
        "tools/call",
        call("test_input_required_state_echo", {
          inputResponses: { confirm: accept({ ok: true }) },
          requestState: first.result?.requestState,
        }),
      );
    assert.equal((await retry(two.url)).result?.content?.[0].text, "state carried: shared");
    const refused = await retry(other.url);
    assert.equal(refused.error?.code, -32602, JSON.stringify(refused));
    // The key never shows: not in a result, not on stderr.
    assert.ok(!one.stderr().includes(key.STATE_KEY));
  } finally {
    await Promise.all([one.close(), two.close(), other.close()]);
  }
});

Deno.test("serve: a --request-state-key-env variable shorter than 32 bytes is a usage error", async () => {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      `${ROOT}cli.ts`,
      "serve",
      `${ROOT}tests/fixtures/serve/input_manifest.yaml`,
      "--http",
      "127.0.0.1:0",
      "--request-state-key-env",
      "SHORT_KEY",
    ],
    env: { SHORT_KEY: "too-short" },
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(code, 2);
  assert.match(
    new TextDecoder().decode(stderr),
    /--request-state-key-env SHORT_KEY: the variable is shorter than 32 bytes/,
  );
});

Deno.test("serve, 2026 client in front of a 2025-era upstream: requests the upstream sends at once are all asked, answered by key, and the call completes", async () => {
  const served = await serve("legacy");
  const answers: Record<string, Record<string, unknown>> = {
    "elicitation/create": accept({ name: "Alice" }),
    "sampling/createMessage": {
      role: "assistant",
      content: { type: "text", text: "Hello!" },
      model: "m",
    },
    "roots/list": { roots: [{ uri: "file:///r" }] },
  };
  try {
    const asked = new Set<string>();
    let answer = await rpc(
      served.url,
      "tools/call",
      call("test_input_required_result_multiple_inputs"),
    );
    for (let round = 0; answer.result?.resultType === "input_required"; round++) {
      assert.ok(round < 5, "too many rounds");
      const requests = answer.result.inputRequests ?? {};
      for (const request of Object.values(requests)) asked.add(request.method);
      answer = await rpc(
        served.url,
        "tools/call",
        call("test_input_required_result_multiple_inputs", {
          inputResponses: Object.fromEntries(
            Object.entries(requests).map(([key, r]) => [key, answers[r.method]]),
          ),
          requestState: answer.result.requestState,
        }),
      );
    }
    assert.match(
      answer.result?.content?.[0].text ?? "",
      /all inputs received/,
      JSON.stringify(answer),
    );
    assert.deepEqual([...asked].sort(), Object.keys(answers).sort());
  } finally {
    await served.close();
  }
});
