// MemoryStateStore: the shared StateStore contract, and what only memory does
// (a fake clock, the limits checked at construction).

import assert from "node:assert/strict";
import { MemoryStateStore, StateStoreError } from "../../../serve/mod.ts";
import { stateStoreContract } from "./_contract.ts";

stateStoreContract("memory", (limits) => new MemoryStateStore(limits));

Deno.test("memory state store refuses malformed limits with bad_option", () => {
  for (
    const limits of [
      { sessionsPerPrincipal: 0 },
      { sessionIdleMs: -1 },
      { eventBytesPerSession: 1.5 },
      { eventBytesPerSession: 10, eventBytesTotal: 5 },
    ]
  ) {
    assert.throws(
      () => new MemoryStateStore(limits),
      (e: unknown) => e instanceof StateStoreError && e.code === "bad_option",
      JSON.stringify(limits),
    );
  }
});

Deno.test("memory state store expires by its clock and forgets the expired session's bytes", async () => {
  let now = 1_000_000;
  const store = new MemoryStateStore(
    { sessionIdleMs: 1000, eventBytesPerSession: 500, eventBytesTotal: 500 },
    { now: () => now },
  );
  const init = { jsonrpc: "2.0", id: 0, method: "initialize" };
  await store.createSession({ id: "old", principal: "a", initialize: init, createdAt: now });
  const pad = "x".repeat(400);
  await store.appendEvent("old", "st", { pad });
  now += 1000;
  await store.createSession({ id: "new", principal: "b", initialize: init, createdAt: now });
  const kept = await store.appendEvent("new", "st", { pad });
  const next = await store.appendEvent("new", "st", { n: 1 });
  // The expired session's 400 bytes no longer count: both of "new"'s fit.
  assert.deepEqual((await store.eventsAfter(kept))?.events.map((e) => e.id), [next]);
  assert.equal(await store.touchSession("old"), undefined);
  await store.close();
});
