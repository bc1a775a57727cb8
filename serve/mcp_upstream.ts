/**
 * An {@linkcode Upstream} that reaches its MCP server exactly as the runner
 * does: the runner's connections (stdio in its own process group with the
 * child environment policy, Streamable HTTP, SSE, the message cap
 * `maxOutputBytes`, the protocol era of `protocol`, OAuth through
 * `authProvider`, the server's stderr kept for error messages), in a small
 * pool per server, reused across requests and replaced after a failure. A
 * connection serves one request at a time, so the upstream's progress,
 * logging and server-to-client requests (sampling, elicitation, roots) reach
 * exactly the downstream request that caused them.
 *
 * @module
 */

import type { McpServerConfig } from "../run/mod.ts";
import { type ClientSide, openConnection, type Opening } from "../run/_mcp_connection.ts";
import type { EraVerdict } from "../run/_mcp_era.ts";
import { closeConnection, type Connection, watch } from "../run/_mcp_lifecycle.ts";
import { stderrHint } from "../run/_mcp_report.ts";
import { NO_TIMEOUT } from "../run/_mcp_sdk.ts";
import { ServeError } from "./errors.ts";
import { isUpstreamError, upstreamFailure } from "./_upstream_errors.ts";
import type {
  Upstream,
  UpstreamCallContext,
  UpstreamCapabilities,
  UpstreamMethod,
} from "./upstream.ts";

/** Options of {@linkcode mcpUpstream}. */
export interface McpUpstreamOptions {
  /** Connections kept open at most (default 4); further requests wait for a free one. */
  maxConnections?: number;
  /** Deadline of connecting, in ms (default 30 000). */
  connectTimeoutMs?: number;
}

/** One pooled connection and the downstream request it serves. */
interface Slot {
  connection: Connection | undefined;
  busy: boolean;
  /** Lost, or its request was given up on: closed and replaced once free. */
  dead: boolean;
  context: UpstreamCallContext | undefined;
}

const CLIENT_INFO = { name: "toolfoundation-serve", version: "0.1.0" };
const SERVER_REQUESTS = ["sampling/createMessage", "elicitation/create", "roots/list"];

class McpUpstream implements Upstream {
  readonly name: string;
  readonly #config: McpServerConfig;
  readonly #max: number;
  readonly #connectTimeoutMs: number;
  readonly #slots: Slot[] = [];
  readonly #waiting: Array<() => void> = [];
  readonly #openings = new Set<Opening>();
  /** Every connection not yet gone (its process group included). */
  readonly #live = new Set<Connection>();
  /** The era an `auto` server was found to speak: later connections are not probed. */
  #verdict: EraVerdict | undefined;
  #capabilities?: UpstreamCapabilities;

  constructor(name: string, config: McpServerConfig, options: McpUpstreamOptions) {
    this.name = name;
    this.#config = config;
    this.#max = Math.max(1, options.maxConnections ?? 4);
    this.#connectTimeoutMs = options.connectTimeoutMs ?? 30_000;
  }

  async capabilities(signal?: AbortSignal): Promise<UpstreamCapabilities> {
    if (this.#capabilities !== undefined) return this.#capabilities;
    this.#release(await this.#checkout(signal));
    return this.#capabilities ?? {};
  }

  async request(
    method: UpstreamMethod,
    params: Record<string, unknown>,
    context: UpstreamCallContext,
  ): Promise<Record<string, unknown>> {
    const slot = await this.#checkout(context.signal);
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
    const stop = new AbortController();
    const signal = context.signal === undefined
      ? stop.signal
      : AbortSignal.any([context.signal, stop.signal]);
    try {
      const request = connection.client.request(
        { method: method as "tools/call", params: sent },
        { signal, timeout: context.timeoutMs ?? NO_TIMEOUT },
      ) as Promise<Record<string, unknown>>;
      return withoutServerInfo(await watch(connection, request));
    } catch (error) {
      // Given up on by us (connection lost, message over the cap), not settled
      // by the SDK: tell the SDK (and the server) to drop the request.
      if (error === connection.lostError || isOversize(error)) stop.abort(error);
      if (isUpstreamError(error)) throw error;
      // A cancelled or failed request may still make the server send progress
      // or log lines: the connection is replaced so that none reaches another
      // request. Only a message over the cap leaves it as it was.
      if (!isOversize(error)) slot.dead = true;
      throw upstreamFailure(this.name, connection, error);
    } finally {
      if (token !== undefined) connection.progress.delete(token);
      slot.context = undefined;
      this.#release(slot);
    }
  }

  async close(): Promise<void> {
    const openings = [...this.#openings];
    const reason = new ServeError(
      "upstream_unavailable",
      `upstream server ${JSON.stringify(this.name)} was closed`,
    );
    for (const opening of openings) opening.abort.abort(reason);
    this.#slots.splice(0);
    await Promise.all([
      ...openings.map((opening) => opening.promise.catch(() => undefined)),
      ...[...this.#live].map(closeConnection),
    ]);
  }

  async #checkout(signal?: AbortSignal): Promise<Slot> {
    for (;;) {
      signal?.throwIfAborted();
      for (let i = this.#slots.length - 1; i >= 0; i--) {
        const slot = this.#slots[i];
        if (slot.dead && !slot.busy) {
          this.#slots.splice(i, 1);
          // Not awaited: close() waits for every live connection.
          if (slot.connection !== undefined) void closeConnection(slot.connection);
        }
      }
      const free = this.#slots.find((s) => !s.busy && !s.dead);
      if (free !== undefined) {
        free.busy = true;
        return free;
      }
      if (this.#slots.length < this.#max) {
        const slot: Slot = { connection: undefined, busy: true, dead: false, context: undefined };
        this.#slots.push(slot);
        try {
          slot.connection = await this.#open(slot, signal);
        } catch (error) {
          const at = this.#slots.indexOf(slot);
          if (at >= 0) this.#slots.splice(at, 1);
          this.#wake();
          throw upstreamFailure(this.name, undefined, error);
        }
        const c = slot.connection;
        if (c.closed || c.lostError !== undefined) slot.dead = true;
        return slot;
      }
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
  }

  #release(slot: Slot): void {
    slot.busy = false;
    this.#wake();
  }

  #wake(): void {
    this.#waiting.shift()?.();
  }

  /** Opens a connection for `slot` within the connect deadline; the signal gives up on it. */
  async #open(slot: Slot, signal: AbortSignal | undefined): Promise<Connection> {
    const opening: Opening = {
      promise: Promise.resolve(undefined as never),
      waiters: 1,
      settled: false,
      abort: new AbortController(),
      stdio: undefined,
    };
    const ms = this.#connectTimeoutMs;
    const timer = setTimeout(() => {
      const hint = stderrHint(opening.stdio);
      opening.abort.abort(
        new ServeError(
          "upstream_unavailable",
          `upstream server ${JSON.stringify(this.name)} did not connect within ${ms} ms${
            hint === undefined ? "" : `; ${hint}`
          }`,
        ),
      );
    }, ms);
    const onAbort = (): void => opening.abort.abort(signal!.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    this.#openings.add(opening);
    opening.promise = openConnection(this.name, this.#config, opening, {
      onElicitation: undefined,
      clientSide: this.#clientSide(slot),
      prior: this.#verdict,
      onVerdict: (verdict) => (this.#verdict = verdict),
      onLive: (connection) => this.#live.add(connection),
      onLost: (connection) => {
        if (slot.connection === connection) slot.dead = true;
      },
      onGone: (connection) => this.#live.delete(connection),
    });
    try {
      const connection = await opening.promise;
      this.#capabilities ??=
        (connection.client.getServerCapabilities() ?? {}) as UpstreamCapabilities;
      return connection;
    } finally {
      opening.settled = true;
      this.#openings.delete(opening);
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Server-to-client requests and logging go to the downstream request the slot serves. */
  #clientSide(slot: Slot): ClientSide {
    const requests: ClientSide["requests"] = {};
    for (const method of SERVER_REQUESTS) {
      requests[method] = async (params, signal) => {
        const onRequest = slot.context?.onRequest;
        if (onRequest === undefined) {
          throw Object.assign(new Error(`the client does not support ${method}`), {
            code: -32601,
          });
        }
        return await onRequest({ method, params, signal });
      };
    }
    return {
      info: CLIENT_INFO,
      capabilities: { sampling: {}, elicitation: { form: {}, url: {} }, roots: {} },
      requests,
      notifications: {
        "notifications/message": (params) => {
          const sent = slot.context?.onNotification?.({ method: "notifications/message", params });
          // The downstream may be gone; the log line belonged to it only.
          void Promise.resolve(sent).catch(() => undefined);
        },
      },
    };
  }
}

/** The 2026-07-28 envelope key naming the software that answered (the upstream, not `serve`). */
const SERVER_INFO = "io.modelcontextprotocol/serverInfo";

/** A result without the upstream's self-identification (the hop's envelope, not content). */
function withoutServerInfo(result: Record<string, unknown>): Record<string, unknown> {
  const meta = result._meta as Record<string, unknown> | undefined;
  if (meta === null || typeof meta !== "object" || !(SERVER_INFO in meta)) return result;
  const { [SERVER_INFO]: _, ...rest } = meta;
  const { _meta: __, ...body } = result;
  return Object.keys(rest).length === 0 ? body : { ...body, _meta: rest };
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
 * @param options Pool size and connect deadline.
 * @returns The upstream.
 */
export function mcpUpstream(
  name: string,
  config: McpServerConfig,
  options: McpUpstreamOptions = {},
): Upstream {
  return new McpUpstream(name, config, options);
}
