// The direct path of a 2026-07-28 `tools/call` (serve/_fast_call_modern.ts)
// answers with the SDK's bytes: every case is sent to two handlers of one
// gateway, one with the direct path and one without (`directCalls: false`,
// the SDK's path), and their status, headers and bodies compared.

import assert from "node:assert/strict";
import {
  classifyInboundRequest,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from "@modelcontextprotocol/server";
import { mcpBackend, type ToolObjectSchema } from "../../model/mod.ts";
import { Runner } from "../../run/mod.ts";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Gateway, type HttpHandler, serveHttp } from "../../serve/mod.ts";
import { EnvelopeVerdicts, modernCallOf } from "../../serve/_fast_call_modern.ts";
import { answerOf, countConnects, type HandlerPairOptions } from "./_direct_pair.ts";
import { type DoubleCase, doublePair, doubleUpstream } from "./_double_upstream.ts";
const ELICIT = {
  method: "elicitation/create",
  params: {
    mode: "form",
    message: "Which one?",
    requestedSchema: { type: "object", properties: { pick: { type: "string" } } },
  },
};

/** What the double upstream answers per tool name. */
const RESULTS: Record<string, Record<string, unknown>> = {
  plain: { content: [{ type: "text", text: "hello" }], structuredContent: { echoed: "hello" } },
  flags: { isError: false, structuredContent: { x: 1 }, content: [{ type: "text", text: "f" }] },
  extra_keys: {
    content: [{ type: "text", text: "a", extra: 1 }],
    extraTop: 2,
    structuredContent: { x: 1 },
  },
  meta_first: { isError: false, _meta: { a: 1 }, content: [{ type: "text", text: "m" }] },
  no_content: { structuredContent: { x: 1 } },
  image: { content: [{ type: "image", data: "AAA", mimeType: "image/png" }] },
  typed: { content: [{ type: "text", text: "t" }], resultType: "complete" },
  resource: { content: [{ type: "resource", resource: { uri: "x:/a", text: "t", extra: 1 } }] },
  tool_error: { content: [{ type: "text", text: "it failed" }], isError: true },
  invalid_block: { content: [{ type: "weird", text: "a" }] },
  invalid_flag: { content: [], isError: "yes" },
  secret: { content: [{ type: "text", text: "the key is s3cr3t" }] },
  input: { resultType: "input_required", inputRequests: { pick: ELICIT } },
  input_empty: { resultType: "input_required" },
};

/** The cases of the 2026-07-28 era's own: a resource error, a server-to-client request. */
const CASES: Record<string, DoubleCase> = {
  not_found: () => Promise.reject(Object.assign(new Error("no such resource"), { code: -32002 })),
  // A 2025-style server-to-client request: the gateway's business for a 2026 client.
  asks: async (context) => {
    await context.onRequest!({ method: "elicitation/create", params: ELICIT.params });
    return { content: [{ type: "text", text: "answered" }] };
  },
};

/** A tool whose argument `region` goes in an `Mcp-Param-Region` header. */
const HEADED: Record<string, ToolObjectSchema> = {
  headed: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } },
};

function setup(options: HandlerPairOptions = {}) {
  return doublePair(RESULTS, CASES, options, HEADED);
}

const REVISION = "2026-07-28";

function envelope(capabilities: Record<string, unknown> = {}) {
  return {
    [PROTOCOL_VERSION_META_KEY]: REVISION,
    [CLIENT_INFO_META_KEY]: { name: "t", version: "1" },
    [CLIENT_CAPABILITIES_META_KEY]: capabilities,
  };
}

function call(name: string, args: unknown = {}, meta: Record<string, unknown> = envelope()) {
  return {
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: { name, arguments: args, _meta: meta },
  };
}

function headersOf(body: unknown): Record<string, string> {
  const m = body as { params?: { name?: unknown } };
  return {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": REVISION,
    "mcp-method": "tools/call",
    ...(typeof m?.params?.name === "string" ? { "mcp-name": m.params.name } : {}),
  };
}

function post(body: BodyInit, headers: Record<string, string>, signal?: AbortSignal) {
  return new Request("http://localhost/mcp", {
    method: "POST",
    headers,
    body,
    ...(signal === undefined ? {} : { signal }),
  });
}

async function answer(handler: HttpHandler, request: Request) {
  const answered = await answerOf(handler, request);
  // A sealed request state differs per seal (its nonce): compared as present.
  return {
    ...answered,
    body: answered.body.replace(/"requestState":"tf1\.[^"]+"/g, '"requestState":"SEALED"'),
  };
}

/** Sends `body` to both handlers of one gateway; asserts equal answers; the body. */
async function same(
  body: unknown,
  headers: Record<string, string> = headersOf(body),
  env?: Awaited<ReturnType<typeof setup>>,
): Promise<string> {
  const own = env ?? await setup();
  try {
    const text = typeof body === "string" ? body : JSON.stringify(body);
    const direct = await answer(own.direct, post(text, headers));
    const sdk = await answer(own.sdk, post(text, headers));
    assert.deepEqual(direct, sdk, text);
    return direct.body;
  } finally {
    if (env === undefined) await own.close();
  }
}

Deno.test("a 2026-07-28 call on the direct path answers every result shape with the SDK's bytes", async () => {
  const env = await setup();
  try {
    for (const name of Object.keys(RESULTS)) {
      const body = await same(call(name), undefined, env);
      assert(body.startsWith("{"), `${name}: ${body.slice(0, 80)}`);
    }
    assert.match(await same(call("plain"), undefined, env), /"resultType":"complete"/);
    assert.match(await same(call("invalid_block"), undefined, env), /"code":-32602/);
    assert.match(await same(call("secret"), undefined, env), /the key is \*\*\*/);
  } finally {
    await env.close();
  }
});

Deno.test("a 2026-07-28 call on the direct path answers errors, invalid arguments and local tools as the SDK path", async () => {
  const env = await setup();
  try {
    assert.match(await same(call("checked", { n: "one" }), undefined, env), /"isError":true/);
    assert.match(await same(call("rpc_error"), undefined, env), /upstream refused/);
    assert.match(await same(call("not_found"), undefined, env), /no such resource/);
    assert.match(await same(call("crash"), undefined, env), /the process exited/);
    assert.match(await same(call("add", { a: 1, b: 2 }), undefined, env), /"sum":3/);
  } finally {
    await env.close();
  }
});

Deno.test("input-required results on the direct path: -32021 without the capability, the result with it, as the SDK path", async () => {
  const env = await setup();
  try {
    assert.match(await same(call("input"), undefined, env), /"code":-32021/);
    const form = envelope({ elicitation: { form: {} } });
    assert.match(await same(call("input", {}, form), undefined, env), /"input_required"/);
    await same(call("input_empty", {}, form), undefined, env);
    await same(call("asks"), undefined, env);
    await same(call("asks", {}, form), undefined, env);
  } finally {
    await env.close();
  }
});

Deno.test("2026-07-28 requests the direct path does not take get the SDK's answer", async () => {
  const env = await setup();
  const plain = call("plain");
  const h = headersOf(plain);
  const cases: [unknown, Record<string, string>][] = [
    [call("plain", {}, { ...envelope(), progressToken: 1 }), h],
    [call("plain", {}, { ...envelope(), [LOG_LEVEL_META_KEY]: "debug" }), h],
    [{ ...plain, params: { ...plain.params, requestState: "x" } }, h],
    [{ ...plain, params: { ...plain.params, inputResponses: {} } }, h],
    [call("plain", {}, { ...envelope(), [PROTOCOL_VERSION_META_KEY]: "2099-01-01" }), h],
    [call("plain", {}, { ...envelope(), [CLIENT_INFO_META_KEY]: { name: 1 } }), h],
    [call("plain", {}, { ...envelope(), [CLIENT_CAPABILITIES_META_KEY]: [] }), h],
    [call("plain", {}, { [PROTOCOL_VERSION_META_KEY]: REVISION }), h],
    [plain, { ...h, "mcp-name": "other" }],
    [plain, { ...h, "mcp-method": "tools/list" }],
    [plain, { ...h, "mcp-name": " plain " }],
    [plain, { ...h, "mcp-protocol-version": "2025-06-18" }],
    [plain, Object.fromEntries(Object.entries(h).filter(([k]) => k !== "mcp-method"))],
    [plain, Object.fromEntries(Object.entries(h).filter(([k]) => k !== "mcp-protocol-version"))],
    [plain, { ...h, accept: "application/json" }],
    [{ ...plain, id: null }, h],
    [call("plain", [1]), h],
    [call("no_such_tool"), headersOf(call("no_such_tool"))],
    [[plain, { ...plain, id: 8 }], h],
    ["{not json", h],
    ["", h],
    [call("headed", { region: "eu" }), { ...headersOf(call("headed")), "mcp-param-region": "us" }],
    [call("headed", { region: "eu" }), { ...headersOf(call("headed")), "mcp-param-region": "eu" }],
  ];
  try {
    for (const [body, headers] of cases) await same(body, headers, env);
  } finally {
    await env.close();
  }
});

Deno.test("a 2026-07-28 call on the direct path answers the same whether its body comes whole or byte by byte", async () => {
  const env = await setup();
  try {
    const text = JSON.stringify(call("plain"));
    const bytes = new TextEncoder().encode(text);
    const trickle = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
    });
    const split = await answer(env.direct, post(trickle, headersOf(call("plain"))));
    const whole = await answer(env.sdk, post(text, headersOf(call("plain"))));
    assert.deepEqual(split, whole);
  } finally {
    await env.close();
  }
});

Deno.test("a 2026-07-28 call the client abandons is cancelled upstream, answered 499 like the SDK path, and frees its slot", async () => {
  const env = await setup({ maxConcurrentPerClient: 1 });
  try {
    const statuses: number[] = [];
    for (const side of ["direct", "sdk"] as const) {
      const before = env.upstream.calls.length;
      const abort = new AbortController();
      const pending = env[side].fetch(
        post(JSON.stringify(call("hang")), headersOf(call("hang")), abort.signal),
      );
      while (env.upstream.calls.length === before) await new Promise((r) => setTimeout(r, 5));
      abort.abort();
      const response = await pending;
      await response.body?.cancel();
      statuses.push(response.status);
      assert(env.upstream.calls[before].signal?.aborted, `${side}: the call was not cancelled`);
      const next = await answer(
        env[side],
        post(JSON.stringify(call("plain")), headersOf(call("plain"))),
      );
      assert.equal(next.status, 200, `${side}: the slot was not freed`);
    }
    assert.deepEqual(statuses, [499, 499]);
  } finally {
    await env.close();
  }
});

Deno.test("a 2026-07-28 call that hangs upstream ends at its deadline with the SDK path's answer", async () => {
  const env = await setup({ timeoutMs: 100 });
  try {
    assert.match(await same(call("hang"), undefined, env), /timed out after 100 ms/);
  } finally {
    await env.close();
  }
});

Deno.test("with --sessions a 2026-07-28 call on the direct path answers with the SDK's bytes", async () => {
  const env = await setup({ sessions: true });
  try {
    await same(call("plain"), undefined, env);
    await same(call("image"), undefined, env);
    await same(call("input"), undefined, env);
  } finally {
    await env.close();
  }
});

Deno.test("a plain 2026-07-28 call with a plain result connects no SDK server; another outcome is replayed through one", async () => {
  const env = await setup();
  using connects = countConnects();
  try {
    await answer(env.direct, post(JSON.stringify(call("plain")), headersOf(call("plain"))));
    assert.equal(connects.count, 0);
    await answer(env.direct, post(JSON.stringify(call("image")), headersOf(call("image"))));
    assert.equal(connects.count, 1);
    await answer(env.sdk, post(JSON.stringify(call("plain")), headersOf(call("plain"))));
    assert.equal(connects.count, 2);
    // The replay does not call the tool a second time.
    assert.equal(env.upstream.calls.filter((c) => c.name === "image").length, 1);
  } finally {
    await env.close();
  }
});

Deno.test("the 2026-07-28 direct path takes a call only when the SDK's classifier finds it modern", () => {
  const metas: unknown[] = [
    envelope(),
    envelope({ elicitation: { form: {} } }),
    { ...envelope(), progressToken: "t" },
    { ...envelope(), [CLIENT_INFO_META_KEY]: { name: "t", version: "1", title: "T" } },
    { ...envelope(), [CLIENT_INFO_META_KEY]: { name: "t" } },
    { ...envelope(), [CLIENT_CAPABILITIES_META_KEY]: { elicitation: "yes" } },
    { ...envelope(), [PROTOCOL_VERSION_META_KEY]: "2025-06-18" },
    {},
    undefined,
  ];
  const versions = [undefined, "2025-06-18", REVISION, "2099-01-01"];
  const names = [undefined, "plain", "other"];
  let taken = 0;
  for (const _meta of metas) {
    for (const version of versions) {
      for (const nameHeader of names) {
        const body = {
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "plain", arguments: {}, ...(_meta === undefined ? {} : { _meta }) },
        };
        const headers: Record<string, string> = {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-method": "tools/call",
        };
        if (version !== undefined) headers["mcp-protocol-version"] = version;
        if (nameHeader !== undefined) headers["mcp-name"] = nameHeader;
        const request = new Request("http://localhost/mcp", { method: "POST", headers });
        const taken1 = modernCallOf(request, body, () => true, new EnvelopeVerdicts());
        const sdk = classifyInboundRequest({
          httpMethod: "POST",
          protocolVersionHeader: version,
          mcpMethodHeader: "tools/call",
          mcpNameHeader: nameHeader,
          body,
        });
        if (taken1 !== undefined) {
          taken++;
          assert.equal(sdk.kind, "modern", JSON.stringify({ body, headers }));
        }
      }
    }
  }
  assert.equal(taken, 3);
});

Deno.test("the SDK's own client pinned to 2026-07-28 takes the direct path, with and without capabilities", async () => {
  const upstream = doubleUpstream(RESULTS, CASES);
  const runner = new Runner();
  runner.registry.add(
    { name: "plain", namespace: "up", inputSchema: { type: "object" } },
    mcpBackend("up"),
  );
  const gateway = await Gateway.create(runner, { upstreams: [upstream] });
  const serving = await serveHttp(gateway, { port: 0 });
  using connects = countConnects();
  try {
    for (const capabilities of [{}, { elicitation: { form: {} }, sampling: {} }]) {
      const client = new Client({ name: "probe", version: "1.0.0" }, {
        capabilities,
        versionNegotiation: { mode: { pin: REVISION } },
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
      try {
        const before = connects.count;
        const result = await client.callTool({ name: "plain", arguments: {} });
        assert.deepEqual(result.content, [{ type: "text", text: "hello" }]);
        assert.equal(connects.count - before, 0, "an SDK server answered the call");
      } finally {
        await client.close();
      }
    }
  } finally {
    await serving.close();
    await gateway.close();
  }
});
