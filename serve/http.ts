/**
 * Serving a gateway over Streamable HTTP at one endpoint (default `/mcp`):
 * stateless by default (a fresh MCP server per request, so any number of
 * instances can sit behind a load balancer), sessions on request. Every
 * request passes the Host and Origin checks (DNS rebinding), the
 * authentication, the per-principal rate, the body limit and the
 * per-principal concurrency limit first. Sessions belong to the principal
 * that opened them and live in a state store (memory by default, shareable
 * between instances).
 *
 * @module
 */

import {
  classifyInboundRequest,
  createMcpHandler,
  isLegacyRequest,
  type McpHttpHandler,
} from "@modelcontextprotocol/server";
import {
  batchSlots,
  ConcurrencyLimit,
  hostAllowed,
  jsonError,
  originAllowed,
  pathnameOf,
  readLimited,
} from "./_guard.ts";
import { SessionTable, whenDone } from "./_http_sessions.ts";
import { answerFastCall, fastCallOf } from "./_fast_call.ts";
import {
  answerModernCall,
  createModernReplay,
  EnvelopeVerdicts,
  modernCallOf,
  serverInfoOf,
} from "./_fast_call_modern.ts";
import type { AuthOutcome, HttpAuth } from "./auth.ts";
import { ServeError } from "./errors.ts";
import type { Gateway } from "./gateway.ts";
import { createMcpServer, type CreateMcpServerOptions } from "./_mcp_server.ts";
import { MemoryStateStore } from "./state/memory.ts";
import { pageResponse } from "./_page.ts";
import { paramHeaderCheck } from "./_param_header_check.ts";
import { StateStoreError } from "./state/errors.ts";
import type { StateStore } from "./state/store.ts";

/** The default request body limit: 4 MiB. */
export const DEFAULT_MAX_BODY_BYTES: number = 4 * 1024 * 1024;
/** The default number of requests one principal may have in flight: 16. */
export const DEFAULT_MAX_CONCURRENT_PER_CLIENT = 16;
/** The default number of sessions this instance keeps live copies of: 10000. */
export const DEFAULT_MAX_LOCAL_SESSIONS = 10_000;

/** A request rate: at most `requests` per fixed window of `windowMs`. */
export interface RateLimit {
  /** Requests allowed per window. */
  readonly requests: number;
  /** The window (ms). */
  readonly windowMs: number;
}

/** The default request rate of one principal: 6000 per minute. */
export const DEFAULT_MAX_RATE: RateLimit = Object.freeze({ requests: 6000, windowMs: 60_000 });

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
  /**
   * Requests one principal may have in flight (default
   * {@linkcode DEFAULT_MAX_CONCURRENT_PER_CLIENT}). The principal is the
   * authenticated caller (a static token's name, an OAuth token's subject),
   * else the remote address.
   */
  maxConcurrentPerClient?: number;
  /** Requests one principal may make per window (default {@linkcode DEFAULT_MAX_RATE}). */
  maxRate?: RateLimit;
  /** Keep 2025-era sessions (with resumable streams) instead of serving statelessly. */
  sessions?: boolean;
  /**
   * Sessions this instance keeps a live copy of (default
   * {@linkcode DEFAULT_MAX_LOCAL_SESSIONS}); beyond it the least recently
   * used idle copy is closed (the session stays in the state store and is
   * rebuilt on use), and with every copy busy a new one is refused (503).
   */
  maxSessions?: number;
  /**
   * Where sessions, their events and the per-principal counters live
   * (default: a {@linkcode MemoryStateStore} with the default limits). Its
   * limits are the session quota, idle expiry and event bytes. The handler
   * closes it on {@linkcode HttpHandler.close}.
   */
  state?: StateStore;
  /**
   * HTML pages at other paths than the endpoint, answered to GET and HEAD
   * behind the same Host check, authentication and rate as the endpoint
   * (e.g. `{ "/report": () => html }`); the function runs per request.
   */
  pages?: Readonly<Record<string, () => string | Promise<string>>>;
  /**
   * Answers a plain 2025-era or 2026-07-28 `tools/call` without a
   * per-request SDK server and transport, with the same bytes (default
   * true); false sends every request through the SDK.
   */
  directCalls?: boolean;
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
  /** Closes this instance's session copies, the SDK handler and the state store. */
  close(): Promise<void>;
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
  // The Mcp-Param-* headers of a 2026-07-28 call must match its arguments.
  const checkParamHeaders = paramHeaderCheck(gateway.listTools());
  const servedNames = new Set(gateway.listTools().map((t) => String(t.name)));
  const served = (name: string) => servedNames.has(name);
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
  // The SDK's answers of 2026-07-28 calls the direct path made but does not encode itself.
  const replay = createModernReplay(gateway, serverOptions, maxBody);
  const serverInfo = serverInfoOf(serverOptions);
  const verdicts = new EnvelopeVerdicts();
  // 2026-07-28 clients learn of list changes on their subscriptions/listen streams.
  const stopListChanges = gateway.onListChanged((kind) => {
    if (kind === "tools") stateless.notify.toolsChanged();
    else if (kind === "prompts") stateless.notify.promptsChanged();
    else stateless.notify.resourcesChanged();
  });
  const state = options.state ?? new MemoryStateStore();
  const rate = options.maxRate ?? DEFAULT_MAX_RATE;
  const table = options.sessions
    ? new SessionTable(
      gateway,
      state,
      serverOptions,
      options.maxSessions ?? DEFAULT_MAX_LOCAL_SESSIONS,
      options.directCalls === false ? undefined : served,
    )
    : undefined;

  /**
   * Whether the SDK serves a request in the 2025 era: classified from the
   * headers and the parsed body when there is one (no copy of the request),
   * else by the SDK from the request itself.
   */
  async function isLegacy(request: Request, body: unknown): Promise<boolean> {
    if (request.method === "POST" && body !== undefined) {
      return classifyInboundRequest({
        httpMethod: "POST",
        protocolVersionHeader: request.headers.get("mcp-protocol-version") ?? undefined,
        mcpMethodHeader: request.headers.get("mcp-method") ?? undefined,
        mcpNameHeader: request.headers.get("mcp-name") ?? undefined,
        body,
      }).kind === "legacy";
    }
    return await isLegacyRequest(request.clone(), body);
  }

  /** The 429 for a principal over its rate, or `undefined`. */
  async function overRate(caller: string): Promise<Response | undefined> {
    const count = await state.hit(caller, rate.windowMs);
    if (count <= rate.requests) return undefined;
    const now = Date.now();
    const retry = Math.max(1, Math.ceil((rate.windowMs - (now % rate.windowMs)) / 1000));
    return jsonError(
      429,
      `too many requests from this client: the limit is ${rate.requests} per ` +
        `${rate.windowMs / 1000}s (--max-rate); retry after ${retry}s`,
      { "retry-after": String(retry) },
    );
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
    const pathname = pathnameOf(request.url);
    const page = pathname !== path && options.pages !== undefined &&
        Object.hasOwn(options.pages, pathname)
      ? options.pages[pathname]
      : undefined;
    if (pathname !== path && page === undefined) {
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
    try {
      if (page !== undefined) return await overRate(caller) ?? await pageResponse(request, page);
      return await admitted(request, caller, who);
    } catch (error) {
      if (!(error instanceof StateStoreError)) throw error;
      return jsonError(
        503,
        `the state store (${state.description}) is unavailable: ${error.message}; retry later`,
        { "retry-after": "1" },
      );
    }
  }

  async function admitted(
    request: Request,
    caller: string,
    who: AuthOutcome | undefined,
  ): Promise<Response> {
    const limited = await overRate(caller);
    if (limited !== undefined) return limited;
    let body: unknown;
    let forward: Request | undefined = request;
    let forwardBytes: Uint8Array | undefined;
    if (request.method === "POST") {
      const bytes = await readLimited(request, maxBody);
      if (bytes === undefined) {
        return jsonError(413, `request body too large: the limit is ${maxBody} bytes`);
      }
      try {
        body = JSON.parse(decoder.decode(bytes));
      } catch {
        body = undefined;
      }
      // The SDK reads the body again: a request of its own carries the bytes.
      forward = undefined;
      forwardBytes = bytes;
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
      const mismatch = checkParamHeaders(request, body);
      if (mismatch !== undefined) return mismatch;
    }
    // Each request of a batch counts against the limit (all admitted or none);
    // batches are refused for the protocol versions that removed them.
    const slots = batchSlots(request, body, maxConcurrent);
    if (slots instanceof Response) return slots;
    if (!limit.acquire(caller, slots)) {
      return jsonError(
        429,
        `too many concurrent requests from this client (limit ${maxConcurrent}, --max-concurrent); ` +
          `wait for one to finish`,
        { "retry-after": "1" },
      );
    }
    try {
      const call = options.directCalls === false || table !== undefined
        ? undefined
        : fastCallOf(request, body, served);
      if (call !== undefined) {
        return await answerFastCall(gateway, call, {
          caller,
          // A stateless 2025 request has no initialize: its client declared nothing.
          clientCapabilities: {},
          signal: request.signal,
          done: () => limit.release(caller, slots),
        });
      }
      // Made only when the SDK serves the request (a session's direct call reads `body`).
      const forwarded = () =>
        forward ??= new Request(request.url, {
          method: "POST",
          headers: request.headers,
          body: forwardBytes as BodyInit,
          signal: request.signal,
        });
      const authInfo = {
        token: "",
        clientId: caller,
        scopes: [...(who?.scopes ?? [])],
        extra: { caller },
      };
      // A plain 2026-07-28 call (stateless by its era, with or without --sessions).
      const modern = options.directCalls === false
        ? undefined
        : modernCallOf(request, body, served, verdicts);
      if (modern !== undefined) {
        // An answer made whole here frees the slot at once; the replay's when its body is sent.
        let released = false;
        const response = await answerModernCall(gateway, modern, serverInfo, {
          caller,
          request,
          replay: (outcome) => replay.fetch(forwarded(), body, authInfo, outcome),
          answered: () => {
            released = true;
            limit.release(caller, slots);
          },
        });
        return released ? response : whenDone(response, () => limit.release(caller, slots));
      }
      // A POST's body is read: its parsed `body`, or the forwarded bytes, tell the era.
      const response =
        table !== undefined && await isLegacy(body === undefined ? forwarded() : request, body)
          ? await table.handle(request, body, caller, forwarded)
          : await stateless.fetch(forwarded(), { parsedBody: body, authInfo });
      return whenDone(response, () => limit.release(caller, slots));
    } catch (error) {
      limit.release(caller, slots);
      throw error;
    }
  }

  return {
    fetch: handle,
    async close() {
      stopListChanges();
      await table?.close();
      await stateless.close();
      await replay.close();
      await state.close();
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

const decoder = new TextDecoder();

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
          // Together, not one after the other: a shutdown waits for every open
          // response, and a session's event stream (a client's GET, a request
          // waiting for the client's answer) ends only when its session closes.
          await Promise.all([server.shutdown(), handler.close()]);
        },
      });
    } catch (error) {
      reject(listenError(error, hostname, options.port ?? 8080));
    }
  });
}

/**
 * Names the address in a failure to listen (Deno's own message does not),
 * keeping Deno's error as the cause.
 */
function listenError(error: unknown, hostname: string, port: number): unknown {
  const host = hostname.includes(":") && !hostname.startsWith("[") ? `[${hostname}]` : hostname;
  const address = `${host}:${port}`;
  const why = error instanceof Deno.errors.AddrInUse
    ? `the address is already in use (another process listens there); stop it or give another port (--http ${host}:PORT)`
    : error instanceof Deno.errors.AddrNotAvailable
    ? `no interface of this machine has the address ${hostname}; give one it has (--http 127.0.0.1:${port})`
    : error instanceof Deno.errors.PermissionDenied || error instanceof Deno.errors.NotCapable
    ? `${(error as Error).message}`
    : undefined;
  if (why === undefined) return error;
  return new ServeError("listen_failed", `cannot listen on ${address}: ${why}`, { cause: error });
}
