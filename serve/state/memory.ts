/**
 * The state of one `serve --http` instance kept in its memory (the default):
 * sessions with their owner and idle expiry, the events of their streams
 * bounded in bytes per session and in total (oldest dropped first), and
 * fixed-window request counters.
 *
 * @module
 */

import { StateStoreError } from "./errors.ts";
import {
  type SessionRecord,
  type SessionRefusal,
  type StateLimits,
  stateLimits,
  type StateStore,
  type StoredEvent,
  type StoredMessage,
} from "./store.ts";

/** Options of {@linkcode MemoryStateStore}. */
export interface MemoryStateStoreOptions {
  /** The clock (ms since the epoch; default `Date.now`), for tests. */
  now?: () => number;
}

interface Live {
  record: SessionRecord;
  lastUsed: number;
  /** This session's events in the order stored (id → event). */
  events: Map<string, Stored>;
  bytes: number;
}

interface Stored {
  sessionId: string;
  streamId: string;
  /** The message as JSON: what is counted, and a copy the caller cannot change. */
  json: string;
  bytes: number;
}

/** The separator of an event id's parts: session id, stream id, sequence number. */
const SEP = "~";
const ENCODER = new TextEncoder();

/**
 * The UTF-8 length of `text` (lone surrogates count as U+FFFD, as
 * `TextEncoder` writes them): counted in place for the short texts most
 * events are, encoded for long ones.
 */
function utf8Length(text: string): number {
  if (text.length > 4096) return ENCODER.encode(text).length;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next < 0xe000) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
const SWEEP_MAX_MS = 60_000;

/**
 * A {@linkcode StateStore} in this process's memory. Bounded: sessions expire
 * after `sessionIdleMs` unused (swept on a timer that does not keep the
 * process alive), events are capped per session and in total, and rate
 * counters of past windows are dropped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MemoryStateStore } from "@toolfoundation/core/serve";
 *
 * const store = new MemoryStateStore({ sessionsPerPrincipal: 1 });
 * const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: {} };
 * const record = { id: "s1", principal: "alice", initialize, createdAt: Date.now() };
 * assert.equal(await store.createSession(record), record);
 * assert.equal(await store.createSession({ ...record, id: "s2" }), "quota");
 * const first = await store.appendEvent("s1", "stream", { jsonrpc: "2.0", method: "a" });
 * await store.appendEvent("s1", "stream", { jsonrpc: "2.0", method: "b" });
 * const after = await store.eventsAfter(first);
 * assert.deepEqual(after?.events.map((e) => e.message.method), ["b"]);
 * await store.deleteSession("s1");
 * assert.equal(await store.eventsAfter(first), undefined);
 * await store.close();
 * ```
 */
export class MemoryStateStore implements StateStore {
  /** `memory`. */
  readonly description: string = "memory";
  /** The limits it keeps. */
  readonly limits: StateLimits;
  readonly #now: () => number;
  readonly #sessions = new Map<string, Live>();
  /** The ids of each principal's sessions. */
  readonly #owned = new Map<string, Set<string>>();
  /** Every kept event, oldest first (id → event). */
  readonly #events = new Map<string, Stored>();
  #totalBytes = 0;
  #sequence = 0;
  readonly #counters = new Map<string, { window: number; count: number }>();
  readonly #timer: ReturnType<typeof setInterval>;
  #closed = false;

  /**
   * Creates the store.
   *
   * @param limits Some limits (the rest from `DEFAULT_STATE_LIMITS`).
   * @param options The clock.
   * @throws {StateStoreError} `bad_option` for a malformed limit.
   */
  constructor(limits: Partial<StateLimits> = {}, options: MemoryStateStoreOptions = {}) {
    this.limits = stateLimits(limits);
    this.#now = options.now ?? Date.now;
    this.#timer = setInterval(
      () => this.#sweep(),
      Math.min(this.limits.sessionIdleMs, SWEEP_MAX_MS),
    );
    Deno.unrefTimer(this.#timer);
  }

  /** Runs `fn` while the store is open; a closed store rejects with `closed`. */
  #run<T>(fn: () => T): Promise<T> {
    if (this.#closed) {
      return Promise.reject(
        new StateStoreError("closed", "the memory state store was closed; create a new one"),
      );
    }
    try {
      return Promise.resolve(fn());
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The live session, dropping it when it has expired. */
  #live(id: string): Live | undefined {
    const live = this.#sessions.get(id);
    if (live === undefined) return undefined;
    if (this.#now() - live.lastUsed >= this.limits.sessionIdleMs) {
      this.#forget(id);
      return undefined;
    }
    return live;
  }

  #forget(id: string): void {
    const live = this.#sessions.get(id);
    if (live === undefined) return;
    this.#sessions.delete(id);
    const owned = this.#owned.get(live.record.principal);
    owned?.delete(id);
    if (owned?.size === 0) this.#owned.delete(live.record.principal);
    for (const [eventId, event] of live.events) {
      this.#events.delete(eventId);
      this.#totalBytes -= event.bytes;
    }
  }

  #dropEvent(eventId: string): void {
    const event = this.#events.get(eventId);
    if (event === undefined) return;
    this.#events.delete(eventId);
    this.#totalBytes -= event.bytes;
    const live = this.#sessions.get(event.sessionId);
    if (live !== undefined && live.events.delete(eventId)) live.bytes -= event.bytes;
  }

  #sweep(): void {
    for (const id of [...this.#sessions.keys()]) this.#live(id);
    const now = this.#now();
    for (const [key, counter] of this.#counters) {
      const windowMs = Number(key.slice(0, key.indexOf("\0")));
      if (counter.window !== Math.floor(now / windowMs)) this.#counters.delete(key);
    }
  }

  /** Records a new session unless its principal already holds its quota of live sessions. */
  createSession(record: SessionRecord): Promise<SessionRecord | SessionRefusal> {
    return this.#run(() => {
      if (this.#countSync(record.principal) >= this.limits.sessionsPerPrincipal) return "quota";
      this.#forget(record.id);
      this.#sessions.set(record.id, {
        record: { ...record, initialize: structuredClone(record.initialize) },
        lastUsed: this.#now(),
        events: new Map(),
        bytes: 0,
      });
      const owned = this.#owned.get(record.principal) ?? new Set();
      this.#owned.set(record.principal, owned.add(record.id));
      return record;
    });
  }

  /** The live session (restarting its idle time), or `undefined`. */
  touchSession(id: string): Promise<SessionRecord | undefined> {
    return this.#run(() => {
      const live = this.#live(id);
      if (live === undefined) return undefined;
      live.lastUsed = this.#now();
      // Its initialize message is copied when read (a session rebuilt), not on every use.
      const record = live.record;
      return {
        ...record,
        get initialize() {
          return structuredClone(record.initialize);
        },
      };
    });
  }

  /** Forgets a session and all its events. */
  deleteSession(id: string): Promise<void> {
    return this.#run(() => this.#forget(id));
  }

  #countSync(principal: string): number {
    let count = 0;
    for (const id of [...(this.#owned.get(principal) ?? [])]) {
      if (this.#live(id) !== undefined) count++;
    }
    return count;
  }

  /** How many live sessions a principal holds. */
  countSessions(principal: string): Promise<number> {
    return this.#run(() => this.#countSync(principal));
  }

  /** Stores an event (dropping the oldest beyond the limits); returns its id. */
  appendEvent(
    sessionId: string,
    streamId: string,
    message: StoredMessage,
    json?: string,
  ): Promise<string> {
    return this.#run(() => {
      const id = [sessionId, streamId, (this.#sequence++).toString(36).padStart(10, "0")]
        .join(SEP);
      const live = this.#live(sessionId);
      if (live === undefined) return id;
      const text = json ?? JSON.stringify(message);
      const bytes = utf8Length(text);
      if (bytes > this.limits.eventBytesPerSession) return id;
      const event: Stored = { sessionId, streamId, json: text, bytes };
      live.events.set(id, event);
      live.bytes += bytes;
      this.#events.set(id, event);
      this.#totalBytes += bytes;
      while (live.bytes > this.limits.eventBytesPerSession) {
        this.#dropEvent(live.events.keys().next().value!);
      }
      while (this.#totalBytes > this.limits.eventBytesTotal) {
        this.#dropEvent(this.#events.keys().next().value!);
      }
      return id;
    });
  }

  /** The stream of an event and the events of that stream after it, or `undefined`. */
  eventsAfter(
    eventId: string,
  ): Promise<{ sessionId: string; streamId: string; events: StoredEvent[] } | undefined> {
    return this.#run(() => {
      const found = this.#events.get(eventId);
      if (found === undefined || this.#live(found.sessionId) === undefined) return undefined;
      const events: StoredEvent[] = [];
      let after = false;
      for (const [id, event] of this.#sessions.get(found.sessionId)!.events) {
        if (after && event.streamId === found.streamId) {
          events.push({ id, message: JSON.parse(event.json) });
        }
        if (id === eventId) after = true;
      }
      return { sessionId: found.sessionId, streamId: found.streamId, events };
    });
  }

  /** Counts one request of `principal` in the current window; returns the count so far. */
  hit(principal: string, windowMs: number): Promise<number> {
    return this.#run(() => {
      const window = Math.floor(this.#now() / windowMs);
      const key = `${windowMs}\0${principal}`;
      const counter = this.#counters.get(key);
      if (counter === undefined || counter.window !== window) {
        this.#counters.set(key, { window, count: 1 });
        return 1;
      }
      return ++counter.count;
    });
  }

  /** Resolves while the store is open. */
  ping(): Promise<void> {
    return this.#run(() => {});
  }

  /** Forgets everything and stops the sweep timer. */
  close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    this.#sessions.clear();
    this.#owned.clear();
    this.#events.clear();
    this.#counters.clear();
    this.#totalBytes = 0;
    return Promise.resolve();
  }
}
