/**
 * The state of `serve --http` in Redis (`--state redis://HOST:PORT`), shared
 * by any number of instances behind a load balancer: a session opened on one
 * continues on another, a principal's session quota and request rate count
 * on all of them.
 *
 * Each operation is one Lua script run atomically by Redis (quota check and
 * creation, event append with its trimming, rate counting), with Redis's own
 * clock, so instances neither race nor disagree on time. Sessions expire by
 * key TTLs that every use restarts. Events are capped per session and in
 * total: the total is a counter of kept bytes and one sorted set of every
 * kept event, from which the oldest are dropped. One Redis server (or a
 * primary) is expected: the scripts touch keys of several sessions, which
 * Redis Cluster does not allow.
 *
 * The client (npm:@redis/client, node-redis) is loaded by
 * {@linkcode RedisStateStore.open} and not before: serve with the default
 * memory store never loads it.
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
import { RedisConnection } from "./_redis_connection.ts";
import * as scripts from "./_redis_scripts.ts";

/** Options of {@linkcode RedisStateStore.open}. */
export interface RedisStateStoreOptions {
  /** The limits (defaults: `DEFAULT_STATE_LIMITS`). */
  limits?: Partial<StateLimits>;
  /** Prefix of every key (default `toolfoundation:`): instances sharing state use the same. */
  keyPrefix?: string;
  /** How long {@linkcode RedisStateStore.ping} waits for a connection (ms, default 2000). */
  connectTimeoutMs?: number;
  /** How long a command waits for Redis's answer (ms, default 2000). */
  commandTimeoutMs?: number;
}

/** A `redis://HOST:PORT` address, parsed. */
export interface RedisAddress {
  /** The host name or IP address (IPv6 without brackets). */
  readonly hostname: string;
  /** The port (default 6379). */
  readonly port: number;
  /** `HOST:PORT` as `--allow-net` names it (IPv6 in brackets). */
  readonly net: string;
}

/**
 * Parses `redis://HOST[:PORT]`: a host and a port, nothing else (no user,
 * password, database or options).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseRedisUrl } from "@toolfoundation/core/serve";
 *
 * assert.deepEqual(parseRedisUrl("redis://127.0.0.1:6380"), {
 *   hostname: "127.0.0.1",
 *   port: 6380,
 *   net: "127.0.0.1:6380",
 * });
 * assert.equal(parseRedisUrl("redis://cache").port, 6379);
 * assert.throws(() => parseRedisUrl("redis://:secret@cache:6379"), /HOST:PORT/);
 * ```
 *
 * @param url The address.
 * @returns Host, port and the `--allow-net` value.
 * @throws {StateStoreError} `bad_option` for anything but `redis://HOST[:PORT]`.
 */
export function parseRedisUrl(url: string): RedisAddress {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (
    parsed === undefined || parsed.protocol !== "redis:" || parsed.hostname === "" ||
    parsed.username !== "" || parsed.password !== "" || !/^\/?$/.test(parsed.pathname) ||
    parsed.search !== "" || parsed.hash !== ""
  ) {
    throw new StateStoreError(
      "bad_option",
      `the state store must be redis://HOST:PORT (e.g. redis://127.0.0.1:6379), got ${
        JSON.stringify(url)
      }`,
    );
  }
  const port = parsed.port === "" ? 6379 : Number(parsed.port);
  const bracketed = parsed.hostname.startsWith("[");
  const hostname = bracketed ? parsed.hostname.slice(1, -1) : parsed.hostname;
  return { hostname, port, net: `${parsed.hostname}:${port}` };
}

/**
 * A {@linkcode StateStore} in Redis. Every method rejects with a
 * `StateStoreError`: `unavailable` while Redis cannot be reached (the
 * connection is made again in the background: the next call after Redis is
 * back succeeds), `closed` after {@linkcode RedisStateStore.close}.
 *
 * @example
 * ```ts ignore
 * import { RedisStateStore } from "@toolfoundation/core/serve";
 *
 * const store = await RedisStateStore.open("redis://127.0.0.1:6379", {
 *   limits: { sessionsPerPrincipal: 10 },
 * });
 * await store.ping(); // StateStoreError "unavailable" when nothing answers there
 * console.log(await store.hit("alice", 60_000));
 * await store.close();
 * ```
 */
export class RedisStateStore implements StateStore {
  /** `redis://HOST:PORT`. */
  readonly description: string;
  /** The limits it keeps. */
  readonly limits: StateLimits;
  readonly #redis: RedisConnection;
  readonly #prefix: string;
  /** SHA1 of each script Redis is known to hold (EVALSHA), by script. */
  readonly #shas = new Map<string, string>();

  private constructor(
    description: string,
    limits: StateLimits,
    redis: RedisConnection,
    prefix: string,
  ) {
    this.description = description;
    this.limits = limits;
    this.#redis = redis;
    this.#prefix = prefix;
  }

  /**
   * Loads the Redis client and starts connecting (in the background: call
   * {@linkcode RedisStateStore.ping} to wait for Redis).
   *
   * @param url `redis://HOST[:PORT]`.
   * @param options Limits, key prefix, timeouts.
   * @returns The store.
   * @throws {StateStoreError} `bad_option` for a malformed URL or limit,
   *   `unavailable` when the client package cannot be loaded.
   */
  static async open(url: string, options: RedisStateStoreOptions = {}): Promise<RedisStateStore> {
    const address = parseRedisUrl(url);
    const limits = stateLimits(options.limits);
    const prefix = options.keyPrefix ?? "toolfoundation:";
    const redis = await RedisConnection.open({
      hostname: address.hostname,
      port: address.port,
      connectTimeoutMs: options.connectTimeoutMs ?? 2000,
      commandTimeoutMs: options.commandTimeoutMs ?? 2000,
    });
    return new RedisStateStore(`redis://${address.net}`, limits, redis, prefix);
  }

  /** Records a session unless its principal holds its quota (atomic across instances). */
  async createSession(record: SessionRecord): Promise<SessionRecord | SessionRefusal> {
    const created = await this.#run(scripts.CREATE_SESSION, [
      this.#key("s:", record.id),
      this.#key("p:", record.principal),
    ], [
      JSON.stringify(record),
      record.principal,
      String(this.limits.sessionsPerPrincipal),
      String(this.limits.sessionIdleMs),
      record.id,
    ]);
    return created === 1 ? record : "quota";
  }

  /** The live session (its idle time restarted), or `undefined`. */
  async touchSession(id: string): Promise<SessionRecord | undefined> {
    const found = await this.#run(scripts.TOUCH_SESSION, this.#sessionKeys(id), [
      String(this.limits.sessionIdleMs),
      id,
      this.#prefix,
    ]);
    if (typeof found !== "string") return undefined;
    try {
      return JSON.parse(found) as SessionRecord;
    } catch (error) {
      throw this.#badData(`session ${JSON.stringify(id)}`, error);
    }
  }

  /** Forgets a session and its events. */
  async deleteSession(id: string): Promise<void> {
    await this.#run(scripts.DELETE_SESSION, [...this.#sessionKeys(id), ...this.#globalKeys()], [
      id,
      this.#prefix,
    ]);
  }

  /** The principal's live sessions. */
  async countSessions(principal: string): Promise<number> {
    return Number(await this.#run(scripts.COUNT_SESSIONS, [this.#key("p:", principal)], []));
  }

  /** Keeps an event (see {@linkcode StateStore.appendEvent}); returns its id. */
  async appendEvent(
    sessionId: string,
    streamId: string,
    message: StoredMessage,
    serialized?: string,
  ): Promise<string> {
    const json = serialized ?? JSON.stringify(message);
    const stream = encodeURIComponent(streamId);
    const seq = await this.#run(scripts.APPEND_EVENT, [
      ...this.#sessionKeys(sessionId),
      ...this.#globalKeys(),
      this.#key("g:seq", ""),
    ], [
      stream,
      json,
      String(new TextEncoder().encode(json).length),
      String(this.limits.eventBytesPerSession),
      String(this.limits.eventBytesTotal),
      sessionId,
      this.#prefix,
    ]);
    return `${seq}:${encodeURIComponent(sessionId)}:${stream}`;
  }

  /** The events of the event's stream after it, or `undefined` when it is not kept. */
  async eventsAfter(
    eventId: string,
  ): Promise<{ sessionId: string; streamId: string; events: StoredEvent[] } | undefined> {
    const parts = eventId.split(":");
    if (parts.length !== 3 || !/^[1-9][0-9]{0,15}$/.test(parts[0])) return undefined;
    let sessionId: string;
    let streamId: string;
    try {
      sessionId = decodeURIComponent(parts[1]);
      streamId = decodeURIComponent(parts[2]);
    } catch {
      return undefined;
    }
    const entries = await this.#redis.send(["LRANGE", this.#key("e:", sessionId), "0", "-1"]);
    if (!Array.isArray(entries)) throw this.#badData(`the events of ${sessionId}`, entries);
    const events: StoredEvent[] = [];
    let found = false;
    for (const entry of entries as string[]) {
      const bar1 = entry.indexOf("|");
      const bar2 = entry.indexOf("|", bar1 + 1);
      if (bar1 < 1 || bar2 < 0) throw this.#badData(`the events of ${sessionId}`, entry);
      const seq = entry.slice(0, bar1);
      if (entry.slice(bar1 + 1, bar2) !== parts[2]) continue;
      if (!found) {
        found = seq === parts[0];
        continue;
      }
      try {
        events.push({
          id: `${seq}:${parts[1]}:${parts[2]}`,
          message: JSON.parse(entry.slice(bar2 + 1)),
        });
      } catch (error) {
        throw this.#badData(`an event of ${sessionId}`, error);
      }
    }
    return found ? { sessionId, streamId, events } : undefined;
  }

  /** Counts a request in the principal's fixed window (atomic across instances). */
  async hit(principal: string, windowMs: number): Promise<number> {
    const key = this.#key(`r:${windowMs}:`, principal);
    return Number(await this.#run(scripts.HIT, [key], [String(windowMs)]));
  }

  /** Waits (up to the connect timeout) for Redis and checks it answers. */
  async ping(): Promise<void> {
    await this.#redis.ready();
    await this.#redis.send(["PING"]);
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    await this.#redis.close();
  }

  #key(kind: string, name: string): string {
    return `${this.#prefix}${kind}${name}`;
  }

  #sessionKeys(id: string): string[] {
    return [this.#key("s:", id), this.#key("e:", id), this.#key("eb:", id)];
  }

  #globalKeys(): string[] {
    return [this.#key("g:events", ""), this.#key("g:bytes", "")];
  }

  /** Runs a script by its SHA1, loading it once when Redis does not hold it (NOSCRIPT). */
  async #run(script: string, keys: string[], args: string[]): Promise<unknown> {
    const counts = [String(keys.length), ...keys, ...args];
    const sha = this.#shas.get(script);
    if (sha !== undefined) {
      try {
        return await this.#redis.send(["EVALSHA", sha, ...counts]);
      } catch (error) {
        if (!String((error as Error)?.message).startsWith("NOSCRIPT")) throw error;
      }
    }
    const loaded = await this.#redis.send(["SCRIPT", "LOAD", script]);
    this.#shas.set(script, String(loaded));
    return await this.#redis.send(["EVALSHA", String(loaded), ...counts]);
  }

  #badData(what: string, cause: unknown): StateStoreError {
    return new StateStoreError(
      "bad_data",
      `${this.description} holds ${what} in a form serve cannot read (under the key prefix ` +
        `${JSON.stringify(this.#prefix)}); delete those keys or choose another prefix`,
      { cause },
    );
  }
}
