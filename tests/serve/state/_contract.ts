// The contract every StateStore keeps, as Deno tests registered for one
// implementation: `stateStoreContract("memory", (limits) => new MemoryStateStore(limits))`.
// The factory must return an EMPTY store each call (for a shared backend, a
// fresh key prefix or database). Timings are real (idle expiry, rate windows
// of a few hundred ms), so a backend's own clock (e.g. Redis PEXPIRE) works.

import assert from "node:assert/strict";
import {
  type SessionRecord,
  type StateLimits,
  stateLimits,
  type StateStore,
  StateStoreError,
} from "../../../serve/mod.ts";

/** Makes an empty store with these limits. */
export type StoreFactory = (limits: StateLimits) => StateStore | Promise<StateStore>;

/** Options of {@linkcode stateStoreContract}. */
export interface ContractOptions {
  /** Deno's op and resource sanitizers (default true; a network client may need false). */
  sanitize?: boolean;
  /** Skips the "closed store rejects" case (for stores that reconnect instead). */
  skipClosed?: boolean;
}

const INIT = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: { sampling: {} },
    clientInfo: { name: "contract", version: "1.0.0" },
  },
};

function record(id: string, principal: string): SessionRecord {
  return { id, principal, initialize: INIT, createdAt: Date.now() };
}

/** A message of about `size` bytes once serialized. */
function message(n: number, size = 100): Record<string, unknown> {
  const base = JSON.stringify({ jsonrpc: "2.0", method: "note", params: { n, pad: "" } }).length;
  return { jsonrpc: "2.0", method: "note", params: { n, pad: "x".repeat(size - base) } };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Registers the contract's tests for one implementation.
 *
 * @param name The implementation, for test names.
 * @param factory Makes an empty store with the given limits.
 * @param options Sanitizers and skipped cases.
 */
export function stateStoreContract(
  name: string,
  factory: StoreFactory,
  options: ContractOptions = {},
): void {
  const sanitize = options.sanitize ?? true;
  const test = (
    title: string,
    limits: Partial<StateLimits>,
    fn: (s: StateStore) => Promise<void>,
  ) =>
    Deno.test({
      name: `${name} state store: ${title}`,
      sanitizeOps: sanitize,
      sanitizeResources: sanitize,
      async fn() {
        const store = await factory(stateLimits(limits));
        try {
          await fn(store);
        } finally {
          await store.close();
        }
      },
    });

  test("a created session reads back whole, with its limits and description", {
    sessionsPerPrincipal: 7,
  }, async (store) => {
    assert.ok(store.description.length > 0);
    assert.equal(store.limits.sessionsPerPrincipal, 7);
    const created = await store.createSession(record("s1", "alice"));
    assert.notEqual(created, "quota");
    const read = await store.touchSession("s1");
    assert.equal(read?.id, "s1");
    assert.equal(read?.principal, "alice");
    assert.deepEqual(read?.initialize, INIT);
    assert.equal(typeof read?.createdAt, "number");
    assert.equal(await store.touchSession("nope"), undefined);
    await store.ping();
  });

  test("a principal at its quota is refused while another principal still gets sessions", {
    sessionsPerPrincipal: 2,
  }, async (store) => {
    assert.notEqual(await store.createSession(record("a1", "alice")), "quota");
    assert.notEqual(await store.createSession(record("a2", "alice")), "quota");
    assert.equal(await store.createSession(record("a3", "alice")), "quota");
    assert.equal(await store.touchSession("a3"), undefined);
    assert.notEqual(await store.createSession(record("b1", "bob")), "quota");
    assert.equal(await store.countSessions("alice"), 2);
    assert.equal(await store.countSessions("bob"), 1);
    assert.equal(await store.countSessions("carol"), 0);
    // The refusal evicted nobody; deleting one of alice's frees a slot.
    assert.equal((await store.touchSession("a1"))?.principal, "alice");
    await store.deleteSession("a1");
    assert.equal(await store.countSessions("alice"), 1);
    assert.notEqual(await store.createSession(record("a4", "alice")), "quota");
    await store.deleteSession("never-existed");
  });

  test("concurrent creations by one principal stop exactly at its quota", {
    sessionsPerPrincipal: 3,
  }, async (store) => {
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) => store.createSession(record(`c${i}`, "alice"))),
    );
    assert.equal(outcomes.filter((o) => o !== "quota").length, 3);
    assert.equal(await store.countSessions("alice"), 3);
  });

  test("a session unused for sessionIdleMs expires with its events; using it restarts the clock", {
    sessionIdleMs: 400,
    sessionsPerPrincipal: 1,
  }, async (store) => {
    await store.createSession(record("s1", "alice"));
    const event = await store.appendEvent("s1", "st", message(1));
    await store.appendEvent("s1", "st", message(2));
    for (let i = 0; i < 3; i++) {
      await sleep(200);
      assert.ok(await store.touchSession("s1"), `expired although used ${200}ms ago`);
    }
    await sleep(700);
    assert.equal(await store.touchSession("s1"), undefined);
    assert.equal(await store.eventsAfter(event), undefined);
    assert.equal(await store.countSessions("alice"), 0);
    assert.notEqual(await store.createSession(record("s2", "alice")), "quota");
  });

  test(
    "events replay after an id, in order, from that stream and session only",
    {},
    async (store) => {
      await store.createSession(record("s1", "alice"));
      await store.createSession(record("s2", "bob"));
      const a1 = await store.appendEvent("s1", "one", message(1));
      await store.appendEvent("s1", "two", message(2));
      await store.appendEvent("s2", "one", message(3));
      const a3 = await store.appendEvent("s1", "one", message(4));
      const a4 = await store.appendEvent("s1", "one", message(5));
      const after = await store.eventsAfter(a1);
      assert.equal(after?.sessionId, "s1");
      assert.equal(after?.streamId, "one");
      assert.deepEqual(after?.events.map((e) => e.id), [a3, a4]);
      assert.deepEqual(after?.events.map((e) => e.message), [message(4), message(5)]);
      const last = await store.eventsAfter(a4);
      assert.deepEqual(last, { sessionId: "s1", streamId: "one", events: [] });
      const ids = new Set([a1, a3, a4]);
      assert.equal(ids.size, 3, "event ids are unique");
      for (const garbage of ["", "x", "s1", `${a1}x`, "s1~one~zzzzzzzzzz", "s1:one:999"]) {
        assert.equal(await store.eventsAfter(garbage), undefined, `garbage id ${garbage}`);
      }
    },
  );

  test("events beyond eventBytesPerSession drop the session's oldest first", {
    eventBytesPerSession: 1000,
    eventBytesTotal: 100_000,
  }, async (store) => {
    await store.createSession(record("s1", "alice"));
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push(await store.appendEvent("s1", "st", message(i, 100)));
    // 1000 bytes hold 10 events of 100: the first 15 are gone, the last 10 kept.
    assert.equal(await store.eventsAfter(ids[0]), undefined);
    assert.equal(await store.eventsAfter(ids[14]), undefined);
    const kept = await store.eventsAfter(ids[15]);
    assert.deepEqual(kept?.events.map((e) => e.id), ids.slice(16));
  });

  test("events beyond eventBytesTotal drop the oldest of all sessions first", {
    eventBytesPerSession: 1000,
    eventBytesTotal: 1500,
  }, async (store) => {
    await store.createSession(record("s1", "alice"));
    await store.createSession(record("s2", "bob"));
    const a: string[] = [];
    const b: string[] = [];
    for (let i = 0; i < 8; i++) a.push(await store.appendEvent("s1", "st", message(i, 100)));
    for (let i = 0; i < 10; i++) b.push(await store.appendEvent("s2", "st", message(i, 100)));
    // 18 events of 100 bytes, 15 fit: alice's three oldest went, bob's are all there.
    assert.equal(await store.eventsAfter(a[2]), undefined);
    assert.deepEqual((await store.eventsAfter(a[3]))?.events.map((e) => e.id), a.slice(4));
    assert.deepEqual((await store.eventsAfter(b[0]))?.events.map((e) => e.id), b.slice(1));
  });

  test(
    "an event given with its JSON keeps that JSON: it replays as the message it serialises",
    {},
    async (store) => {
      await store.createSession(record("s1", "alice"));
      const first = await store.appendEvent("s1", "st", message(1));
      const wire = message(2);
      const second = await store.appendEvent("s1", "st", wire, JSON.stringify(wire));
      const after = await store.eventsAfter(first);
      assert.deepEqual(after?.events, [{ id: second, message: wire }]);
    },
  );

  test("event sizes count UTF-8 bytes, not characters (given JSON or not)", {
    eventBytesPerSession: 1000,
    eventBytesTotal: 100_000,
  }, async (store) => {
    await store.createSession(record("s1", "alice"));
    // Each event is 200 bytes of UTF-8 ("é" is two) in fewer than 150 characters.
    const base = JSON.stringify({ jsonrpc: "2.0", method: "note", params: { n: 0, pad: "" } })
      .length;
    const wide = (n: number) => ({
      jsonrpc: "2.0",
      method: "note",
      params: { n, pad: "é".repeat(Math.floor((200 - base) / 2)) + "x".repeat((200 - base) % 2) },
    });
    assert.equal(new TextEncoder().encode(JSON.stringify(wide(0))).length, 200);
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const event = wide(i);
      ids.push(
        await store.appendEvent("s1", "st", event, i % 2 === 0 ? JSON.stringify(event) : undefined),
      );
    }
    // 1000 bytes hold 5 events of 200: the first 3 are gone.
    assert.equal(await store.eventsAfter(ids[2]), undefined);
    assert.deepEqual((await store.eventsAfter(ids[3]))?.events.map((e) => e.id), ids.slice(4));
  });

  test("an event larger than eventBytesPerSession is not kept and drops nothing", {
    eventBytesPerSession: 1000,
  }, async (store) => {
    await store.createSession(record("s1", "alice"));
    const first = await store.appendEvent("s1", "st", message(1));
    const huge = await store.appendEvent("s1", "st", message(2, 5000));
    const next = await store.appendEvent("s1", "st", message(3));
    assert.equal(await store.eventsAfter(huge), undefined);
    assert.deepEqual((await store.eventsAfter(first))?.events.map((e) => e.id), [next]);
  });

  test("deleting a session forgets its events, and later events of it are not kept", {
    eventBytesTotal: 10_000,
    eventBytesPerSession: 10_000,
  }, async (store) => {
    await store.createSession(record("s1", "alice"));
    const before = await store.appendEvent("s1", "st", message(1));
    await store.deleteSession("s1");
    assert.equal(await store.touchSession("s1"), undefined);
    assert.equal(await store.eventsAfter(before), undefined);
    const late = await store.appendEvent("s1", "st", message(2));
    assert.equal(await store.eventsAfter(late), undefined);
    const orphan = await store.appendEvent("never", "st", message(3));
    assert.equal(await store.eventsAfter(orphan), undefined);
    // What was forgotten no longer counts against the total.
    await store.createSession(record("s2", "bob"));
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) ids.push(await store.appendEvent("s2", "st", message(i, 100)));
    assert.equal((await store.eventsAfter(ids[0]))?.events.length, 49);
  });

  test("hit counts per principal and per fixed window", {}, async (store) => {
    const windowMs = 600;
    // Start just after a window boundary so four hits fall in one window.
    await sleep(windowMs - (Date.now() % windowMs) + 5);
    assert.equal(await store.hit("alice", windowMs), 1);
    assert.equal(await store.hit("alice", windowMs), 2);
    assert.equal(await store.hit("bob", windowMs), 1);
    assert.equal(await store.hit("alice", windowMs), 3);
    await sleep(windowMs + 10);
    assert.equal(await store.hit("alice", windowMs), 1);
  });

  test("concurrent hits are each counted once", {}, async (store) => {
    const windowMs = 5_000;
    const left = windowMs - (Date.now() % windowMs);
    if (left < 1000) await sleep(left + 10);
    const counts = await Promise.all(
      Array.from({ length: 20 }, () => store.hit("alice", windowMs)),
    );
    assert.deepEqual(
      [...counts].sort((x, y) => x - y),
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
  });

  if (options.skipClosed !== true) {
    test("a closed store rejects with StateStoreError closed", {}, async (store) => {
      await store.close();
      const error = await store.touchSession("s1").then(() => undefined, (e) => e);
      assert.ok(error instanceof StateStoreError, `got ${error}`);
      assert.equal(error.code, "closed");
    });
  }
}
