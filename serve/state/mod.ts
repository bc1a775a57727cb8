/**
 * The state `serve --http` keeps about its clients, behind one small
 * interface ({@linkcode StateStore}) so that several instances can share it:
 * sessions owned by the principal that opened them, with a per-principal
 * quota and an idle expiry; the events of their resumable streams, bounded in
 * bytes per session and in total; and fixed-window request counters for the
 * per-principal rate. {@linkcode MemoryStateStore} keeps it in one process
 * (the default).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MemoryStateStore } from "@toolfoundation/core/serve";
 *
 * const store = new MemoryStateStore({ sessionIdleMs: 60_000 });
 * assert.equal(await store.hit("alice", 60_000), 1);
 * assert.equal(await store.hit("alice", 60_000), 2);
 * assert.equal(await store.hit("bob", 60_000), 1);
 * await store.close();
 * ```
 *
 * @module
 */

export {
  DEFAULT_STATE_LIMITS,
  type SessionRecord,
  type SessionRefusal,
  type StateLimits,
  stateLimits,
  type StateStore,
  type StoredEvent,
  type StoredMessage,
} from "./store.ts";
export { MemoryStateStore, type MemoryStateStoreOptions } from "./memory.ts";
export {
  StateStoreError,
  type StateStoreErrorCode,
  type StateStoreErrorOptions,
} from "./errors.ts";
