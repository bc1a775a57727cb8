/**
 * Serving a gateway over Streamable HTTP at one endpoint (default `/mcp`):
 * stateless by default (a fresh MCP server per request, so any number of
 * instances can sit behind a load balancer), sessions on request. Every
 * request passes the Host and Origin checks (DNS rebinding), the
 * authentication, the body limit and the per-client concurrency limit first.
 *
 * @module
 */

import {
  createMcpHandler,
  isLegacyRequest,
  type McpHttpHandler,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import {
  batchSlots,
  ConcurrencyLimit,
  hostAllowed,
  jsonError,
  originAllowed,
  readLimited,
} from "./_guard.ts";
import { MemoryEventStore } from "./_event_store.ts";
import type { AuthOutcome, HttpAuth } from "./auth.ts";
import { ServeError } from "./errors.ts";
import type { Gateway } from "./gateway.ts";
import { createMcpServer, type CreateMcpServerOptions } from "./_mcp_server.ts";

/** The default request body limit: 4 MiB. */
export const DEFAULT_MAX_BODY_BYTES: number = 4 * 1024 * 1024;
/** The default number of requests one client may have in flight: 16. */
export const DEFAULT_MAX_CONCURRENT_PER_CLIENT = 16;

/** Options of {@linkcode createHttpHandler}. */
export interface HttpHandlerOptions extends Omit<CreateMcpServerOptions, "caller" | "transport"> {
  /** The endpoint path (default `/mcp`). */
  path?: string;
  /** Host names accepted in the Host header besides `localhost`, `127.0.0.1` and `[::1]`. */
  allowedHosts?: readonly string[];
  /** Origins (or host names) accepted in the Origin header besides the allowed hosts. */
  allowedOrigins?: readonly string[];
  /** Authentication (default: none, allowed only on loopback). */
  auth?: HttpAuth;
  /**
   * Scopes a token needs per served tool name (OAuth mode). A chain needs
   * the union of its own scopes and those of every tool its steps call.
   */
  toolScopes?: Readonly<Record<string, readonly string[]>>;
  /** Largest request body in bytes (default {@linkcode DEFAULT_MAX_BODY_BYTES}). */
  maxBodyBytes?: number;
  /** Requests one client may have in flight (default {@linkcode DEFAULT_MAX_CONCURRENT_PER_CLIENT}). */
  maxConcurrentPerClient?: number;
  /** Keep 2025-era sessions (with resumable streams) instead of serving statelessly. */
  sessions?: boolean;
  /** Most sessions kept at once (default 1000; the oldest is closed first). */
  maxSessions?: number;
}

/** The address of the client, as `Deno.serve` reports it. */
export interface ClientInfo {
  /** The remote address. */
  remoteAddr?: { hostname?: string };
}

/** A fetch-shaped MCP endpoint with its guards. */
export interface HttpHandler {
  /** Answers one request. */
  fetch(request: Request, info?: ClientInfo): Promise<Response>;
  /** Closes sessions and the SDK handler. */
  close(): Promise<void>;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  close(): Promise<void>;
}

function releasing(response: Response, release: () => void): Response {
  if (response.body === null) {
    release();
    return response;
  }
  let released = false;
  const once = () => {
    if (!released) {
      released = true;
      release();
    }
  };
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          once();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        once();
        controller.error(error);
      }
    },
    cancel(reason) {
      once();
      return reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * The HTTP endpoint of a gateway, for `Deno.serve` or any fetch-shaped host.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Runner } from "@toolfoundation/core/run";
 * import { createHttpHandler, Gateway } from "@toolfoundation/core/serve";
 *
 * const runner = new Runner();
 * runner.addLocalTool({ name: "ping", inputSchema: { type: "object" } }, () => "pong");
 * const gateway = await Gateway.create(runner);
 * const handler = createHttpHandler(gateway);
 * const rebinding = await handler.fetch(
 *   new Request("http://evil.example/mcp", { method: "POST", body: "{}" }),
 * );
 * assert.equal(rebinding.status, 403);
 * await handler.close();
 * await gateway.close();
 * ```
 *
 * @param gateway The gateway.
 * @param options Path, hosts, auth, limits and sessions.
 * @returns The handler.
 */
export function createHttpHandler(gateway: Gateway, options: HttpHandlerOptions = {}): HttpHandler {
  const path = options.path ?? "/mcp";
  const hosts = new Set(
    ["localhost", "127.0.0.1", "[::1]", ...(options.allowedHosts ?? [])].map((h) =>
      h.toLowerCase()
    ),
  );
  const origins = new Set([
    ...hosts,
    ...(options.allowedOrigins ?? []).map((o) => o.toLowerCase()),
  ]);
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxConcurrent = options.maxConcurrentPerClient ?? DEFAULT_MAX_CONCURRENT_PER_CLIENT;
  const limit = new ConcurrencyLimit(maxConcurrent);
  const serverOptions = {
    name: options.name,
    version: options.version,
    instructions: options.instructions,
  };
  // Computed once: what a call of each served tool needs, a chain's steps included.
  const requiredScopes = new Map<string, string[]>();
  if (options.toolScopes !== undefined) {
    for (const definition of gateway.listTools()) {
      const name = String(definition.name);
      const needed = gateway.toolsReachedBy(name).flatMap((n) => options.toolScopes![n] ?? []);
      requiredScopes.set(name, [...new Set(needed)]);
    }
  }
  const callerOf = (authInfo: { extra?: Record<string, unknown> } | undefined) =>
    String(authInfo?.extra?.caller ?? "anonymous");
  const stateless: McpHttpHandler = createMcpHandler(
    (ctx) =>
      createMcpServer(gateway, {
        ...serverOptions,
        caller: callerOf(ctx.authInfo as { extra?: Record<string, unknown> } | undefined),
        transport: "tcp",
      }),
    { legacy: "stateless", maxRequestBodySize: maxBody, onerror: () => {} },
  );
  const sessions = new Map<string, Session>();
  const eventStore = new MemoryEventStore();

  async function session(request: Request, body: unknown, caller: string): Promise<Response> {
    const id = request.headers.get("mcp-session-id");
    if (id !== null) {
      const found = sessions.get(id);
      if (found === undefined) {
        return jsonError(404, `unknown session ${JSON.stringify(id)}; start a new one`);
      }
      return await found.transport.handleRequest(request, { parsedBody: body });
    }
    if (request.method !== "POST") return jsonError(400, "missing mcp-session-id header");
    const max = options.maxSessions ?? 1000;
    if (sessions.size >= max) {
      const [oldest] = sessions.keys();
      await sessions.get(oldest)?.close();
      sessions.delete(oldest);
    }
    const server = createMcpServer(gateway, { ...serverOptions, caller, transport: "tcp" });
    const transport: WebStandardStreamableHTTPServerTransport =
      new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        eventStore,
        onsessioninitialized: (sid) => {
          sessions.set(sid, { transport, close: () => server.close() });
        },
        onsessionclosed: (sid) => {
          sessions.delete(sid);
        },
      });
    await server.connect(transport);
    return await transport.handleRequest(request, { parsedBody: body });
  }

  async function handle(request: Request, info?: ClientInfo): Promise<Response> {
    if (!hostAllowed(request, hosts)) {
      return jsonError(
        403,
        "forbidden: Host header not allowed (DNS rebinding protection); add it with --allow-host",
      );
    }
    const routed = options.auth?.route?.(request);
    if (routed !== undefined) return routed;
    if (new URL(request.url).pathname !== path) {
      return jsonError(404, `not found; the MCP endpoint is ${path}`);
    }
    if (!originAllowed(request, origins)) {
      return jsonError(
        403,
        "forbidden: Origin not allowed (DNS rebinding protection); add it with --allow-origin",
      );
    }
    let who: AuthOutcome | undefined;
    if (options.auth !== undefined) {
      const outcome = await options.auth.authenticate(request);
      if (outcome instanceof Response) return outcome;
      who = outcome;
    }
    const caller = who?.caller ?? info?.remoteAddr?.hostname ?? "anonymous";
    let body: unknown;
    let forward = request;
    if (request.method === "POST") {
      const bytes = await readLimited(request, maxBody);
      if (bytes === undefined) {
        return jsonError(413, `request body too large: the limit is ${maxBody} bytes`);
      }
      try {
        body = JSON.parse(new TextDecoder().decode(bytes));
      } catch {
        body = undefined;
      }
      forward = new Request(request.url, {
        method: "POST",
        headers: request.headers,
        body: bytes as BodyInit,
        signal: request.signal,
      });
      if (who?.scoped && options.toolScopes !== undefined) {
        for (const message of Array.isArray(body) ? body : [body]) {
          const m = message as { method?: unknown; params?: { name?: unknown } } | undefined;
          if (m?.method !== "tools/call") continue;
          const name = String(m.params?.name);
          const required = requiredScopes.get(name) ?? options.toolScopes[name] ?? [];
          if (required.some((s) => !who!.scopes.includes(s))) {
            return options.auth!.insufficientScope(request, required);
          }
        }
      }
    }
    // Each request of a batch counts against the limit (all admitted or none);
    // batches are refused for the protocol versions that removed them.
    const slots = batchSlots(request, body, maxConcurrent);
    if (slots instanceof Response) return slots;
    if (!limit.acquire(caller, slots)) {
      return jsonError(
        429,
        `too many concurrent requests from this client (limit ${maxConcurrent}); wait for one to finish`,
        { "retry-after": "1" },
      );
    }
    try {
      const authInfo = {
        token: "",
        clientId: caller,
        scopes: [...(who?.scopes ?? [])],
        extra: { caller },
      };
      const response = options.sessions && await isLegacyRequest(forward.clone(), body)
        ? await session(forward, body, caller)
        : await stateless.fetch(forward, { parsedBody: body, authInfo });
      return releasing(response, () => limit.release(caller, slots));
    } catch (error) {
      limit.release(caller, slots);
      throw error;
    }
  }

  return {
    fetch: handle,
    async close() {
      await Promise.allSettled([...sessions.values()].map((s) => s.close()));
      sessions.clear();
      await stateless.close();
    },
  };
}

/** Options of {@linkcode serveHttp}. */
export interface ServeHttpOptions extends HttpHandlerOptions {
  /** The interface to bind (default `127.0.0.1`); another one requires `auth`. */
  hostname?: string;
  /** The port (default 8080; 0 picks a free one). */
  port?: number;
  /** Stops the server. */
  signal?: AbortSignal;
}

/** A running HTTP server. */
export interface HttpServing {
  /** The bound address. */
  readonly addr: { hostname: string; port: number };
  /** The endpoint URL. */
  readonly url: string;
  /** Settles when the server has stopped. */
  readonly finished: Promise<void>;
  /** Stops serving. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/**
 * Serves the gateway with `Deno.serve`. Binding anything but loopback
 * without `auth` is refused.
 *
 * @example
 * ```ts ignore
 * import { serveHttp } from "@toolfoundation/core/serve";
 *
 * const serving = await serveHttp(gateway, { port: 8080 });
 * console.log(serving.url); // http://127.0.0.1:8080/mcp
 * ```
 *
 * @param gateway The gateway.
 * @param options Address, auth, limits and sessions.
 * @returns The running server.
 * @throws {ServeError} `auth_required` for a non-loopback interface without auth.
 */
export async function serveHttp(
  gateway: Gateway,
  options: ServeHttpOptions = {},
): Promise<HttpServing> {
  const hostname = options.hostname ?? "127.0.0.1";
  if (!LOOPBACK.has(hostname) && options.auth === undefined) {
    throw new ServeError(
      "auth_required",
      `listening on ${hostname} needs authentication: give --token-env NAME or --oauth-issuer ...; ` +
        `or bind 127.0.0.1`,
    );
  }
  const allowedHosts = [...(options.allowedHosts ?? [])];
  if (!LOOPBACK.has(hostname) && hostname !== "0.0.0.0" && hostname !== "::") {
    allowedHosts.push(hostname);
  }
  const handler = createHttpHandler(gateway, { ...options, allowedHosts });
  return await new Promise((resolve, reject) => {
    try {
      const server = Deno.serve({
        hostname,
        port: options.port ?? 8080,
        signal: options.signal,
        onListen: () => {},
        onError: () => jsonError(500, "internal error"),
      }, (request, info) => handler.fetch(request, info as ClientInfo));
      const addr = server.addr as Deno.NetAddr;
      const host = addr.hostname.includes(":") ? `[${addr.hostname}]` : addr.hostname;
      resolve({
        addr: { hostname: addr.hostname, port: addr.port },
        url: `http://${host}:${addr.port}${options.path ?? "/mcp"}`,
        finished: server.finished.then(() => handler.close()),
        async close() {
          await server.shutdown();
          await handler.close();
        },
      });
    } catch (error) {
      reject(error);
    }
  });
}
