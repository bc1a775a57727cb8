// `serve --http --sessions` stops on SIGTERM while a client still holds its
// session's event stream open (the GET stream of the 2025-era Streamable HTTP
// transport): the stop closes the sessions, which ends their streams, instead
// of waiting for the client to hang up (which a client that forgot the stream,
// or reopened it while closing, never does).
import assert from "node:assert/strict";
import { startHttp } from "./_helpers.ts";

const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

Deno.test("serve --http --sessions: SIGTERM ends at once although a client holds its session's event stream open", async () => {
  const served = await startHttp(["--sessions"]);
  let stream: ReadableStreamDefaultReader<Uint8Array> | undefined;
  try {
    const init = await fetch(served.url, {
      method: "POST",
      headers: HEADERS,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "stop-test", version: "1.0.0" },
        },
      }),
    });
    await init.body?.cancel();
    const session = init.headers.get("mcp-session-id");
    assert.ok(session, "a session was opened");
    const common = { ...HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
    const initialized = await fetch(served.url, {
      method: "POST",
      headers: common,
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    await initialized.body?.cancel();
    const get = await fetch(served.url, {
      method: "GET",
      headers: { ...common, accept: "text/event-stream" },
    });
    assert.equal(get.status, 200, "the event stream is open");
    stream = get.body!.getReader(); // held, never read to its end
    const started = performance.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      served.close(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`serve did not stop within 15 s:\n${served.stderr()}`)),
          15_000,
        );
      }),
    ]).finally(() => clearTimeout(timer));
    assert.ok(performance.now() - started < 15_000);
  } finally {
    await stream?.cancel().catch(() => {});
    await served.close().catch(() => {});
  }
});
