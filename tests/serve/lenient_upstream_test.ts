// An upstream of the 2026-07-28 revision only that omits `resultType` on its
// results and the cache hints on its lists (the harness's reference server
// does on some paths). The SDK's client refuses such results; serve (and the
// runner, which lists the tools at start) read an omitted `resultType` as
// "complete" and omitted hints as "do not cache", so clients of either era
// get the tool's own content, not an error text that the harness's
// `tools-call-simple-text` would pass anyway.
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { httpClient, startHttp } from "./_helpers.ts";

type Rpc = { id?: unknown; method?: string; params?: Record<string, unknown> };

const TEXT = "plain text from an upstream that omits resultType";

/** What the upstream answers, by method: no `resultType`, no cache hints (but on discovery). */
function answer(message: Rpc): Record<string, unknown> | undefined {
  switch (message.method) {
    case "server/discover":
      return {
        resultType: "complete",
        ttlMs: 0,
        cacheScope: "private",
        supportedVersions: ["2026-07-28"],
        capabilities: { tools: {}, prompts: {} },
        _meta: { "io.modelcontextprotocol/serverInfo": { name: "omits", version: "1.0.0" } },
      };
    case "tools/list":
      return {
        tools: [{ name: "plain", description: "Plain text", inputSchema: { type: "object" } }],
      };
    case "tools/call":
      return { content: [{ type: "text", text: TEXT }] };
    case "prompts/list":
      return { prompts: [{ name: "hello", description: "Says hello" }] };
  }
  return undefined;
}

function startUpstream(): { url: string; seen: string[]; close(): Promise<void> } {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    if (req.method !== "POST") return new Response(null, { status: 405 });
    const message = await req.json() as Rpc;
    if (message.method !== undefined) seen.push(message.method);
    if (message.id === undefined) return new Response(null, { status: 202 });
    const result = answer(message);
    const body = result === undefined
      ? { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } }
      : { jsonrpc: "2.0", id: message.id, result };
    return Response.json(body, { status: result === undefined ? 404 : 200 });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/mcp`,
    seen,
    close: () => server.shutdown(),
  };
}

Deno.test("serve in front of a 2026-07-28 upstream that omits resultType passes its content to clients of both eras", async () => {
  const upstream = startUpstream();
  const dir = await Deno.makeTempDir();
  const manifest = `${dir}/manifest.yaml`;
  await Deno.writeTextFile(
    manifest,
    `version: 1\nservers:\n  up:\n    url: ${upstream.url}\n    protocol: auto\n`,
  );
  const served = await startHttp([], { manifest });
  const legacy = await httpClient(served.url);
  const modern = new Client({ name: "serve-test-2026", version: "1.0.0" }, {
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  try {
    await modern.connect(new StreamableHTTPClientTransport(new URL(served.url)));
    for (const client of [legacy, modern]) {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name), ["plain"]);
      const result = await client.callTool({ name: "plain", arguments: {} });
      assert.notEqual(result.isError, true, JSON.stringify(result));
      assert.deepEqual(result.content, [{ type: "text", text: TEXT }]);
    }
    // The omitted hints are read as "do not cache", the safe reading.
    // deno-lint-ignore no-explicit-any
    const prompts = await (modern.request as any)({ method: "prompts/list", params: {} });
    assert.deepEqual(prompts.prompts.map((p: { name: string }) => p.name), ["hello"]);
    assert.equal(prompts.ttlMs, 0);
    assert.equal(prompts.cacheScope, "private");
    // The upstream speaks 2026-07-28 only: everything went there in that era.
    assert.ok(upstream.seen.includes("server/discover"));
  } finally {
    await legacy.close();
    await modern.close();
    await served.close();
    await upstream.close();
    await Deno.remove(dir, { recursive: true });
  }
});
