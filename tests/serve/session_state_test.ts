// createHttpHandler with a state store shared by two handlers (two instances
// of serve behind a load balancer): a session opened on one continues on the
// other (rebuilt from the stored initialize), ends on both when deleted on
// either, replays only its own events, and a failing store answers 503.

import assert from "node:assert/strict";
import { Runner } from "../../run/mod.ts";
import {
  createHttpHandler,
  Gateway,
  type HttpHandler,
  MemoryStateStore,
  StateStoreError,
} from "../../serve/mod.ts";
import { answer, headersOf, resultText, VERSION } from "./_session_helpers.ts";

const URL_ = "http://127.0.0.1:8080/mcp";
const INFO = { remoteAddr: { hostname: "127.0.0.1" } };

function request(
  message: unknown,
  session?: string,
  method = "POST",
  extra: Record<string, string> = {},
): Request {
  return new Request(URL_, {
    method,
    headers: headersOf(undefined, session, extra),
    ...(method === "POST" ? { body: JSON.stringify(message) } : {}),
  });
}

async function gateway(): Promise<Gateway> {
  const runner = new Runner();
  runner.addLocalTool({ name: "ping", inputSchema: { type: "object" } }, () => "pong");
  return await Gateway.create(runner);
}

async function open(handler: HttpHandler, capabilities: Record<string, unknown> = {}) {
  const init = await answer(
    await handler.fetch(
      request({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: VERSION, capabilities, clientInfo: { name: "t", version: "1" } },
      }),
      INFO,
    ),
  );
  const id = init.headers.get("mcp-session-id");
  assert.ok(id !== null, init.text);
  const ack = await handler.fetch(
    request({ jsonrpc: "2.0", method: "notifications/initialized" }, id),
    INFO,
  );
  assert.equal(ack.status, 202);
  return id;
}

const ping = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "ping", arguments: {} },
});

/** A store that two handlers share and that only the test closes. */
class Shared extends MemoryStateStore {
  failing = false;
  override close(): Promise<void> {
    return Promise.resolve();
  }
  realClose(): Promise<void> {
    return super.close();
  }
  override touchSession(id: string) {
    return this.failing
      ? Promise.reject(new StateStoreError("unavailable", "the test made the store fail"))
      : super.touchSession(id);
  }
}

Deno.test("a session opened on one instance continues on another sharing the store, and DELETE there ends it on both", async () => {
  const state = new Shared();
  const g = await gateway();
  const one = createHttpHandler(g, { sessions: true, state });
  const two = createHttpHandler(g, { sessions: true, state });
  try {
    const id = await open(one, { sampling: {} });
    const there = await answer(await two.fetch(request(ping(1), id), INFO));
    assert.equal(there.status, 200, there.text);
    assert.equal(resultText(there), "pong");
    assert.equal(there.headers.get("mcp-session-id"), id);
    // The rebuilt copy is initialized: other methods work there too.
    const list = await answer(
      await two.fetch(request({ jsonrpc: "2.0", id: 2, method: "tools/list" }, id), INFO),
    );
    assert.match(list.text, /"name":"ping"/);
    const back = await answer(await one.fetch(request(ping(3), id), INFO));
    assert.equal(resultText(back), "pong");
    const deleted = await two.fetch(request(undefined, id, "DELETE"), INFO);
    assert.equal(deleted.status, 200);
    const gone = await answer(await one.fetch(request(ping(4), id), INFO));
    assert.equal(gone.status, 404, gone.text);
  } finally {
    await one.close();
    await two.close();
    await g.close();
    await state.realClose();
  }
});

Deno.test("a session resumes only its own events: another session's event id is refused", async () => {
  const state = new Shared();
  const g = await gateway();
  const handler = createHttpHandler(g, { sessions: true, state });
  try {
    const a = await open(handler);
    const b = await open(handler);
    const call = await answer(await handler.fetch(request(ping(1), a), INFO));
    const eventId = call.events[0]?.id;
    assert.ok(eventId !== undefined, call.text);
    assert.ok(await state.eventsAfter(eventId), "the event is stored");
    const stolen = await answer(
      await handler.fetch(request(undefined, b, "GET", { "last-event-id": eventId }), INFO),
    );
    assert.equal(stolen.status, 400, stolen.text);
    assert.doesNotMatch(stolen.text, /pong/);
  } finally {
    await handler.close();
    await g.close();
    await state.realClose();
  }
});

Deno.test("a failing state store answers 503 with retry-after and what failed; it recovers with the store", async () => {
  const state = new Shared();
  const g = await gateway();
  const handler = createHttpHandler(g, { sessions: true, state });
  try {
    const id = await open(handler);
    state.failing = true;
    const failed = await answer(await handler.fetch(request(ping(1), id), INFO));
    assert.equal(failed.status, 503, failed.text);
    assert.equal(failed.headers.get("retry-after"), "1");
    assert.match(
      failed.text,
      /the state store \(memory\) is unavailable: the test made the store fail/,
    );
    state.failing = false;
    const again = await answer(await handler.fetch(request(ping(2), id), INFO));
    assert.equal(resultText(again), "pong");
  } finally {
    await handler.close();
    await g.close();
    await state.realClose();
  }
});

Deno.test("createHttpHandler closes the state store it was given", async () => {
  const state = new MemoryStateStore();
  const g = await gateway();
  const handler = createHttpHandler(g, { state });
  await handler.close();
  await g.close();
  await assert.rejects(
    () => state.ping(),
    (e: unknown) => (e as StateStoreError).code === "closed",
  );
});
