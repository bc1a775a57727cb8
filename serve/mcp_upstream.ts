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

class McpUpstream implements Upstream {
  readonly name: string;
  readonly #config: McpServerConfig;
  readonly #max: number;
  readonly #connectTimeoutMs: number;
  readonly #checkTools: McpUpstreamOptions["checkTools"];
  /** Tools `checkTools` refused, by name on the server, with their error. */
  readonly #refused = new Map<string, Error>();
  readonly #slots: Slot[] = [];
  /** Requests waiting for a free connection. */
  readonly #waiting: Array<{ resolve(): void; reject(error: Error): void }> = [];
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
    this.#checkTools = options.checkTools;
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
    const slot = await this.#checkout(context.signal, context.clientCapabilities);
    const refusal = method === "tools/call" ? this.#refused.get(String(params.name)) : undefined;
    if (refusal !== undefined) {
      this.#release(slot);
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
      const request = connection.client.request(
        { method: method as "tools/call", params: sent },
        { signal: stop.signal, timeout: context.timeoutMs ?? NO_TIMEOUT },
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
      outer?.removeEventListener("abort", onAbort);
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
    // A request waiting for a connection would open a new one after close().
    for (const waiter of this.#waiting.splice(0)) waiter.reject(reason);
    this.#slots.splice(0);
    await Promise.all([
      ...openings.map((opening) => opening.promise.catch(() => undefined)),
      ...[...this.#live].map(closeConnection),
    ]);
  }

  /**
   * A free connection that declared the client capabilities mirrored from
   * `downstream`; opens one (closing a free connection of other
   * capabilities when the pool is full), or waits.
   */
  async #checkout(
    signal?: AbortSignal,
    downstream?: Readonly<Record<string, unknown>>,
  ): Promise<Slot> {
    const capabilities = mirroredCapabilities(downstream);
    const key = capabilityKey(capabilities);
    for (;;) {
      if (signal?.aborted) {
        this.#wake(); // a wake-up this request got passes on
        signal.throwIfAborted();
      }
      for (let i = this.#slots.length - 1; i >= 0; i--) {
        const slot = this.#slots[i];
        if (slot.dead && !slot.busy) {
          this.#slots.splice(i, 1);
          // Not awaited: close() waits for every live connection.
          if (slot.connection !== undefined) void closeConnection(slot.connection);
        }
      }
      const free = this.#slots.find((s) => !s.busy && !s.dead && s.key === key);
      if (free !== undefined) {
        free.busy = true;
        return free;
      }
      if (this.#slots.length >= this.#max) {
        // A free connection of another client's capabilities makes room.
        const other = this.#slots.findIndex((s) => !s.busy);
        if (other >= 0) {
          const [gone] = this.#slots.splice(other, 1);
          if (gone.connection !== undefined) void closeConnection(gone.connection);
        }
      }
      if (this.#slots.length < this.#max) {
        const slot: Slot = {
          connection: undefined,
          busy: true,
          dead: false,
          context: undefined,
          key,
        };
        this.#slots.push(slot);
        try {
          slot.connection = await openSlot(this.name, this.#config, slot, {
            timeoutMs: this.#connectTimeoutMs,
            signal,
            prior: this.#verdict,
            onVerdict: (verdict) => (this.#verdict = verdict),
            live: this.#live,
            openings: this.#openings,
            capabilities,
          });
          this.#capabilities ??= (slot.connection.client.getServerCapabilities() ??
            {}) as UpstreamCapabilities;
          if (this.#checkTools !== undefined) {
            const tools = await listTools(
              this.name,
              slot.connection,
              signal,
              this.#connectTimeoutMs,
            );
            for (const [tool, error] of await this.#checkTools(tools, signal)) {
              this.#refused.set(tool, error);
            }
          }
        } catch (error) {
          const at = this.#slots.indexOf(slot);
          if (at >= 0) this.#slots.splice(at, 1);
          // Not awaited: close() waits for every live connection.
          if (slot.connection !== undefined) void closeConnection(slot.connection);
          this.#wake();
          throw upstreamFailure(this.name, undefined, error);
        }
        return slot;
      }
      await this.#wait(signal);
    }
  }

  /** Waits for a connection to be released; leaves the queue when the signal aborts. */
  #wait(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const done = (): void => signal?.removeEventListener("abort", onAbort);
      const waiter = {
        resolve: () => (done(), resolve()),
        reject: (error: Error) => (done(), reject(error)),
      };
      const onAbort = (): void => {
        const at = this.#waiting.indexOf(waiter);
        if (at >= 0) this.#waiting.splice(at, 1);
        waiter.reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(waiter);
    });
  }

  #release(slot: Slot): void {
    slot.busy = false;
    this.#wake();
  }

  #wake(): void {
    this.#waiting.shift()?.resolve();
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
