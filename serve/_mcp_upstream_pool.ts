// Private: the connection pool of one upstream MCP server (see
// mcp_upstream.ts): connections opened on demand up to a cap, requests in
// flight shared fairly between callers, a few connections kept open, a dead
// one replaced; for a server of both eras, 2025 connections pooled apart.
// A connection carries one request at a time, except a stdio server's
// connection for clients that offer none of sampling, elicitation or roots:
// it carries several at once (JSON-RPC IDs tell their answers apart), and a
// new process starts only when every open one carries its most. A request
// that needs a connection of its own while every connection is shared and
// busy drains one: no new request joins it, and once its requests end it is
// closed for the waiting one (a stream of shared calls never starves it).

import type { McpListedTool, McpServerConfig, McpToolListing } from "../run/mod.ts";
import {
  closeConnection,
  type Connection,
  type EraVerdict,
  type Opening,
  stderrHint,
} from "../run/mcp/connection.ts";
import { type ConnectionListing, listConnectionTools, listToolsOver } from "../run/mcp/listing.ts";
import { ServeError } from "./errors.ts";
import { listTools } from "./_mcp_upstream_list.ts";
import {
  LEGACY,
  LEGACY_PROBE_TIMEOUT_MS,
  speaksBothEras,
  unionOf,
  viaLegacy,
} from "./_mcp_upstream_eras.ts";
import type { McpUpstreamOptions } from "./_mcp_upstream_options.ts";
import { sendOnSlot } from "./_mcp_upstream_send.ts";
import { callWithHeaders, ToolHeaderScans } from "./_mcp_upstream_headers.ts";
import { announcedLists, type ListKind, watchLists } from "./_mcp_upstream_watch.ts";
import {
  capabilityKey,
  type DirectTally,
  mirroredCapabilities,
  openSlot,
  type Slot,
} from "./_upstream_connect.ts";
import { upstreamFailure } from "./_upstream_errors.ts";
import { ConnectionShares, shareLimits } from "./_upstream_share.ts";
import type {
  Upstream,
  UpstreamCallContext,
  UpstreamCapabilities,
  UpstreamMethod,
} from "./upstream.ts";

/** Connections to a stdio server at most by default (each one is a process). */
const DEFAULT_STDIO_CONNECTIONS = 4;
/** Requests one shared stdio connection carries at once by default. */
const DEFAULT_STDIO_REQUESTS = 16;

/**
 * How long idle connections beyond `maxIdleConnections` stay open: under
 * steady load a call finds one free instead of opening (initialize, a
 * listening stream) and closing a connection of its own.
 */
const IDLE_GRACE_MS = 5_000;

/** The caller of requests that name none (a library caller). */
const ANONYMOUS = "";
/** The caller of `capabilities()` and `listTools()`, which serve no downstream request. */
const SELF = "\0serve";
/**
 * What a connection opened for no downstream request declares it offers:
 * nothing (no client is there to answer); a client that offers nothing
 * either is then served over it.
 */
const NOTHING: Readonly<Record<string, unknown>> = {};
/** The key of a connection that declared no client capability (see {@linkcode capabilityKey}). */
const SHARED_KEY = capabilityKey({});
/** What a checkout's wait ends with when a new connection is to be opened. */
const ROOM_MADE: unique symbol = Symbol("room made");

/**
 * The names of the tools a 2025 connection lists; undefined when the list
 * cannot be read (garbage, an error, past the probe's deadline): calls are
 * then routed by the client's era alone.
 */
async function legacyToolNames(
  name: string,
  slot: Slot,
  probe: AbortSignal,
  signal: AbortSignal | undefined,
): Promise<ReadonlySet<string> | undefined> {
  try {
    const tools = await listTools(
      name,
      slot.connection!,
      signal === undefined ? probe : AbortSignal.any([signal, probe]),
      LEGACY_PROBE_TIMEOUT_MS,
    );
    const names = tools.map((t) => (t as { name?: unknown })?.name);
    return names.every((n) => typeof n === "string") ? new Set(names as string[]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The runner's error a connect failure wraps (it names the server and says
 * why, as `run` reports it), else the error itself.
 */
function runErrorOf(error: unknown): unknown {
  const cause = (error as { cause?: unknown })?.cause;
  return error instanceof ServeError && error.code === "upstream_unavailable" &&
      typeof (cause as { code?: unknown })?.code === "string"
    ? cause
    : error;
}

/** An upstream MCP server reached through a pool of the runner's connections. */
export class McpUpstream implements Upstream {
  readonly name: string;
  readonly #config: McpServerConfig;
  /** Requests in flight that each need a connection of their own. */
  readonly #shares: ConnectionShares;
  /** Requests in flight on shared connections (a connection's worth of shares each). */
  readonly #sharedShares: ConnectionShares;
  /** Connections open at most (a stdio server's processes). */
  readonly #maxConnections: number;
  /** Requests a shared connection carries at once (1: none is shared). */
  readonly #perConnection: number;
  /** Requests waiting for a connection to be freed (the pool is at its cap). */
  readonly #freedWaiters = new Set<() => void>();
  /**
   * Shared connections no new request joins: each is drained for a request
   * that needs a connection of its own and waits (one per such request).
   */
  readonly #draining = new Set<Slot>();
  /** Requests needing a connection of their own that wait while every connection is in use. */
  #drainWaiters = 0;
  readonly #maxIdle: number;
  readonly #connectTimeoutMs: number;
  readonly #checkTools: McpUpstreamOptions["checkTools"];
  readonly #onLogDropped: McpUpstreamOptions["onLogDropped"];
  /** What the direct path did on this pool's connections (see {@linkcode direct}). */
  readonly #direct: DirectTally = { posted: 0, handedBack: 0 };
  /** Log lines dropped (see {@linkcode McpUpstreamOptions.onLogDropped}). */
  #logDropped = 0;
  /** Tools `checkTools` refused, by name on the server, with their error. */
  readonly #refused = new Map<string, Error>();
  /** The tools' `x-mcp-header` declarations from the last listing (the lock check's, a retry's). */
  readonly #headerScans = new ToolHeaderScans();
  readonly #slots: Slot[] = [];
  readonly #openings = new Set<Opening>();
  /** Every connection not yet gone (its process group included). */
  readonly #live = new Set<Connection>();
  /** The era an `auto` server was found to speak: later connections are not probed. */
  #verdict: EraVerdict | undefined;
  #capabilities?: UpstreamCapabilities;
  /**
   * An `auto` server found to speak 2026-07-28: what it offers over a 2025
   * connection too (`{}` when it speaks only 2026-07-28), so that what only
   * that era has (subscriptions, or a capability its discovery does not
   * declare) is still forwarded. Undefined until asked, and for other servers.
   */
  #legacyCapabilities?: UpstreamCapabilities;
  /**
   * The tools a server of both eras lists over a 2025 connection (undefined
   * while not known, or when that list could not be read): a 2025-era
   * client's call of a tool only its 2026-07-28 side lists goes there.
   */
  #legacyTools?: ReadonlySet<string>;
  /** Aborted by close(): ends every watch of the lists. */
  readonly #closing = new AbortController();
  /** Closes idle connections beyond `maxIdleConnections` (see {@linkcode IDLE_GRACE_MS}). */
  #trim: ReturnType<typeof setTimeout> | undefined;

  constructor(name: string, config: McpServerConfig, options: McpUpstreamOptions) {
    this.name = name;
    this.#config = config;
    // A stdio connection is a process of its own: fewer by default, all kept
    // when idle, so a burst of calls does not start and stop processes.
    const stdio = config.transport === "stdio";
    const limits = shareLimits(name, {
      ...options,
      maxConnections: options.maxConnections ?? (stdio ? DEFAULT_STDIO_CONNECTIONS : 16),
    });
    const per = stdio ? options.maxRequestsPerConnection ?? DEFAULT_STDIO_REQUESTS : 1;
    if (!Number.isInteger(per) || per < 1) {
      throw new RangeError(
        `upstream server ${
          JSON.stringify(name)
        }: maxRequestsPerConnection must be an integer of at least 1; got ${String(per)}`,
      );
    }
    this.#maxConnections = limits.max;
    this.#perConnection = per;
    this.#shares = new ConnectionShares(limits);
    this.#sharedShares = new ConnectionShares({
      max: limits.max * per,
      share: limits.share * per,
      reserve: limits.reserve * per,
    });
    this.#maxIdle = Math.min(
      limits.max,
      Math.max(0, options.maxIdleConnections ?? (stdio ? limits.max : 4)),
    );
    this.#connectTimeoutMs = options.connectTimeoutMs ?? 30_000;
    this.#checkTools = options.checkTools;
    this.#onLogDropped = options.onLogDropped;
  }

  /** The tool calls the direct path of an HTTP upstream posted, and handed to the SDK's client. */
  get direct(): DirectTally {
    return { ...this.#direct };
  }

  /**
   * Requests waiting for a connection of their own while every connection
   * is in use, and the shared connections drained for them (diagnostics;
   * both 0 once no such request waits).
   */
  get drains(): { waiting: number; drained: number } {
    return { waiting: this.#drainWaiters, drained: this.#draining.size };
  }

  async capabilities(signal?: AbortSignal): Promise<UpstreamCapabilities> {
    if (this.#capabilities === undefined) {
      const shares = this.#sharesFor(NOTHING);
      await shares.acquire(SELF, signal);
      let slot: Slot;
      try {
        slot = await this.#checkout(signal, NOTHING);
      } catch (error) {
        shares.release(SELF);
        throw error;
      }
      this.#release(slot, SELF);
    }
    const modern = this.#capabilities ?? {};
    if (!this.#bothEras()) return modern;
    if (this.#legacyCapabilities === undefined) {
      await this.#shares.acquire(SELF, signal);
      try {
        // A server of 2026-07-28 only may never answer `initialize`.
        const probe = AbortSignal.timeout(LEGACY_PROBE_TIMEOUT_MS);
        const legacy = await this.#checkout(
          signal === undefined ? probe : AbortSignal.any([signal, probe]),
          undefined,
          true,
        );
        const capabilities = (legacy.connection!.client.getServerCapabilities() ??
          {}) as UpstreamCapabilities;
        try {
          if (capabilities.tools !== undefined) {
            this.#legacyTools = await legacyToolNames(this.name, legacy, probe, signal);
          }
        } finally {
          this.#legacyCapabilities = capabilities;
          this.#release(legacy, SELF);
        }
      } catch {
        // It speaks only 2026-07-28.
        this.#legacyCapabilities = {};
        this.#shares.release(SELF);
      }
    }
    return unionOf(modern, this.#legacyCapabilities);
  }

  /** The shares a request of a client offering `downstream` takes (see {@linkcode #checkout}). */
  #sharesFor(downstream: Readonly<Record<string, unknown>> | undefined): ConnectionShares {
    return this.#perConnection > 1 && Object.keys(mirroredCapabilities(downstream)).length === 0
      ? this.#sharedShares
      : this.#shares;
  }

  /** Whether this is an `auto` server that was found to speak 2026-07-28 (and may speak 2025). */
  #bothEras(): boolean {
    return speaksBothEras(this.#config, this.#verdict);
  }

  async request(
    method: UpstreamMethod,
    params: Record<string, unknown>,
    context: UpstreamCallContext,
  ): Promise<Record<string, unknown>> {
    const started = performance.now();
    const caller = context.caller ?? ANONYMOUS;
    const limit = context.timeoutMs;
    // Waiting for a connection counts against the request's deadline.
    const deadline = limit === undefined ? undefined : AbortSignal.timeout(limit);
    const waitSignal = deadline === undefined
      ? context.signal
      : context.signal === undefined
      ? deadline
      : AbortSignal.any([context.signal, deadline]);
    const shares = this.#sharesFor(context.clientCapabilities);
    try {
      await shares.acquire(caller, waitSignal);
    } catch (error) {
      if (deadline?.aborted && !context.signal?.aborted) {
        throw new ServeError(
          "upstream_unavailable",
          `upstream server ${
            JSON.stringify(this.name)
          }: no connection was free within the request's deadline of ${limit} ms (${shares.limits.max} in use; raise maxConnections)`,
          { cause: error },
        );
      }
      throw error;
    }
    let slot: Slot;
    // Whether the deadline came while every connection was in use (not while one opened).
    let full = false;
    try {
      slot = await this.#checkout(
        waitSignal,
        context.clientCapabilities,
        this.#bothEras() &&
          viaLegacy(
            method,
            params,
            context.clientEra,
            this.#capabilities,
            this.#legacyCapabilities,
            this.#legacyTools,
          ),
        undefined,
        () => full = true,
      );
    } catch (error) {
      shares.release(caller);
      if (deadline?.aborted && !context.signal?.aborted) {
        throw new ServeError(
          "upstream_unavailable",
          `upstream server ${JSON.stringify(this.name)}: ${
            full
              ? `no connection was free within the request's deadline of ${limit} ms (all ${this.#maxConnections} in use; raise maxConnections)`
              : `the request's deadline of ${limit} ms passed while its connection opened`
          }`,
          { cause: error },
        );
      }
      throw error;
    }
    const refusal = method === "tools/call" ? this.#refused.get(String(params.name)) : undefined;
    if (refusal !== undefined) {
      this.#release(slot, caller);
      throw refusal;
    }
    try {
      return method === "tools/call"
        ? await callWithHeaders(
          this.name,
          slot,
          params,
          context,
          started,
          this.#headerScans,
          this.#config,
        )
        : await sendOnSlot(
          this.name,
          slot,
          method,
          params,
          context,
          started,
          undefined,
          this.#config,
        );
    } finally {
      this.#release(slot, caller);
    }
  }

  /**
   * Lists the server's tools for a runner over the pool's connection (the
   * first one the pool opens, kept for the calls): the server is not started
   * once more for the listing. Errors and deadlines are the runner's own (a
   * start failure, a connect or list timeout naming the phase).
   */
  async listTools(signal: AbortSignal | undefined, timeoutMs: number): Promise<McpToolListing> {
    let slot: Slot | undefined;
    const deadline = {
      signal,
      timeoutMs,
      started: performance.now(),
      hint: () => stderrHint([...this.#openings].at(-1)?.stdio),
    };
    const listing = await listToolsOver(
      this.name,
      async (open) => {
        const shares = this.#sharesFor(NOTHING);
        await shares.acquire(SELF, open);
        // A new connection checked against the lock is listed once, for both.
        let listing: ConnectionListing | undefined;
        const list = async (connection: Connection) =>
          (listing = await listConnectionTools(this.name, connection, deadline)).all;
        try {
          slot = await this.#checkout(open, NOTHING, false, list);
        } catch (error) {
          shares.release(SELF);
          throw runErrorOf(error);
        }
        return { connection: slot.connection!, ...(listing === undefined ? {} : { listing }) };
      },
      () => this.#release(slot!, SELF),
      deadline,
    );
    return { tools: listing.tools, excluded: listing.excluded };
  }

  async watchLists(onChange: (kind: ListKind) => void, signal: AbortSignal): Promise<void> {
    let capabilities: UpstreamCapabilities;
    try {
      capabilities = await this.capabilities(signal);
    } catch {
      return;
    }
    await watchLists(
      {
        name: this.name,
        config: this.#config,
        connectTimeoutMs: this.#connectTimeoutMs,
        verdict: this.#verdict,
        live: this.#live,
        openings: this.#openings,
      },
      announcedLists(capabilities),
      onChange,
      AbortSignal.any([signal, this.#closing.signal]),
    );
  }

  async close(): Promise<void> {
    clearTimeout(this.#trim);
    const reason = new ServeError(
      "upstream_unavailable",
      `upstream server ${JSON.stringify(this.name)} was closed`,
    );
    this.#closing.abort(reason);
    const openings = [...this.#openings];
    for (const opening of openings) opening.abort.abort(reason);
    // A request waiting for a connection would open a new one after close().
    this.#shares.rejectAll(reason);
    this.#sharedShares.rejectAll(reason);
    this.#notifyFreed();
    this.#slots.splice(0);
    await Promise.all([
      ...openings.map((opening) => opening.promise.catch(() => undefined)),
      ...[...this.#live].map(closeConnection),
    ]);
  }

  /**
   * A connection with room for one more request that declared the client
   * capabilities mirrored from `downstream`, for a request holding a share:
   * an open one (the busiest with room; one that is opening is waited for), or a
   * new one, closing an idle connection of other capabilities when the pool
   * is full, else waiting for one to be freed (a request that needs a
   * connection of its own drains a shared one meanwhile, see
   * {@linkcode #drainOne}). A new one's tools are checked
   * (when there is a check), listed by `list` when given. `onFull` is told
   * when a wait for a freed connection ends in the signal's abort.
   */
  async #checkout(
    signal?: AbortSignal,
    downstream?: Readonly<Record<string, unknown>>,
    legacy = false,
    list?: (connection: Connection) => Promise<McpListedTool[]>,
    onFull?: () => void,
  ): Promise<Slot> {
    signal?.throwIfAborted();
    const capabilities = mirroredCapabilities(downstream);
    // A 2025 connection to a server of both eras is pooled apart.
    const key = capabilityKey(capabilities) + (legacy ? "\0legacy" : "");
    // The server may ask a client that offers something: its requests go to
    // the one downstream request the connection serves, so it is not shared.
    const room = Object.keys(capabilities).length === 0 ? this.#perConnection : 1;
    // Only such a request drains a shared connection, and takes one drained.
    const own = room === 1 && this.#perConnection > 1;
    // Whether this request counts among those a connection is drained for.
    let drains = false;
    let taken: Slot | typeof ROOM_MADE;
    try {
      while (true) {
        if (this.#closing.signal.aborted) throw this.#closing.signal.reason;
        const found = this.#take(key, room, own);
        if (found !== undefined) {
          taken = found;
          break;
        }
        if (own) {
          if (!drains) this.#drainWaiters++;
          drains = true;
          this.#drainOne();
        }
        try {
          await this.#freed(signal);
        } catch (error) {
          onFull?.();
          throw error;
        }
      }
    } finally {
      // However the wait ends (taken, room made, the signal's abort, the
      // pool closed), this request is no longer one a connection is drained
      // for: before the connection it takes or opens is awaited, and with no
      // await between the choice and the new slot (no other request sees the
      // pool in between).
      if (drains) this.#stopDraining();
    }
    if (taken !== ROOM_MADE) {
      if (taken.ready !== undefined) await this.#awaitReady(taken, signal);
      return taken;
    }
    const slot: Slot = {
      connection: undefined,
      busy: true,
      dead: false,
      context: undefined,
      key,
      users: 1,
      direct: this.#direct,
    };
    this.#slots.push(slot);
    // A shared connection outlives the request that opened it: only the
    // connect deadline and close() stop its opening.
    slot.ready = this.#open(slot, room > 1 ? undefined : signal, capabilities, legacy, list);
    slot.ready.catch(() => {});
    try {
      await this.#awaitReady(slot, signal);
    } catch (error) {
      // Its opening stops with this request: no other request may join it.
      if (room === 1) slot.dead = true;
      throw error;
    }
    return slot;
  }

  /**
   * Takes an open connection of `key` with room for one more request (the
   * busiest one not drained, the first opened of those as busy), or makes room for a new one (below the cap,
   * or an idle connection of other capabilities closed: `ROOM_MADE`), else
   * undefined (the request waits for one to be freed). `own`: the request
   * needs a connection of its own, and may close a drained one.
   */
  #take(key: string, room: number, own: boolean): Slot | typeof ROOM_MADE | undefined {
    for (let i = this.#slots.length - 1; i >= 0; i--) {
      const slot = this.#slots[i];
      if (slot.dead && !slot.users) this.#drop(slot);
    }
    // The busiest open one with room (one still opening only when none is
    // open): calls are packed onto as few processes as carry them, so a
    // process opened for a burst stays idle after it rather than taking every
    // other call (a stdio server woken for each of its lines spends more per
    // call than one that reads several at a time).
    let pick: Slot | undefined;
    for (const slot of this.#slots) {
      if (slot.dead || slot.key !== key || (slot.users ?? 0) >= room) continue;
      if (this.#draining.has(slot)) continue;
      if (pick === undefined || busier(slot, pick)) pick = slot;
    }
    if (pick !== undefined) {
      pick.users = (pick.users ?? 0) + 1;
      pick.busy = true;
      return pick;
    }
    if (this.#slots.length < this.#maxConnections) return ROOM_MADE;
    // Requests in flight hold fewer connections than the cap (this one holds
    // a share too), or one is freed soon: an idle connection of other
    // capabilities makes room.
    const idle = this.#slots.find((s) =>
      !s.users && s.ready === undefined && (own || !this.#draining.has(s))
    );
    if (idle === undefined) return undefined;
    this.#drop(idle);
    return ROOM_MADE;
  }

  /**
   * Whether requests share the slot's connection: it declared no client
   * capability (either era's: a 2025 connection's key only adds a suffix),
   * on a pool whose connections carry several requests.
   */
  #isShared(slot: Slot): boolean {
    return this.#perConnection > 1 && slot.key.startsWith(SHARED_KEY);
  }

  /**
   * Drains one more shared connection while fewer are drained than requests
   * wait for a connection of their own: the one carrying the fewest requests
   * (it is free soonest), the one opened first of those carrying as few.
   * None when no shared connection is open (the others each carry one
   * request and are free when it ends).
   */
  #drainOne(): void {
    if (this.#draining.size >= this.#drainWaiters) return;
    let pick: Slot | undefined;
    for (const slot of this.#slots) {
      if (slot.dead || this.#draining.has(slot) || !this.#isShared(slot)) continue;
      if (pick === undefined || (slot.users ?? 0) < (pick.users ?? 0)) pick = slot;
    }
    if (pick !== undefined) this.#draining.add(pick);
  }

  /** A request no longer waits for a connection of its own (false: it no longer drains). */
  #stopDraining(): false {
    this.#drainWaiters--;
    this.#undrainExtra();
    return false;
  }

  /** Lets shared requests join drained connections again beyond the requests waiting for one. */
  #undrainExtra(): void {
    if (this.#draining.size <= this.#drainWaiters) return;
    for (const slot of this.#draining) {
      if (this.#draining.size <= this.#drainWaiters) break;
      this.#draining.delete(slot);
    }
    this.#notifyFreed();
  }

  /** Opens and checks the connection of a new slot; a failure drops it. */
  async #open(
    slot: Slot,
    signal: AbortSignal | undefined,
    capabilities: Record<string, unknown>,
    legacy: boolean,
    list?: (connection: Connection) => Promise<McpListedTool[]>,
  ): Promise<void> {
    try {
      slot.connection = await openSlot(this.name, this.#config, slot, {
        timeoutMs: this.#connectTimeoutMs,
        signal,
        prior: legacy ? LEGACY : this.#verdict,
        onVerdict: (verdict) => {
          if (!legacy) this.#verdict = verdict;
        },
        live: this.#live,
        openings: this.#openings,
        capabilities,
        onLogDropped: () => this.#onLogDropped?.(++this.#logDropped),
      });
      if (!legacy) {
        this.#capabilities ??= (slot.connection.client.getServerCapabilities() ??
          {}) as UpstreamCapabilities;
      }
      if (this.#checkTools !== undefined) {
        const tools = list === undefined
          ? await listTools(this.name, slot.connection, signal, this.#connectTimeoutMs)
          : await list(slot.connection);
        if (!legacy) this.#headerScans.remember(tools);
        for (const [tool, error] of await this.#checkTools(tools, signal)) {
          this.#refused.set(tool, error);
        }
      }
      slot.ready = undefined;
    } catch (error) {
      slot.dead = true;
      this.#drop(slot);
      throw upstreamFailure(this.name, undefined, error);
    }
  }

  /**
   * Waits until the slot's connection is open (or the request's signal
   * aborts); on failure the request no longer holds the slot.
   */
  async #awaitReady(slot: Slot, signal: AbortSignal | undefined): Promise<void> {
    const ready = slot.ready;
    if (ready === undefined) return;
    try {
      if (signal === undefined) await ready;
      else {
        const aborted = Promise.withResolvers<never>();
        const onAbort = () => aborted.reject(signal.reason);
        signal.addEventListener("abort", onAbort, { once: true });
        try {
          await Promise.race([ready, aborted.promise]);
        } finally {
          signal.removeEventListener("abort", onAbort);
        }
      }
    } catch (error) {
      slot.users = (slot.users ?? 1) - 1;
      slot.busy = slot.users > 0;
      this.#notifyFreed();
      throw error;
    }
  }

  /** Settles when a connection is freed or dropped (or the signal aborts). */
  #freed(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.#freedWaiters.delete(done);
        reject(signal!.reason);
      };
      const done = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#freedWaiters.add(done);
    });
  }

  #notifyFreed(): void {
    const waiters = [...this.#freedWaiters];
    this.#freedWaiters.clear();
    for (const wake of waiters) wake();
  }

  /**
   * Ends a request's use of a connection: a dead one is closed at once (a
   * hung call's server is stopped when the call times out or is cancelled),
   * idle ones beyond `maxIdleConnections` after a grace period; then the caller's share goes
   * to who waits.
   */
  #release(slot: Slot, caller: string): void {
    slot.users = Math.max(0, (slot.users ?? 1) - 1);
    slot.busy = slot.users > 0;
    if (slot.users === 0) {
      if (slot.dead) this.#drop(slot);
      else {
        const idle = this.#slots.filter((s) => !s.users && s.ready === undefined);
        if (idle.length > this.#maxIdle) this.#trimLater();
      }
    }
    (this.#isShared(slot) ? this.#sharedShares : this.#shares).release(caller);
    this.#notifyFreed();
  }

  /** Closes the idle connections beyond `maxIdleConnections` in a while, if still idle then. */
  #trimLater(): void {
    if (this.#trim !== undefined) return;
    const timer = setTimeout(() => {
      this.#trim = undefined;
      const idle = this.#slots.filter((s) => !s.users && s.ready === undefined);
      for (const slot of idle.slice(0, Math.max(0, idle.length - this.#maxIdle))) this.#drop(slot);
    }, IDLE_GRACE_MS);
    Deno.unrefTimer(timer);
    this.#trim = timer;
  }

  /** Takes a connection out of the pool and closes it (not awaited: close() waits for it). */
  #drop(slot: Slot): void {
    this.#draining.delete(slot);
    const at = this.#slots.indexOf(slot);
    if (at >= 0) this.#slots.splice(at, 1);
    if (slot.connection !== undefined) void closeConnection(slot.connection);
    this.#notifyFreed();
  }
}

/** Whether `a` is the better pick than `b`: open where `b` still opens, else carrying more. */
function busier(a: Slot, b: Slot): boolean {
  if ((a.ready === undefined) !== (b.ready === undefined)) return a.ready === undefined;
  return (a.users ?? 0) > (b.users ?? 0);
}
