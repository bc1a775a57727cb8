// List changes through `serve`: an upstream that announces changes of its
// tools, prompts or resources (`listChanged`) is watched, and its changes
// reach serve's clients: on their `subscriptions/listen` streams in the
// 2026-07-28 era, as notifications on a 2025-era session. serve declares
// `listChanged` only for lists an upstream it can watch announces. Also:
// listeners and watchers that fail, and an upstream that sends garbage on
// its notification stream.
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Runner } from "../../run/mod.ts";
import { Gateway, mcpUpstream, type Upstream } from "../../serve/mod.ts";
import { httpClient, ROOT, startHttp } from "./_helpers.ts";
import { startUpstream2026 } from "./_upstream_2026.ts";

type Kind = "tools" | "prompts" | "resources";

/** A test double whose watch hands out `changes`, then waits for its signal. */
function fakeUpstream(
  name: string,
  capabilities: Record<string, unknown>,
  watch?: (onChange: (kind: Kind) => void, signal: AbortSignal) => Promise<void>,
): Upstream {
  return {
    name,
    capabilities: () => Promise.resolve(capabilities),
    request: () => Promise.resolve({}),
    ...(watch === undefined ? {} : { watchLists: watch }),
    close: () => Promise.resolve(),
  };
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

/** Waits until `check` holds (every 20 ms), failing after `ms` with `what`. */
async function eventually(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

Deno.test("gateway: listChanged is declared only for the lists a watchable upstream announces", async () => {
  const idle = (_: unknown, signal: AbortSignal) => untilAborted(signal);
  const gateway = await Gateway.create(new Runner(), {
    upstreams: [
      fakeUpstream("a", { tools: { listChanged: true }, prompts: {} }, idle),
      // Announces resources, but cannot be watched: nothing is declared for it.
      fakeUpstream("b", { resources: { listChanged: true, subscribe: true } }),
    ],
  });
  try {
    const capabilities = gateway.capabilities;
    assert.deepEqual(capabilities.tools, { listChanged: true });
    assert.deepEqual(capabilities.prompts, {});
    assert.deepEqual(capabilities.resources, { subscribe: true });
  } finally {
    await gateway.close();
  }
});

Deno.test("gateway: each watched upstream's changes reach every listener; a failing watcher or listener stops no other", async () => {
  let release!: () => void;
  const fired = new Promise<void>((resolve) => release = resolve);
  let aborted = 0;
  const gateway = await Gateway.create(new Runner(), {
    upstreams: [
      fakeUpstream("a", { tools: { listChanged: true } }, async (onChange, signal) => {
        await fired;
        onChange("tools");
        await untilAborted(signal);
        aborted++;
      }),
      fakeUpstream("broken", { prompts: { listChanged: true } }, () => {
        throw new Error("the watch itself fails at once");
      }),
      fakeUpstream("c", { prompts: { listChanged: true } }, async (onChange, signal) => {
        await fired;
        onChange("prompts");
        await untilAborted(signal);
        aborted++;
      }),
    ],
  });
  const first: Kind[] = [];
  const second: Kind[] = [];
  const stopThrowing = gateway.onListChanged(() => {
    throw new Error("a listener that throws");
  });
  gateway.onListChanged((kind) => first.push(kind));
  const stopSecond = gateway.onListChanged((kind) => second.push(kind));
  try {
    release();
    await eventually(() => first.length === 2, "both changes reached the first listener");
    assert.deepEqual(first.sort(), ["prompts", "tools"]);
    assert.deepEqual(second.sort(), ["prompts", "tools"]);
    stopSecond();
    stopThrowing();
  } finally {
    await gateway.close();
  }
  // close() ends the watches.
  await eventually(() => aborted === 2, "the watches' signal aborted on close()");
});

Deno.test("gateway: no upstream is watched while nobody listens", async () => {
  let watched = 0;
  const gateway = await Gateway.create(new Runner(), {
    upstreams: [
      fakeUpstream("a", { tools: { listChanged: true } }, (_, signal) => {
        watched++;
        return untilAborted(signal);
      }),
    ],
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(watched, 0);
  const stop = gateway.onListChanged(() => {});
  gateway.onListChanged(() => {});
  assert.equal(watched, 1, "a second listener starts no second watch");
  stop();
  await gateway.close();
});

for (const protocol of ["auto", "legacy"] as const) {
  Deno.test(`mcpUpstream (protocol ${protocol}): the server's tools and prompts changes arrive, until the watch is aborted`, async () => {
    const fixture = await startUpstream2026();
    const upstream = mcpUpstream("up", { transport: "http", url: fixture.url, protocol });
    const stop = new AbortController();
    const changes: Kind[] = [];
    try {
      const watching = upstream.watchLists!((kind) => changes.push(kind), stop.signal);
      // The watch opens its own connection (a listen stream in 2026-07-28):
      // trigger until a change arrives.
      await eventually(() => {
        void upstream.request(
          "tools/call",
          { name: "test_trigger_tool_change", arguments: {} },
          {},
        ).catch(() => {});
        return changes.includes("tools");
      }, "a tools change through the watch");
      await upstream.request(
        "tools/call",
        { name: "test_trigger_prompt_change", arguments: {} },
        {},
      );
      await eventually(() => changes.includes("prompts"), "a prompts change through the watch");
      stop.abort();
      await watching;
    } finally {
      stop.abort();
      await upstream.close();
      await fixture.close();
    }
  });
}

/**
 * A 2025-era server that announces tool changes and, on its notification
 * stream, sends garbage around one real change: a line that is not JSON, a
 * change of a list it was not asked about, a notification of no known kind.
 */
function garbageServer(): { url: string; close(): Promise<void> } {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      if (request.method === "GET") {
        const frames = [
          "data: this is not JSON\n\n",
          `data: ${
            JSON.stringify({ jsonrpc: "2.0", method: "notifications/bogus/list_changed" })
          }\n\n`,
          `data: ${
            JSON.stringify({ jsonrpc: "2.0", method: "notifications/resources/list_changed" })
          }\n\n`,
          `data: ${
            JSON.stringify({ jsonrpc: "2.0", method: "notifications/tools/list_changed" })
          }\n\n`,
        ];
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            for (const frame of frames) controller.enqueue(new TextEncoder().encode(frame));
            // The stream stays open, as a notification stream does.
          },
        });
        return new Response(body, {
          headers: { "content-type": "text/event-stream", "mcp-session-id": "s1" },
        });
      }
      if (request.method === "DELETE") return new Response(null, { status: 200 });
      const message = await request.json();
      if (message.id === undefined) return new Response(null, { status: 202 });
      const result = message.method === "initialize"
        ? {
          protocolVersion: "2025-06-18",
          capabilities: { tools: { listChanged: true } },
          serverInfo: { name: "garbage", version: "1" },
        }
        : {};
      return Response.json({ jsonrpc: "2.0", id: message.id, result }, {
        headers: { "mcp-session-id": "s1" },
      });
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}/mcp`,
    close: () => server.shutdown(),
  };
}

Deno.test("mcpUpstream: garbage on a server's notification stream is dropped; its one real tools change arrives, and nothing it was not asked about", async () => {
  const server = garbageServer();
  const upstream = mcpUpstream("garbage", {
    transport: "http",
    url: server.url,
    protocol: "legacy",
  });
  const stop = new AbortController();
  const changes: Kind[] = [];
  try {
    const watching = upstream.watchLists!((kind) => changes.push(kind), stop.signal);
    await eventually(() => changes.length > 0, "the real change");
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(changes, ["tools"]);
    stop.abort();
    await watching;
  } finally {
    stop.abort();
    await upstream.close();
    await server.close();
  }
});

Deno.test("serve --http: a 2026-07-28 client's subscriptions/listen stream and a 2025-era session both get the upstream's list changes", async () => {
  const fixture = await startUpstream2026();
  const served = await startHttp(["--sessions"], {
    manifest: `${ROOT}tests/fixtures/serve/manifest_2026_http.yaml`,
    env: { SERVE_UPSTREAM_2026_URL: fixture.url },
  });
  const modern = new Client({ name: "list-changed-2026", version: "1.0.0" }, {
    capabilities: {},
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  const legacy = await httpClient(served.url);
  try {
    await modern.connect(new StreamableHTTPClientTransport(new URL(served.url)));
    const discovered = modern.getServerCapabilities();
    assert.deepEqual(discovered?.tools, { listChanged: true });
    assert.deepEqual(discovered?.prompts, { listChanged: true });
    assert.deepEqual(legacy.getServerCapabilities()?.tools, { listChanged: true });
    const modernChanges: string[] = [];
    const legacyChanges: string[] = [];
    modern.setNotificationHandler("notifications/tools/list_changed", () => {
      modernChanges.push("tools");
    });
    modern.setNotificationHandler("notifications/prompts/list_changed", () => {
      modernChanges.push("prompts");
    });
    legacy.setNotificationHandler("notifications/tools/list_changed", () => {
      legacyChanges.push("tools");
    });
    // Only the tools list: a prompts change must not reach this stream.
    const subscription = await modern.listen({ toolsListChanged: true });
    assert.deepEqual(subscription.honoredFilter, { toolsListChanged: true });
    await legacy.listTools();
    await eventually(() => {
      void modern.callTool({ name: "test_trigger_prompt_change", arguments: {} })
        .catch(() => {});
      void modern.callTool({ name: "test_trigger_tool_change", arguments: {} })
        .catch(() => {});
      return modernChanges.includes("tools") && legacyChanges.includes("tools");
    }, `the tools change at both clients; serve's stderr:\n${served.stderr()}`);
    assert.ok(!modernChanges.includes("prompts"), "a change the stream did not ask for");
    await subscription.close();
  } finally {
    await modern.close().catch(() => {});
    await legacy.close().catch(() => {});
    await served.close();
    await fixture.close();
  }
});
