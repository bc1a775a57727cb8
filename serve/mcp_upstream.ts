/**
 * An {@linkcode Upstream} that reaches its MCP server exactly as the runner
 * does: the runner's connections (stdio in its own process group with the
 * child environment policy, Streamable HTTP, SSE, the message cap
 * `maxOutputBytes`, the protocol era of `protocol`, OAuth through
 * `authProvider`, the server's stderr kept for error messages), in a pool
 * per server: a connection per request in flight, opened on demand up to a
 * cap, a few kept open for the next requests, replaced after a failure. A
 * connection serves one request at a time, so the upstream's progress,
 * logging and server-to-client requests (sampling, elicitation, roots) reach
 * exactly the downstream request that caused them. The cap is shared fairly
 * between downstream callers (see {@linkcode McpUpstreamOptions.callerShare}):
 * calls of one client that hang upstream cannot make another client's call
 * to the same server wait for their deadline.
 *
 * @module
 */

import type { McpListedTool, McpServerConfig } from "../run/mod.ts";
import {
  closeConnection,
  type Connection,
  type EraVerdict,
  NO_TIMEOUT,
  type Opening,
  watch,
} from "../run/mcp/connection.ts";
import { ServeError } from "./errors.ts";
import {
  capabilityKey,
  mirroredCapabilities,
  openSlot,
  type Slot,
  withoutServerInfo,
} from "./_upstream_connect.ts";
import { isUpstreamError, upstreamFailure } from "./_upstream_errors.ts";
import { ConnectionShares, shareLimits } from "./_upstream_share.ts";
import type {
  Upstream,
  UpstreamCallContext,
  UpstreamCapabilities,
  UpstreamMethod,
} from "./upstream.ts";

/** Options of {@linkcode mcpUpstream}. */
export interface McpUpstreamOptions {
  /**
   * Connections open at most (default 4 for a stdio server, where each is a
   * process, 16 otherwise): one per request in flight, opened on demand;
   * further requests wait for one within their deadline (their signal, or
   * `timeoutMs`).
   */
  maxConnections?: number;
  /**
   * Connections one downstream caller (the `caller` of the request: token
   * subject, static token name or address) holds before other callers'
   * requests go first (default a quarter of `maxConnections`, at least 1).
   * Callers holding their share wait while a caller under its share waits;
   * then the one holding the fewest goes first, and none of them takes one
   * of the last `reservedConnections`. Requests of one caller are served in
   * the order they came.
   */
  callerShare?: number;
  /**
   * Free connections a caller holding its share never takes, kept for other
   * callers (default `callerShare`, at most `maxConnections - callerShare`).
   * With the defaults, one caller holds at most 12 of 16 connections and a
   * newcomer finds one free at once (of a stdio server's 4: at most 3).
   */
  reservedConnections?: number;
  /**
   * Idle connections kept open for the next requests (default: all of a
   * stdio server's, 4 of others; at most `maxConnections`); others are closed
   * (a stdio server's process stops) when their request ends.
   */
  maxIdleConnections?: number;
  /** Deadline of connecting, in ms (default 30 000). */
  connectTimeoutMs?: number;
  /**
   * Checks what the server lists on every connection it opens (the first one
   * and each one after a crash, restart or failed request), e.g. against a
   * lock file: returns the tools to refuse from then on, by their name on the
   * server, with the error their calls fail with. A tool refused once stays
   * refused while the upstream lives. When it throws, the connection is not
   * used and the request fails with that error. Without it, nothing is
   * listed.
   */
  checkTools?: (
    tools: readonly McpListedTool[],
    signal: AbortSignal | undefined,
  ) => Promise<ReadonlyMap<string, Error>>;
}

/** Connections to a stdio server at most by default (each one is a process). */
const DEFAULT_STDIO_CONNECTIONS = 4;

/** The methods whose result may be input_required (2026-07-28). */
const INPUT_REQUIRED_CAPABLE: ReadonlySet<string> = new Set([
  "tools/call",
  "prompts/get",
  "resources/read",
]);

/** The caller of requests that name none (a library caller). */
const ANONYMOUS = "";
/** The caller of `capabilities()`, which serves no downstream request. */
const SELF = "\0serve";

/** The era verdict that makes a connection of an `auto` server speak 2025 without probing. */
const LEGACY: EraVerdict = { kind: "legacy" };

/** How long a server found to speak 2026-07-28 may take to answer a 2025 `initialize`. */
const LEGACY_PROBE_TIMEOUT_MS = 5000;

/** Methods the 2026-07-28 revision removed: sent to a server of both eras over a 2025 connection. */
const LEGACY_ONLY = new Set<UpstreamMethod>(["resources/subscribe", "resources/unsubscribe"]);

/** The capability a forwarded method needs of the server. */
function capabilityOf(method: UpstreamMethod): keyof UpstreamCapabilities {
  if (method === "completion/complete") return "completions";
  return method.slice(0, method.indexOf("/")) as keyof UpstreamCapabilities;
}

/**
 * What a server offers in either era: each capability from the 2026-07-28
 * discovery, else from the 2025 initialize (whose `resources.subscribe` is
 * kept: subscriptions go over a 2025 connection).
 */
function unionOf(
  modern: UpstreamCapabilities,
  legacy: UpstreamCapabilities,
): UpstreamCapabilities {
  const out: UpstreamCapabilities = { ...legacy, ...modern };
  if (legacy.resources?.subscribe === true) {
    out.resources = { ...out.resources, subscribe: true };
  }
  return out;
}

class McpUpstream implements Upstream {
  readonly name: string;
  readonly #config: McpServerConfig;
  readonly #shares: ConnectionShares;
  readonly #maxIdle: number;
  readonly #connectTimeoutMs: number;
  readonly #checkTools: McpUpstreamOptions["checkTools"];
  /** Tools `checkTools` refused, by name on the server, with their error. */
  readonly #refused = new Map<string, Error>();
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
    this.#shares = new ConnectionShares(limits);
    this.#maxIdle = Math.min(
      limits.max,
      Math.max(0, options.maxIdleConnections ?? (stdio ? limits.max : 4)),
    );
    this.#connectTimeoutMs = options.connectTimeoutMs ?? 30_000;
    this.#checkTools = options.checkTools;
  }

  async capabilities(signal?: AbortSignal): Promise<UpstreamCapabilities> {
    if (this.#capabilities === undefined) {
      await this.#shares.acquire(SELF, signal);
      let slot: Slot;
      try {
        slot = await this.#checkout(signal);
      } catch (error) {
        this.#shares.release(SELF);
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
        this.#legacyCapabilities = (legacy.connection!.client.getServerCapabilities() ??
          {}) as UpstreamCapabilities;
        this.#release(legacy, SELF);
      } catch {
        // It speaks only 2026-07-28.
        this.#legacyCapabilities = {};
        this.#shares.release(SELF);
      }
    }
    return unionOf(modern, this.#legacyCapabilities);
  }

  /** Whether this is an `auto` server that was found to speak 2026-07-28 (and may speak 2025). */
  #bothEras(): boolean {
    const protocol = this.#config.transport === "sse" ? "legacy" : this.#config.protocol ?? "auto";
    return protocol === "auto" && this.#verdict?.kind === "modern";
  }

  /**
   * Whether `method` goes over a 2025 connection of a server that speaks
   * both eras: for a 2025-era client, for a method 2026-07-28 removed, and
   * for a capability only the 2025 side offers.
   */
  #viaLegacy(method: UpstreamMethod, clientEra: "legacy" | "modern" | undefined): boolean {
    if (!this.#bothEras() || this.#legacyCapabilities === undefined) return false;
    const key = capabilityOf(method);
    if (this.#legacyCapabilities[key] === undefined) return false;
    return clientEra === "legacy" || LEGACY_ONLY.has(method) ||
      this.#capabilities?.[key] === undefined;
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
    try {
      await this.#shares.acquire(caller, waitSignal);
    } catch (error) {
      if (deadline?.aborted && !context.signal?.aborted) {
        throw new ServeError(
          "upstream_unavailable",
          `upstream server ${
            JSON.stringify(this.name)
          }: no connection was free within the request's deadline of ${limit} ms (${this.#shares.limits.max} in use; raise maxConnections)`,
          { cause: error },
        );
      }
      throw error;
    }
    let slot: Slot;
    try {
      slot = await this.#checkout(
        waitSignal,
        context.clientCapabilities,
        this.#viaLegacy(method, context.clientEra),
      );
    } catch (error) {
      this.#shares.release(caller);
      throw error;
    }
    const refusal = method === "tools/call" ? this.#refused.get(String(params.name)) : undefined;
    if (refusal !== undefined) {
      this.#release(slot, caller);
      throw refusal;
    }
    const connection = slot.connection!;
    slot.context = context;
    // Progress is taken off the transport by our token (none is lost when it
    // shares a chunk with the result) and handed on without the token.
    let token: string | undefined;
    let sent = params;
    const onProgress = context.onProgress;
    if (onProgress !== undefined) {
      token = `tf-${++connection.tokens}`;
      connection.progress.set(token, ({ progress, total, message }) =>
        onProgress({
          progress,
          ...(total === undefined ? {} : { total }),
          ...(message === undefined ? {} : { message }),
        }));
      sent = {
        ...params,
        _meta: { ...(params._meta as object | undefined), progressToken: token },
      };
    }
    // The caller's signal, or us (see below), cancel the request.
    const stop = new AbortController();
    const outer = context.signal;
    const onAbort = (): void => stop.abort(outer!.reason);
    if (outer?.aborted) stop.abort(outer.reason);
    else outer?.addEventListener("abort", onAbort, { once: true });
    try {
      const timeout = limit === undefined
        ? NO_TIMEOUT
        : Math.max(1, Math.ceil(limit - (performance.now() - started)));
      const request = connection.client.request(
        { method: method as "tools/call", params: sent },
        {
          signal: stop.signal,
          timeout,
          ...(context.returnInputRequired === true && INPUT_REQUIRED_CAPABLE.has(method)
            ? { allowInputRequired: true }
            : {}),
        },
      ) as Promise<Record<string, unknown>>;
      return withoutServerInfo(await watch(connection, request));
    } catch (error) {
      // Given up on by us (connection lost, message over the cap), not settled
      // by the SDK: tell the SDK (and the server) to drop the request.
      if (error === connection.lostError || isOversize(error)) stop.abort(error);
      if (isUpstreamError(error)) throw error;
      // A cancelled, timed out or failed request may still make the server
      // send progress or log lines, or it may never answer (a hung call): the
      // connection is closed and replaced, so that none reaches another
      // request. Only a message over the cap leaves it as it was.
      if (!isOversize(error)) slot.dead = true;
      throw upstreamFailure(this.name, connection, error);
    } finally {
      outer?.removeEventListener("abort", onAbort);
      if (token !== undefined) connection.progress.delete(token);
      slot.context = undefined;
      this.#release(slot, caller);
    }
  }

  async close(): Promise<void> {
    const openings = [...this.#openings];
    const reason = new ServeError(
      "upstream_unavailable",
      `upstream server ${JSON.stringify(this.name)} was closed`,
    );
    for (const opening of openings) opening.abort.abort(reason);
    // A request waiting for a connection would open a new one after close().
    this.#shares.rejectAll(reason);
    this.#slots.splice(0);
    await Promise.all([
      ...openings.map((opening) => opening.promise.catch(() => undefined)),
      ...[...this.#live].map(closeConnection),
    ]);
  }

  /**
   * A free connection that declared the client capabilities mirrored from
   * `downstream`, for a request holding a share (so there is room for it):
   * an idle one, or a new one (closing an idle connection of other
   * capabilities when the pool is full).
   */
  async #checkout(
    signal?: AbortSignal,
    downstream?: Readonly<Record<string, unknown>>,
    legacy = false,
  ): Promise<Slot> {
    signal?.throwIfAborted();
    const capabilities = mirroredCapabilities(downstream);
    // A 2025 connection to a server of both eras is pooled apart.
    const key = capabilityKey(capabilities) + (legacy ? "\0legacy" : "");
    for (let i = this.#slots.length - 1; i >= 0; i--) {
      const slot = this.#slots[i];
      if (slot.dead && !slot.busy) this.#drop(slot);
    }
    const free = this.#slots.find((s) => !s.busy && !s.dead && s.key === key);
    if (free !== undefined) {
      free.busy = true;
      return free;
    }
    if (this.#slots.length >= this.#shares.limits.max) {
      // Requests in flight hold fewer connections than the cap (this one holds
      // a share too): an idle connection of other capabilities makes room.
      const idle = this.#slots.find((s) => !s.busy);
      if (idle !== undefined) this.#drop(idle);
    }
    const slot: Slot = { connection: undefined, busy: true, dead: false, context: undefined, key };
    this.#slots.push(slot);
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
      });
      if (!legacy) {
        this.#capabilities ??= (slot.connection.client.getServerCapabilities() ??
          {}) as UpstreamCapabilities;
      }
      if (this.#checkTools !== undefined) {
        const tools = await listTools(this.name, slot.connection, signal, this.#connectTimeoutMs);
        for (const [tool, error] of await this.#checkTools(tools, signal)) {
          this.#refused.set(tool, error);
        }
      }
    } catch (error) {
      this.#drop(slot);
      throw upstreamFailure(this.name, undefined, error);
    }
    return slot;
  }

  /**
   * Ends a request's use of a connection: a dead one is closed at once (a
   * hung call's server is stopped when the call times out or is cancelled),
   * idle ones beyond `maxIdleConnections` too; then the caller's share goes
   * to who waits.
   */
  #release(slot: Slot, caller: string): void {
    slot.busy = false;
    if (slot.dead) this.#drop(slot);
    else {
      const idle = this.#slots.filter((s) => !s.busy);
      if (idle.length > this.#maxIdle) this.#drop(idle[0]);
    }
    this.#shares.release(caller);
  }

  /** Takes a connection out of the pool and closes it (not awaited: close() waits for it). */
  #drop(slot: Slot): void {
    const at = this.#slots.indexOf(slot);
    if (at >= 0) this.#slots.splice(at, 1);
    if (slot.connection !== undefined) void closeConnection(slot.connection);
  }
}

/** Every page of the connection's `tools/list`. */
async function listTools(
  name: string,
  connection: Connection,
  signal: AbortSignal | undefined,
  timeoutMs: number,
): Promise<McpListedTool[]> {
  const tools: McpListedTool[] = [];
  let cursor: string | undefined;
  do {
    const page = connection.client.request(
      { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
      { ...(signal === undefined ? {} : { signal }), timeout: timeoutMs },
    ) as Promise<{ tools?: unknown; nextCursor?: unknown }>;
    const result = await watch(connection, page);
    if (!Array.isArray(result.tools)) {
      throw new ServeError(
        "upstream_unavailable",
        `upstream server ${
          JSON.stringify(name)
        } sent a tools/list result without a tools array; its tools cannot be checked`,
      );
    }
    tools.push(...result.tools as McpListedTool[]);
    cursor = typeof result.nextCursor === "string" ? result.nextCursor : undefined;
  } while (cursor !== undefined);
  return tools;
}

function isOversize(error: unknown): boolean {
  return (error as { code?: unknown })?.code === "output_too_large";
}

/**
 * An upstream MCP server reached through the runner's connections (stdio,
 * Streamable HTTP or SSE, in the era its `protocol` says), connected on first
 * use. `close()` settles once every stdio server's whole process group is
 * gone (SIGTERM, then SIGKILL).
 *
 * @example
 * ```ts ignore
 * import assert from "node:assert/strict";
 * import { mcpUpstream } from "@toolfoundation/core/serve";
 *
 * const upstream = mcpUpstream("docs", { transport: "http", url: "http://127.0.0.1:3001/mcp" });
 * const { prompts } = await upstream.request("prompts/list", {}, {});
 * assert.ok(Array.isArray(prompts));
 * await upstream.close();
 * ```
 *
 * @param name The server's name.
 * @param config How to reach it (the runner's server configuration).
 * @param options Pool size, callers' shares, connect deadline, lock check.
 * @returns The upstream.
 */
export function mcpUpstream(
  name: string,
  config: McpServerConfig,
  options: McpUpstreamOptions = {},
): Upstream {
  return new McpUpstream(name, config, options);
}
