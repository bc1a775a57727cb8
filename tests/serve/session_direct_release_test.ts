// A session's direct `tools/call` answered in one body gives its place back
// under the per-client concurrency limit (its body is not wrapped in a stream
// of ours), and the SDK's own answers still do once read.

import assert from "node:assert/strict";
import { Runner } from "../../run/mod.ts";
import { createHttpHandler, Gateway, MemoryStateStore } from "../../serve/mod.ts";

const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

Deno.test("serve --sessions: direct calls one after another under a limit of 1 are each answered, none refused", async () => {
  const runner = new Runner();
  runner.addLocalTool({ name: "ping", inputSchema: { type: "object" } }, () => "pong");
  const gateway = await Gateway.create(runner);
  const handler = createHttpHandler(gateway, {
    sessions: true,
    state: new MemoryStateStore(),
    maxConcurrentPerClient: 1,
  });
  const send = (headers: Record<string, string>, body: unknown) =>
    handler.fetch(
      new Request("http://localhost/mcp", { method: "POST", headers, body: JSON.stringify(body) }),
    );
  try {
    const init = await send(HEADERS, {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "t", version: "1" },
      },
    });
    await init.text();
    const id = init.headers.get("mcp-session-id");
    assert.ok(id !== null, `no session: HTTP ${init.status}`);
    const headers = { ...HEADERS, "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" };
    await (await send(headers, { jsonrpc: "2.0", method: "notifications/initialized" })).text();
    for (let i = 1; i <= 5; i++) {
      const response = await send(headers, {
        jsonrpc: "2.0",
        id: i,
        method: "tools/call",
        params: { name: "ping", arguments: {} },
      });
      assert.equal(response.status, 200, await response.clone().text());
      const text = await response.text();
      assert.match(text, new RegExp(`"id":${i}`));
      assert.match(text, /pong/);
    }
    // An SDK-served request (tools/list) after them is admitted too, and gives its place back.
    for (let i = 0; i < 2; i++) {
      const listed = await send(headers, { jsonrpc: "2.0", id: 10 + i, method: "tools/list" });
      assert.equal(listed.status, 200);
      assert.match(await listed.text(), /"ping"/);
    }
  } finally {
    await handler.close();
    await gateway.close();
  }
});
