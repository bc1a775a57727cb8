// The direct path of a 2025-era `tools/call` (serve/_fast_call.ts) answers
// with the SDK's bytes: every case is sent to two handlers of one gateway,
// one with the direct path and one without (`directCalls: false`, the SDK's
// path), and their status, headers and bodies compared.

import assert from "node:assert/strict";
import {
  classifyInboundRequest,
  isJSONRPCRequest,
  PROTOCOL_VERSION_META_KEY,
} from "@modelcontextprotocol/server";
import type { HttpHandler } from "../../serve/mod.ts";
import { answerOf, countConnects, type HandlerPairOptions } from "./_direct_pair.ts";
import { type DoubleCase, doublePair } from "./_double_upstream.ts";
import { fastCallOf } from "../../serve/_fast_call.ts";

const HUGE = "x".repeat(3 * 1024 * 1024);

/** What the double upstream answers per tool name. */
const RESULTS: Record<string, Record<string, unknown>> = {
  plain: { content: [{ type: "text", text: "hello" }], structuredContent: { echoed: "hello" } },
  extra_keys: {
    content: [{ type: "text", text: "a", extra: 1 }],
    extraTop: 2,
    structuredContent: { x: 1 },
  },
  meta_first: { isError: false, _meta: { a: 1 }, content: [{ type: "text", text: "m" }] },
  no_content: { structuredContent: { x: 1 } },
  image: {
    content: [{ type: "image", data: "AAA", mimeType: "image/png" }],
    resultType: "complete",
  },
  resource: { content: [{ type: "resource", resource: { uri: "x:/a", text: "t", extra: 1 } }] },
  link: { content: [{ type: "resource_link", uri: "x:/a", name: "n", title: "T" }] },
  tool_error: { content: [{ type: "text", text: "it failed" }], isError: true },
  invalid_block: { content: [{ type: "weird", text: "a" }] },
  invalid_flag: { content: [], isError: "yes" },
  huge: { content: [{ type: "text", text: HUGE }] },
  secret: { content: [{ type: "text", text: "the key is s3cr3t" }] },
};

/** The cases of the 2025 era's own: progress and logging notifications during a call. */
const CASES: Record<string, DoubleCase> = {
  progress: async (context) => {
    context.onProgress?.({ progress: 1, total: 2 });
    await new Promise((r) => setTimeout(r, 20));
    context.onProgress?.({ progress: 2, total: 2, message: "done" });
    return { content: [{ type: "text", text: "progressed" }] };
  },
  logging: async (context) => {
    await context.onNotification?.({
      method: "notifications/message",
      params: { level: "info", data: "a log line", logger: "up" },
    });
    return { content: [{ type: "text", text: "logged" }] };
  },
};

function setup(options: HandlerPairOptions = {}) {
  return doublePair(RESULTS, CASES, options);
}

const HEADERS: Record<string, string> = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-06-18",
};

function post(body: string | ReadableStream<Uint8Array>, headers = HEADERS, signal?: AbortSignal) {
  return new Request("http://localhost/mcp", {
    method: "POST",
    headers,
    body,
    ...(signal === undefined ? {} : { signal }),
  });
}

const answer = answerOf;

async function same(body: unknown, headers = HEADERS): Promise<string> {
  const env = await setup();
  try {
    const text = JSON.stringify(body);
    const direct = await answer(env.direct, post(text, headers));
    const sdk = await answer(env.sdk, post(text, headers));
    assert.deepEqual(direct, sdk);
    return direct.body;
  } finally {
    await env.close();
  }
}

function call(name: string, args: unknown = {}, extra: Record<string, unknown> = {}) {
  return {
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: { name, arguments: args, ...extra },
  };
}

Deno.test("the direct path answers every result shape with the SDK's bytes", async () => {
  for (const name of Object.keys(RESULTS)) {
    const body = await same(call(name));
    assert(body.startsWith("event: message\ndata: "), `${name}: ${body.slice(0, 80)}`);
  }
});

Deno.test("the direct path sends the SDK's invalid-params error for a result the schema refuses", async () => {
  const body = await same(call("invalid_block"));
  assert.match(body, /"code":-32602,"message":"Invalid tools\/call result: /);
});

Deno.test("the direct path scrubs secrets from results as the SDK path does", async () => {
  const body = await same(call("secret"));
  assert(body.includes("the key is ***") && !body.includes("s3cr3t"));
});

Deno.test("the direct path streams progress and logging notifications before the result, byte for byte", async () => {
  const progress = await same(call("progress", {}, { _meta: { progressToken: "p1" } }));
  assert.deepEqual(progress.split("event: message\n").length - 1, 3);
  assert(progress.indexOf('"progress":1') < progress.indexOf('"progressed"'));
  const logging = await same(call("logging"));
  assert.match(logging, /"method":"notifications\/message","params":\{"level":"info"/);
});

Deno.test("the direct path answers invalid arguments, tool errors, upstream errors and crashes as the SDK path", async () => {
  assert.match(await same(call("checked", { n: "one" })), /"isError":true/);
  assert.match(await same(call("tool_error")), /"isError":true/);
  assert.match(await same(call("rpc_error")), /upstream refused/);
  assert.match(await same(call("crash")), /the process exited/);
  assert.match(await same(call("add", { a: 1, b: 2 })), /"sum":3/);
});

Deno.test("requests the direct path does not take get the SDK's answer: batches, unknown tools, other versions, odd shapes", async () => {
  await same([call("plain"), { ...call("plain"), id: 8 }], {
    ...HEADERS,
    "mcp-protocol-version": "2025-03-26",
  });
  await same(call("no_such_tool"));
  await same(call("plain"), { ...HEADERS, "mcp-protocol-version": "1999-01-01" });
  await same(call("plain"), { ...HEADERS, accept: "application/json" });
  await same({ ...call("plain"), id: null });
  await same(call("plain", [1, 2]));
  await same(call("plain", {}, { _meta: { other: 1 } }));
});

Deno.test("the direct path answers the same whether the request body comes in one chunk or byte by byte", async () => {
  const env = await setup();
  try {
    const bytes = new TextEncoder().encode(JSON.stringify(call("plain")));
    const trickle = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
    });
    const split = await answer(env.direct, post(trickle));
    const whole = await answer(env.sdk, post(JSON.stringify(call("plain"))));
    assert.deepEqual(split, whole);
  } finally {
    await env.close();
  }
});

Deno.test("a call the client abandons is cancelled upstream and frees its concurrency slot", async () => {
  const env = await setup({ maxConcurrentPerClient: 1 });
  try {
    const abort = new AbortController();
    const pending = env.direct.fetch(post(JSON.stringify(call("hang")), HEADERS, abort.signal));
    while (env.upstream.calls.length === 0) await new Promise((r) => setTimeout(r, 5));
    abort.abort();
    await pending.then((r) => r.body?.cancel()).catch(() => {});
    assert(env.upstream.calls[0].signal?.aborted, "the upstream call was not cancelled");
    const next = await answer(env.direct, post(JSON.stringify(call("plain"))));
    assert.deepEqual(next.status, 200);
    assert.match(next.body, /"hello"/);
  } finally {
    await env.close();
  }
});

Deno.test("a call that hangs upstream ends at its deadline with the SDK path's timeout result", async () => {
  const env = await setup({ timeoutMs: 100 });
  try {
    const direct = await answer(env.direct, post(JSON.stringify(call("hang"))));
    const sdk = await answer(env.sdk, post(JSON.stringify(call("hang"))));
    assert.deepEqual(direct, sdk);
    assert.match(direct.body, /timed out after 100 ms/);
  } finally {
    await env.close();
  }
});

Deno.test("a plain 2025-era call is answered without an SDK server; the SDK path connects one", async () => {
  const env = await setup();
  using connects = countConnects();
  try {
    await answer(env.direct, post(JSON.stringify(call("plain"))));
    assert.equal(connects.count, 0);
    await answer(env.sdk, post(JSON.stringify(call("plain"))));
    assert.equal(connects.count, 1);
  } finally {
    await env.close();
  }
});

/** Opens a session on a handler: its ID. */
async function open(handler: HttpHandler, version: string): Promise<string> {
  const init = await handler.fetch(post(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: version,
        capabilities: {},
        clientInfo: { name: "t", version: "1" },
      },
    }),
    { "content-type": "application/json", accept: "application/json, text/event-stream" },
  ));
  await init.body?.cancel();
  const id = init.headers.get("mcp-session-id");
  assert.ok(id, `no session: HTTP ${init.status}`);
  const ack = await handler.fetch(
    post(
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      {
        ...HEADERS,
        "mcp-protocol-version": version,
        "mcp-session-id": id,
      },
    ),
  );
  await ack.body?.cancel();
  return id;
}

/** An answer with its session and event IDs made comparable. */
function normalized(answer: { status: number; headers: string[][]; body: string }, id: string) {
  return {
    ...answer,
    headers: answer.headers.map(([k, v]) => [k, v.replaceAll(id, "SESSION")]),
    body: answer.body.replace(/^id: .*$/gm, "id: EVENT"),
  };
}

Deno.test("in a session the direct path answers with the SDK's bytes: results, progress, logging under setLevel, priming events", async () => {
  for (const version of ["2025-06-18", "2025-11-25"]) {
    const env = await setup({ sessions: true });
    try {
      const ids = { direct: await open(env.direct, version), sdk: await open(env.sdk, version) };
      const both = async (body: unknown) => {
        const out = [];
        for (const side of ["direct", "sdk"] as const) {
          const headers = {
            ...HEADERS,
            "mcp-protocol-version": version,
            "mcp-session-id": ids[side],
          };
          out.push(
            normalized(await answer(env[side], post(JSON.stringify(body), headers)), ids[side]),
          );
        }
        assert.deepEqual(out[0], out[1]);
        return out[0].body;
      };
      assert.match(await both(call("plain")), /"echoed":"hello"/);
      assert.match(
        await both(call("progress", {}, { _meta: { progressToken: 5 } })),
        /"progress":2/,
      );
      assert.match(await both(call("logging")), /a log line/);
      await both({ jsonrpc: "2.0", id: 9, method: "logging/setLevel", params: { level: "error" } });
      assert.doesNotMatch(await both(call("logging")), /a log line/);
      const primed = await both(call("tool_error"));
      assert.equal(primed.startsWith("id: EVENT\ndata: \n\n"), version === "2025-11-25");
    } finally {
      await env.close();
    }
  }
});

Deno.test("in a session a direct call is cancelled by the client's notifications/cancelled, not by a dropped stream", async () => {
  const env = await setup({ sessions: true });
  try {
    const id = await open(env.direct, "2025-06-18");
    const headers = { ...HEADERS, "mcp-session-id": id };
    const dropped = new AbortController();
    const first = env.direct.fetch(post(JSON.stringify(call("hang")), headers, dropped.signal));
    while (env.upstream.calls.length === 0) await new Promise((r) => setTimeout(r, 5));
    // The handler answers once the call ends: the client is gone before.
    dropped.abort();
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(
      env.upstream.calls[0].signal?.aborted,
      false,
      "a dropped stream cancelled the call",
    );
    const cancel = await env.direct.fetch(post(
      JSON.stringify({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: 7, reason: "user" },
      }),
      headers,
    ));
    await cancel.body?.cancel();
    assert.equal(
      env.upstream.calls[0].signal?.aborted,
      true,
      "notifications/cancelled did not cancel",
    );
    await first.then((r) => r.body?.cancel()).catch(() => {});
  } finally {
    await env.close();
  }
});

Deno.test("the direct path takes a call only when the SDK's classifier finds it 2025-era and its JSON-RPC request schema passes it, and takes every plain 2025-era call", () => {
  const ids: unknown[] = [1, "a", 0, -3, 1.5, 2 ** 60, null, true, {}];
  const metas: unknown[] = [
    undefined,
    {},
    { progressToken: "t" },
    { progressToken: 7 },
    { progressToken: 1.5 },
    { progressToken: null },
    { [PROTOCOL_VERSION_META_KEY]: "2026-07-28" },
    { [PROTOCOL_VERSION_META_KEY]: "2025-06-18", progressToken: "t" },
    [],
  ];
  const argsList: unknown[] = [undefined, {}, { a: 1 }, [], "x", null];
  const versions = [
    undefined,
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
    "2099-01-01",
  ];
  const extras: Record<string, unknown>[] = [
    {},
    { result: {} },
    { error: { code: 1 } },
    { foo: 1 },
    { jsonrpc: "1.0" },
    { method: 7 },
    { params: { name: "plain", extra: true } },
    { params: { name: "plain", arguments: {}, _meta: { progressToken: "t", other: 1 } } },
    { params: [] },
  ];
  let taken = 0;
  for (const id of ids) {
    for (const _meta of metas) {
      for (const args of argsList) {
        for (const version of versions) {
          for (const extra of extras) {
            const params: Record<string, unknown> = { name: "plain" };
            if (args !== undefined) params.arguments = args;
            if (_meta !== undefined) params._meta = _meta;
            const body = { jsonrpc: "2.0", id, method: "tools/call", params, ...extra };
            const headers: Record<string, string> = {
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
            };
            if (version !== undefined) headers["mcp-protocol-version"] = version;
            const request = new Request("http://localhost/mcp", { method: "POST", headers });
            const call = fastCallOf(request, body, () => true);
            const sdk = classifyInboundRequest({
              httpMethod: "POST",
              protocolVersionHeader: version,
              body,
            });
            const label = JSON.stringify({ body, version });
            if (call !== undefined) {
              taken++;
              assert.equal(sdk.kind, "legacy", label);
              assert.ok(isJSONRPCRequest(body), label);
            }
            const plain = Object.keys(extra).length === 0 &&
              (typeof id === "string" || Number.isSafeInteger(id)) &&
              (args === undefined ||
                (typeof args === "object" && args !== null && !Array.isArray(args))) &&
              (_meta === undefined || JSON.stringify(_meta) === "{}" ||
                (typeof (_meta as { progressToken?: unknown }).progressToken === "string" ||
                    Number.isSafeInteger((_meta as { progressToken?: unknown }).progressToken)) &&
                  Object.keys(_meta as object).length === 1) &&
              (version === undefined || version < "2026-07-28");
            if (plain) assert.notEqual(call, undefined, label);
          }
        }
      }
    }
  }
  assert.ok(taken > 100, `only ${taken} cases were taken`);
});
