// The direct path of a `tools/call` to a 2025-era Streamable HTTP upstream
// (serve/_fast_upstream.ts) gives what the SDK's client gives: the fixture
// upstream is called over HTTP (direct) and over stdio (the SDK's path), and
// the results, notifications and failures compared.

import assert from "node:assert/strict";
import type { McpServerConfig } from "../../run/mod.ts";
import { mcpUpstream } from "../../serve/mod.ts";
import { SERVE_UPSTREAM, SERVE_UPSTREAM_CASES } from "./_upstream_helpers.ts";
import { directOptions } from "../../serve/_fast_upstream.ts";
import { callOn, spyOnDirectPosts, startHttpFixture } from "./_direct_upstream.ts";

const startFixture = () => startHttpFixture("upstream.ts");

const CASES = SERVE_UPSTREAM_CASES;

for (const ownClient of [true, false]) {
  Deno.test(`${ownClient ? "over our HTTP/1.1 client" : "over fetch (as to an https: upstream)"}, a tools/call to an HTTP upstream goes the direct way and gives what the SDK's client gives`, async () => {
    directOptions.ownClient = ownClient;
    try {
      await sameAsSdkCase();
    } finally {
      directOptions.ownClient = true;
    }
  });
}

async function sameAsSdkCase() {
  const fixture = await startFixture();
  const http: McpServerConfig = { transport: "http", url: fixture.url, protocol: "legacy" };
  const direct = mcpUpstream("up", http);
  const sdk = mcpUpstream("up", SERVE_UPSTREAM);
  const spy = spyOnDirectPosts(direct);
  try {
    for (const [name, args] of CASES) {
      const a = await callOn(direct, name, args);
      const b = await callOn(sdk, name, args);
      assert.deepEqual(a, b, name);
    }
    assert.equal(spy.count(), CASES.length, "not every call took the direct path");
  } finally {
    await direct.close();
    await sdk.close();
    fixture.child.kill("SIGTERM");
    await fixture.child.status;
  }
}

Deno.test("a direct call over the cap fails as the SDK's does, and the next call is served", async () => {
  const fixture = await startFixture();
  const direct = mcpUpstream("up", {
    transport: "http",
    url: fixture.url,
    protocol: "legacy",
    maxOutputBytes: 100_000,
  });
  try {
    const over = await callOn(direct, "huge", { n: 200_000 });
    assert.equal(over.error, "failed");
    const next = await callOn(direct, "echo", { text: "after" });
    assert.deepEqual(next.result?.structuredContent, { echoed: "after" });
  } finally {
    await direct.close();
    fixture.child.kill("SIGTERM");
    await fixture.child.status;
  }
});

Deno.test("a direct call cancelled mid-call ends at once, and an upstream that crashes mid-call fails that call only", async () => {
  const fixture = await startFixture();
  const direct = mcpUpstream("up", { transport: "http", url: fixture.url, protocol: "legacy" });
  try {
    const abort = new AbortController();
    const started = performance.now();
    const slow = callOn(direct, "slow", { ms: 10_000 }, abort.signal);
    setTimeout(() => abort.abort(new Error("the client went away")), 100);
    assert.equal((await slow).error, "failed");
    assert.ok(performance.now() - started < 5000, "the cancelled call did not end at once");
    const ok = await callOn(direct, "echo", { text: "still" });
    assert.deepEqual(ok.result?.structuredContent, { echoed: "still" });
    const crashed = await callOn(direct, "crash", {});
    assert.equal(crashed.error, "failed");
  } finally {
    await direct.close();
    try {
      fixture.child.kill("SIGTERM");
    } catch { /* it crashed, as asked */ }
    await fixture.child.status;
  }
});

/**
 * A bare 2025-era Streamable HTTP server: initialize, then tool calls whose
 * answer is written as the tool's name says (bytes one by one, everything in
 * one chunk, garbage, a stream closed before the answer).
 */
function rawServer(): { url: string; close(): Promise<void> } {
  const encoder = new TextEncoder();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    if (req.method !== "POST") return new Response(null, { status: 405 });
    const message = await req.json();
    if (message.id === undefined) return new Response(null, { status: 202 });
    if (message.method === "initialize") {
      return Response.json({
        jsonrpc: "2.0",
        id: message.id,
        result: {
          protocolVersion: "2025-06-18",
          capabilities: { tools: {} },
          serverInfo: { name: "raw", version: "1" },
        },
      }, { headers: { "mcp-session-id": "raw-session" } });
    }
    const token = message.params?._meta?.progressToken;
    const events = [
      ...(token === undefined ? [] : [{
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: token, progress: 1, total: 1 },
      }]),
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "hi" } },
      { jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: "é✓ done" }] } },
    ];
    const text = events.map((e) => `event: message\r\ndata: ${JSON.stringify(e)}\r\n\r\n`).join("");
    const bytes = encoder.encode(text);
    const name = message.params?.name;
    if (name === "busy") {
      return new Response("try later", { status: 503, headers: { "retry-after": "7" } });
    }
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        if (name === "split") {
          for (const byte of bytes) {
            controller.enqueue(new Uint8Array([byte]));
            await new Promise((r) => setTimeout(r, 0));
          }
        } else if (name === "merged") {
          controller.enqueue(bytes);
        } else if (name === "garbage") {
          controller.enqueue(encoder.encode("event: message\ndata: {not json\n\n"));
        } else if (name === "closed") {
          controller.enqueue(encoder.encode(": nothing to say\n\n"));
        }
        controller.close();
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  });
  return {
    url: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}/mcp`,
    close: () => server.shutdown(),
  };
}

for (const ownClient of [true, false]) {
  Deno.test(`${ownClient ? "over our HTTP/1.1 client" : "over fetch (as to an https: upstream)"}, a direct call reads the same answer whether its bytes come one by one or in one chunk; garbage, a stream closed early or a 503 (reported with its Retry-After) fail that call only`, async () => {
    directOptions.ownClient = ownClient;
    try {
      await rawServerCase();
    } finally {
      directOptions.ownClient = true;
    }
  });
}

async function rawServerCase() {
  const raw = rawServer();
  const direct = mcpUpstream("raw", { transport: "http", url: raw.url, protocol: "legacy" });
  const spy = spyOnDirectPosts(direct);
  try {
    const split = await callOn(direct, "split", {});
    const merged = await callOn(direct, "merged", {});
    assert.deepEqual(split, merged);
    assert.deepEqual(merged.result, { content: [{ type: "text", text: "é✓ done" }] });
    assert.deepEqual(merged.progress, [{ progress: 1, total: 1 }]);
    assert.deepEqual(merged.notifications, [{
      method: "notifications/message",
      params: { level: "info", data: "hi" },
    }]);
    assert.equal((await callOn(direct, "garbage", {})).error, "failed");
    assert.equal((await callOn(direct, "closed", {})).error, "failed");
    await assert.rejects(
      direct.request("tools/call", { name: "busy", arguments: {} }, {}),
      /HTTP 503: try later \(Retry-After: 7\)/,
    );
    assert.deepEqual((await callOn(direct, "merged", {})).result, merged.result);
    assert.equal(spy.count(), 6);
  } finally {
    await direct.close();
    await raw.close();
  }
}
