/**
 * An {@linkcode Upstream} backed by the MCP SDK client: a small pool of
 * connections per server, reused across requests and replaced after a
 * failure. A connection serves one request at a time, so the upstream's
 * progress, logging and server-to-client requests (sampling, elicitation)
 * reach exactly the downstream request that caused them.
 *
 * @module
 */

import { childEnv, type McpServerConfig } from "../run/mod.ts";
import { ServeError } from "./errors.ts";
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

// deno-lint-ignore no-explicit-any
type AnyClient = any;

interface Connection {
  client: AnyClient;
  busy: boolean;
  dead: boolean;
  context?: UpstreamCallContext;
}

const CLIENT_INFO = { name: "toolfoundation-serve", version: "0.1.0" };

function upstreamError(name: string, error: unknown): Error {
  if (error instanceof ServeError) return error;
  const e = error as { code?: unknown; message?: unknown; data?: unknown };
  // JSON-RPC errors of the upstream keep their numeric code and data.
  if (typeof e?.code === "number") return error as Error;
  return new ServeError(
    "upstream_unavailable",
    `upstream server ${JSON.stringify(name)} failed: ${String(e?.message ?? error)}`,
    { cause: error },
  );
}

class McpUpstream implements Upstream {
  readonly name: string;
  readonly #config: McpServerConfig;
  readonly #max: number;
  readonly #connectTimeoutMs: number;
  readonly #connections: Connection[] = [];
  readonly #waiting: Array<() => void> = [];
  #capabilities?: UpstreamCapabilities;

  constructor(name: string, config: McpServerConfig, options: McpUpstreamOptions) {
    this.name = name;
    this.#config = config;
    this.#max = Math.max(1, options.maxConnections ?? 4);
    this.#connectTimeoutMs = options.connectTimeoutMs ?? 30_000;
  }

  async capabilities(signal?: AbortSignal): Promise<UpstreamCapabilities> {
    if (this.#capabilities !== undefined) return this.#capabilities;
    const connection = await this.#checkout(signal);
    this.#release(connection);
    return this.#capabilities ?? {};
  }

  async request(
    method: UpstreamMethod,
    params: Record<string, unknown>,
    context: UpstreamCallContext,
  ): Promise<Record<string, unknown>> {
    const connection = await this.#checkout(context.signal);
    connection.context = context;
    try {
      const options = {
        signal: context.signal,
        timeout: context.timeoutMs ?? 24 * 3600_000,
        ...(context.onProgress === undefined ? {} : {
          onprogress: (p: { progress: number; total?: number; message?: string }) =>
            context.onProgress!(p),
          resetTimeoutOnProgress: false,
        }),
      };
      return await connection.client.request({ method, params }, options);
    } catch (error) {
      if (!(typeof (error as { code?: unknown })?.code === "number")) connection.dead = true;
      throw upstreamError(this.name, error);
    } finally {
      connection.context = undefined;
      this.#release(connection);
    }
  }

  async close(): Promise<void> {
    const all = this.#connections.splice(0);
    await Promise.allSettled(all.map((c) => c.client.close()));
  }

  async #checkout(signal?: AbortSignal): Promise<Connection> {
    for (;;) {
      signal?.throwIfAborted();
      for (let i = this.#connections.length - 1; i >= 0; i--) {
        const c = this.#connections[i];
        if (c.dead && !c.busy) {
          this.#connections.splice(i, 1);
          c.client.close().catch(() => {});
        }
      }
      const free = this.#connections.find((c) => !c.busy && !c.dead);
      if (free !== undefined) {
        free.busy = true;
        return free;
      }
      if (this.#connections.length < this.#max) {
        const connection: Connection = { client: undefined, busy: true, dead: false };
        this.#connections.push(connection);
        try {
          connection.client = await this.#connect(connection, signal);
        } catch (error) {
          this.#connections.splice(this.#connections.indexOf(connection), 1);
          this.#wake();
          throw upstreamError(this.name, error);
        }
        return connection;
      }
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
  }

  #release(connection: Connection): void {
    connection.busy = false;
    this.#wake();
  }

  #wake(): void {
    this.#waiting.shift()?.();
  }

  async #connect(connection: Connection, signal?: AbortSignal): Promise<AnyClient> {
    const sdk = await import("@modelcontextprotocol/client");
    const client = new sdk.Client(CLIENT_INFO, {
      capabilities: { sampling: {}, elicitation: { form: {}, url: {} }, roots: {} },
    });
    const forward = (method: string) =>
    async (
      request: { params?: Record<string, unknown> },
      ctx?: { mcpReq?: { signal?: AbortSignal } },
    ) => {
      const onRequest = connection.context?.onRequest;
      if (onRequest === undefined) {
        throw Object.assign(new Error(`the client does not support ${method}`), {
          code: -32601,
        });
      }
      return await onRequest({ method, params: request.params, signal: ctx?.mcpReq?.signal });
    };
    for (const method of ["sampling/createMessage", "elicitation/create", "roots/list"]) {
      // deno-lint-ignore no-explicit-any
      client.setRequestHandler(method as "sampling/createMessage", forward(method) as any);
    }
    client.setNotificationHandler(
      "notifications/message",
      (n: { method: string; params?: Record<string, unknown> }) => {
        connection.context?.onNotification?.({ method: n.method, params: n.params });
      },
    );
    const transport = await this.#transport(sdk);
    client.onclose = () => (connection.dead = true);
    client.onerror = () => {};
    const timeout = AbortSignal.timeout(this.#connectTimeoutMs);
    const both = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
    await Promise.race([
      client.connect(transport),
      new Promise((_, reject) => {
        both.addEventListener("abort", () => reject(both.reason), { once: true });
      }),
    ]).catch(async (error) => {
      await client.close().catch(() => {});
      throw error;
    });
    this.#capabilities ??= (client.getServerCapabilities() ?? {}) as UpstreamCapabilities;
    return client;
  }

  // deno-lint-ignore no-explicit-any
  async #transport(sdk: typeof import("@modelcontextprotocol/client")): Promise<any> {
    const config = this.#config;
    if (config.transport === "http" || config.transport === "sse") {
      const options = {
        requestInit: { headers: config.headers ?? {} },
        // deno-lint-ignore no-explicit-any
        ...(config.authProvider === undefined ? {} : { authProvider: config.authProvider as any }),
      };
      return config.transport === "http"
        ? new sdk.StreamableHTTPClientTransport(new URL(config.url), options)
        : new sdk.SSEClientTransport(new URL(config.url), options);
    }
    const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
    return new StdioClientTransport({
      command: config.command,
      args: config.args ?? [],
      env: childEnv({ env: config.env, inheritEnv: config.inheritEnv }),
      ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
      stderr: "ignore",
    });
  }
}

/**
 * An upstream MCP server reached with the MCP SDK client (stdio or
 * Streamable HTTP), connected on first use.
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
