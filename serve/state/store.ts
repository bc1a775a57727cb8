/**
 * The state `serve --http` shares between its instances: sessions (who owns
 * each, what it was initialized with, when it was last used), the events of
 * their resumable streams, and per-principal counters (the session quota and
 * the request rate). One small interface with two implementations: memory
 * (one instance, the default) and Redis (`--state redis://HOST:PORT`, any
 * number of instances behind a load balancer).
 *
 * Everything here is bounded: a session expires after `idleMs` without use,
 * the events of one session and of all sessions are capped in bytes (oldest
 * dropped first), and everything a session owns is forgotten when it is
 * deleted, closed or expires. In-flight work (a call being run) stays with
 * the instance that runs it and is not shared.
 *
 * @module
 */

import { StateStoreError } from "./errors.ts";

/** A JSON-RPC message as stored (the SDK's `JSONRPCMessage`, kept structural). */
export type StoredMessage = Record<string, unknown>;

/** What a session is, as every instance sees it. */
export interface SessionRecord {
  /** The session id (`Mcp-Session-Id`), random and unguessable. */
  readonly id: string;
  /** The principal that opened it: only it may use or delete the session. */
  readonly principal: string;
  /**
   * The client's `initialize` request (the JSON-RPC message as received),
   * from which another instance rebuilds the session.
   */
  readonly initialize: StoredMessage;
  /** When it was created (ms since the epoch). */
  readonly createdAt: number;
}

/** Why a session could not be created. */
export type SessionRefusal = "quota";

/** One stored event of a resumable stream. */
export interface StoredEvent {
  /** The event id (`id:` of the SSE event; `Last-Event-ID` on resume). */
  readonly id: string;
  /** The message. */
  readonly message: StoredMessage;
}

/** The limits a store keeps. */
export interface StateLimits {
  /** Sessions one principal may hold at once. */
  readonly sessionsPerPrincipal: number;
  /** A session not used for this long expires (ms). */
  readonly sessionIdleMs: number;
  /** Bytes of events kept per session (serialized JSON), oldest dropped first. */
  readonly eventBytesPerSession: number;
  /** Bytes of events kept over all sessions, oldest dropped first. */
  readonly eventBytesTotal: number;
}

/**
 * The default limits: 100 sessions per principal, 15 minutes idle, 16 MiB of
 * events per session and 256 MiB over all sessions.
 */
export const DEFAULT_STATE_LIMITS: StateLimits = Object.freeze({
  sessionsPerPrincipal: 100,
  sessionIdleMs: 15 * 60_000,
  eventBytesPerSession: 16 * 1024 * 1024,
  eventBytesTotal: 256 * 1024 * 1024,
});

/**
 * The limits with defaults filled in, checked: every one a positive whole
 * number, and the per-session event bytes at most the total.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stateLimits } from "@toolfoundation/core/serve";
 *
 * const limits = stateLimits({ sessionsPerPrincipal: 4 });
 * assert.equal(limits.sessionsPerPrincipal, 4);
 * assert.equal(limits.sessionIdleMs, 15 * 60_000);
 * assert.throws(() => stateLimits({ sessionIdleMs: 0 }), /sessionIdleMs/);
 * ```
 *
 * @param limits Some limits (the rest from {@linkcode DEFAULT_STATE_LIMITS}).
 * @returns Every limit.
 * @throws {StateStoreError} `bad_option` for a limit that is not a positive whole number.
 */
export function stateLimits(limits: Partial<StateLimits> = {}): StateLimits {
  const out = { ...DEFAULT_STATE_LIMITS, ...limits };
  for (const [name, value] of Object.entries(out)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new StateStoreError(
        "bad_option",
        `state limit ${name} must be a positive whole number, got ${JSON.stringify(value)}`,
      );
    }
  }
  if (out.eventBytesPerSession > out.eventBytesTotal) {
    throw new StateStoreError(
      "bad_option",
      `state limit eventBytesPerSession (${out.eventBytesPerSession}) is above eventBytesTotal ` +
        `(${out.eventBytesTotal}); lower it or raise the total`,
    );
  }
  return Object.freeze(out);
}

/** The shared state of `serve --http`. Every method may reject with a `StateStoreError`. */
export interface StateStore {
  /** What the store is, for messages (e.g. `memory`, `redis://127.0.0.1:6379`). */
  readonly description: string;
  /** The limits it keeps. */
  readonly limits: StateLimits;

  /**
   * Records a new session unless its principal already holds
   * `limits.sessionsPerPrincipal` live sessions (atomic across instances).
   */
  createSession(record: SessionRecord): Promise<SessionRecord | SessionRefusal>;
  /**
   * The session, when it exists and has not expired; using it (this call)
   * restarts its idle time.
   */
  touchSession(id: string): Promise<SessionRecord | undefined>;
  /** Forgets a session and all its events (DELETE, close). Unknown ids are ignored. */
  deleteSession(id: string): Promise<void>;
  /** How many live sessions a principal holds. */
  countSessions(principal: string): Promise<number>;

  /**
   * Stores an event of a session's stream; returns its id (which encodes
   * session and stream). An event of an unknown (deleted, expired) session,
   * or one larger than `limits.eventBytesPerSession`, is not kept (the id is
   * still returned; resuming after it finds nothing). `json`, when given, is
   * the message already serialised (as it went on the wire): the store keeps
   * it instead of serialising the message again.
   */
  appendEvent(
    sessionId: string,
    streamId: string,
    message: StoredMessage,
    json?: string,
  ): Promise<string>;
  /**
   * The stream an event id belongs to and the events of that stream after it,
   * or `undefined` when the event is unknown (expired, dropped or forgotten).
   */
  eventsAfter(
    eventId: string,
  ): Promise<{ sessionId: string; streamId: string; events: StoredEvent[] } | undefined>;

  /**
   * Counts one request of `principal` in the current fixed window of
   * `windowMs` and returns the count so far in that window (atomic across
   * instances).
   */
  hit(principal: string, windowMs: number): Promise<number>;

  /** Checks the store answers (used at start and after a failure). */
  ping(): Promise<void>;
  /** Releases connections and timers. */
  close(): Promise<void>;
}
