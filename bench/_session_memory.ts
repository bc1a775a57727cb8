// The memory an open `serve --http --sessions` session keeps, measured in
// this process: a gateway and its HTTP handler (sessions in the memory state
// store), sessions opened as a client does (initialize, initialized, one
// call), the heap retained per session after a full garbage collection
// (needs `--v8-flags=--expose-gc`), and the resident memory it grew by.

import { Runner } from "../run/mod.ts";
import { createHttpHandler, Gateway, MemoryStateStore } from "../serve/mod.ts";

const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

/** Retained heap and RSS growth per session (KiB) over `count` sessions. */
export async function sessionMemory(count: number): Promise<{ heapKiB: number; rssKiB: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error("run with --v8-flags=--expose-gc");
  const runner = new Runner();
  runner.addLocalTool({ name: "ping", inputSchema: { type: "object" } }, () => "pong");
  const gateway = await Gateway.create(runner);
  const handler = createHttpHandler(gateway, {
    sessions: true,
    state: new MemoryStateStore({ sessionsPerPrincipal: 1_000_000 }),
    maxRate: { requests: 1e9, windowMs: 60_000 },
  });
  const send = async (headers: Record<string, string>, body: unknown) => {
    const response = await handler.fetch(
      new Request("http://localhost/mcp", { method: "POST", headers, body: JSON.stringify(body) }),
    );
    await response.text();
    return response;
  };
  const open = async () => {
    const init = await send(HEADERS, {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "bench", version: "1" },
      },
    });
    const id = init.headers.get("mcp-session-id");
    if (id === null) throw new Error(`no session opened: HTTP ${init.status}`);
    const headers = { ...HEADERS, "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" };
    await send(headers, { jsonrpc: "2.0", method: "notifications/initialized" });
    await send(headers, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "ping", arguments: {} },
    });
  };
  const settle = async () => {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 100));
    gc();
  };
  try {
    for (let i = 0; i < 50; i++) await open();
    await settle();
    const before = Deno.memoryUsage();
    for (let i = 0; i < count; i++) await open();
    await settle();
    const after = Deno.memoryUsage();
    return {
      heapKiB: (after.heapUsed - before.heapUsed) / count / 1024,
      rssKiB: (after.rss - before.rss) / count / 1024,
    };
  } finally {
    await handler.close();
    await gateway.close();
  }
}
