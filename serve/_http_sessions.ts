// Private: the 2025-era sessions of `serve --http --sessions`. The state store
// holds what a session IS (its owner, its initialize message, its events); this
// instance holds only a live copy (an SDK transport and server) of the sessions
// it serves, rebuilt from the store when a session opened elsewhere (or
// dropped here) is used. A copy is closed when idle, when the store no longer
// knows its session, or to make room; the session itself ends only on DELETE
// or the store's idle expiry.

import {
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import type { Server } from "@modelcontextprotocol/server";
import { jsonError } from "./_guard.ts";
import { createMcpServer, type CreateMcpServerOptions } from "./_mcp_server.ts";
import { SessionEvents } from "./_session_events.ts";
import { answerFastCall, type FastCall, fastCallOf } from "./_fast_call.ts";
import type { Gateway } from "./gateway.ts";
import type { StateStore, StoredMessage } from "./state/store.ts";

/** The session code of the JSON-RPC error for an unknown session (the SDK's). */
const SESSION_NOT_FOUND = -32001;
const SWEEP_MAX_MS = 60_000;

interface Local {
  id: string;
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  lastUsed: number;
  /** Requests whose responses are still being sent (open streams included). */
  busy: number;
  /** Where the session's events go. */
  events: SessionEvents;
  /** Direct calls in flight, by JSON-RPC request ID (a client's `notifications/cancelled` aborts one). */
  calls: Map<string | number, AbortController>;
}

/** The 2025-era logging levels, least severe first (the SDK's order). */
const LOG_LEVELS = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

/** What the SDK's server keeps of a session's `logging/setLevel` (read, never written, here). */
interface LoggingLevels {
  _loggingLevels?: Map<string | undefined, string>;
}

/** The client capabilities whose requests only the SDK's session can route back to the client. */
const ROUTED_CAPABILITIES = ["sampling", "elicitation", "roots"];

/**
 * Responses whose work was over when they were made (a direct call answered
 * in one body): nothing is left to wait for, and their body is not wrapped.
 */
const complete = new WeakSet<Response>();

/** Calls `done` once, when the response's body has been sent or given up. */
export function whenDone(response: Response, done: () => void): Response {
  // A body of its own read through a stream of ours would cost a stream per call.
  if (complete.has(response) || response.body === null) {
    done();
    return response;
  }
  let called = false;
  const once = () => {
    if (!called) {
      called = true;
      done();
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
 * Whether a session's plain calls can be answered directly: it is
 * initialized in the 2025 era, and its client offered nothing an upstream
 * could ask it for during a call (those requests travel through the SDK's
 * session to the client and back).
 */
function directServed(local: Local): boolean {
  if (local.transport.sessionId !== local.id) return false;
  const version = local.server.getNegotiatedProtocolVersion();
  if (version === undefined || version >= "2026-07-28") return false;
  const declared = local.server.getClientCapabilities() ?? {};
  return !ROUTED_CAPABILITIES.some((key) =>
    (declared as Record<string, unknown>)[key] !== undefined
  );
}

/** A client's `notifications/cancelled` (alone or in a batch) aborts the direct call it names. */
function cancelDirect(local: Local, body: unknown): void {
  if (local.calls.size === 0) return;
  for (const message of Array.isArray(body) ? body : [body]) {
    const m = message as { method?: unknown; params?: { requestId?: unknown; reason?: unknown } };
    if (m?.method !== "notifications/cancelled") continue;
    const id = m.params?.requestId as string | number;
    local.calls.get(id)?.abort(
      new DOMException(String(m.params?.reason ?? "cancelled"), "AbortError"),
    );
  }
}

function isInitialize(body: unknown): body is StoredMessage {
  const m = body as { method?: unknown; id?: unknown } | undefined;
  return typeof m === "object" && m !== null && m.method === "initialize" && "id" in m;
}

/** The sessions this instance serves. */
export class SessionTable {
  readonly #gateway: Gateway;
  readonly #state: StateStore;
  readonly #serverOptions: Omit<CreateMcpServerOptions, "caller" | "transport">;
  readonly #maxLocal: number;
  readonly #locals = new Map<string, Local>();
  /** The principal of each live copy. */
  readonly #principals = new Map<string, string>();
  readonly #rebuilding = new Map<string, Promise<Local>>();
  readonly #timer: ReturnType<typeof setInterval>;
  /** Which served tools a plain `tools/call` is answered directly for (none when undefined). */
  readonly #direct: ((name: string) => boolean) | undefined;

  constructor(
    gateway: Gateway,
    state: StateStore,
    serverOptions: Omit<CreateMcpServerOptions, "caller" | "transport">,
    maxLocal: number,
    direct?: (name: string) => boolean,
  ) {
    this.#direct = direct;
    this.#gateway = gateway;
    this.#state = state;
    this.#serverOptions = serverOptions;
    this.#maxLocal = maxLocal;
    const every = Math.min(state.limits.sessionIdleMs, SWEEP_MAX_MS);
    this.#timer = setInterval(() => void this.#sweep().catch(() => {}), every);
    Deno.unrefTimer(this.#timer);
  }

  /**
   * Answers a session request (POST, GET or DELETE) of `principal`; `body`
   * is its parsed body. `forwarded` gives the request the SDK's transport
   * reads (its body unread), made only when the SDK serves it: a direct call
   * reads the headers of `request` and `body` alone.
   */
  async handle(
    request: Request,
    body: unknown,
    principal: string,
    forwarded: () => Request = () => request,
  ): Promise<Response> {
    const id = request.headers.get("mcp-session-id");
    if (id === null) return await this.#open(forwarded(), body, principal);
    const record = await this.#state.touchSession(id);
    // Another principal's session is answered exactly as one that does not exist.
    if (record === undefined || record.principal !== principal) {
      if (record === undefined) await this.#drop(id);
      return jsonError(
        404,
        `unknown session ${
          JSON.stringify(id)
        } (expired, deleted or never opened by this client); ` +
          `start a new one with initialize`,
        {},
        SESSION_NOT_FOUND,
      );
    }
    let local = this.#locals.get(id);
    if (local === undefined) {
      try {
        local = await this.#rebuild(id, principal, record.initialize);
      } catch (error) {
        if (error instanceof RoomError) return this.#full();
        throw error;
      }
    }
    return await this.#serve(local, request, body, forwarded);
  }

  async #serve(
    local: Local,
    request: Request,
    body: unknown,
    forwarded: () => Request = () => request,
  ): Promise<Response> {
    local.lastUsed = Date.now();
    if (this.#direct !== undefined && request.method === "POST") {
      cancelDirect(local, body);
      const call = fastCallOf(request, body, this.#direct);
      if (call !== undefined && directServed(local)) return await this.#answerDirect(local, call);
    }
    local.busy++;
    try {
      const response = await local.transport.handleRequest(forwarded(), { parsedBody: body });
      return whenDone(response, () => {
        local.busy--;
        local.lastUsed = Date.now();
      });
    } catch (error) {
      local.busy--;
      throw error;
    }
  }

  /**
   * A plain `tools/call` of an initialized 2025-era session, answered as its
   * SDK transport would: on a stream of its own whose events are stored for
   * resumption (a priming event first where the version has them), logging
   * filtered by the session's level, and not cancelled when the client goes
   * away (it may resume the stream) but by its `notifications/cancelled`.
   */
  async #answerDirect(local: Local, call: FastCall): Promise<Response> {
    const server = local.server;
    const streamId = crypto.randomUUID();
    const version = call.version ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
    const abort = new AbortController();
    local.calls.set(call.id, abort);
    local.busy++;
    const levels = (server as unknown as LoggingLevels)._loggingLevels;
    let finished = false;
    const response = await answerFastCall(this.#gateway, call, {
      caller: this.#principals.get(local.id) ?? "anonymous",
      sessionId: local.id,
      clientCapabilities: server.getClientCapabilities() ?? {},
      signal: abort.signal,
      headers: { "mcp-session-id": local.id },
      events: {
        store: (message, json) => local.events.storeEvent(streamId, message as never, json),
        priming: async () => {
          if (!SUPPORTED_PROTOCOL_VERSIONS.includes(version) || version < "2025-11-25") {
            return undefined;
          }
          return `id: ${await local.events.storeEvent(streamId, {} as never)}\ndata: \n\n`;
        },
      },
      logs: (level) => {
        const threshold = levels?.get(local.id) ?? levels?.get(undefined);
        return threshold === undefined ||
          LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
      },
      settled: () => {
        if (local.calls.get(call.id) === abort) local.calls.delete(call.id);
      },
      done: () => {
        finished = true;
        local.busy--;
        local.lastUsed = Date.now();
      },
    });
    if (finished) complete.add(response);
    return response;
  }

  async #open(request: Request, body: unknown, principal: string): Promise<Response> {
    if (request.method !== "POST") return jsonError(400, "missing mcp-session-id header");
    if (!isInitialize(body)) {
      return jsonError(
        400,
        "missing mcp-session-id header: start a session with an initialize request first",
      );
    }
    if (!await this.#makeRoom()) return this.#full();
    const id = crypto.randomUUID();
    const created = await this.#state.createSession({
      id,
      principal,
      initialize: body,
      createdAt: Date.now(),
    });
    if (created === "quota") {
      const limit = this.#state.limits.sessionsPerPrincipal;
      return jsonError(
        429,
        `too many sessions: this client already holds ${limit}, the limit ` +
          `(--max-sessions-per-principal); end one with DELETE or let it expire ` +
          `(--session-idle), then retry`,
      );
    }
    const local = this.#local(id, principal);
    const response = await this.#serve(local, request, body);
    if (local.transport.sessionId === undefined) {
      // The SDK refused the initialize (headers, version): no session after all.
      await this.#drop(id);
      await this.#state.deleteSession(id);
    }
    return response;
  }

  /** A live copy of session `id` on this instance (not yet initialized). */
  #local(id: string, principal: string, events = new SessionEvents(this.#state, id)): Local {
    const server = createMcpServer(this.#gateway, {
      ...this.#serverOptions,
      caller: principal,
      transport: "tcp",
      passListChanges: true,
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      eventStore: events,
      onsessionclosed: async (sid) => {
        this.#locals.delete(sid);
        await this.#state.deleteSession(sid);
      },
    });
    const local: Local = {
      id,
      transport,
      server,
      lastUsed: Date.now(),
      busy: 0,
      events,
      calls: new Map(),
    };
    this.#principals.set(id, principal);
    this.#locals.set(id, local);
    transport.onclose = () => {
      if (this.#locals.get(id) === local) this.#locals.delete(id);
    };
    void server.connect(transport);
    return local;
  }

  #rebuild(id: string, principal: string, initialize: StoredMessage): Promise<Local> {
    const pending = this.#rebuilding.get(id);
    if (pending !== undefined) return pending;
    const rebuilt = (async () => {
      if (!await this.#makeRoom()) throw new RoomError();
      const events = new SessionEvents(this.#state, id);
      const local = this.#local(id, principal, events);
      // The SDK keeps what a session negotiated in its server: replaying the
      // client's initialize (and `notifications/initialized`) through a
      // transport that takes the stored id rebuilds it. Those answers went to
      // the client long ago, on the instance that opened the session.
      const url = "http://localhost/mcp";
      const headers = {
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
      };
      await events.muted(async () => {
        const init = await local.transport.handleRequest(
          new Request(url, { method: "POST", headers, body: JSON.stringify(initialize) }),
          { parsedBody: initialize },
        );
        await init.text();
        const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
        const ack = await local.transport.handleRequest(
          new Request(url, {
            method: "POST",
            headers: { ...headers, "mcp-session-id": id },
            body: JSON.stringify(initialized),
          }),
          { parsedBody: initialized },
        );
        await ack.text();
      });
      if (local.transport.sessionId !== id) {
        await this.#drop(id);
        throw new Error(`session ${id} of ${principal} could not be rebuilt on this instance`);
      }
      return local;
    })().finally(() => this.#rebuilding.delete(id));
    this.#rebuilding.set(id, rebuilt);
    return rebuilt;
  }

  /** Closes the least recently used idle copies until one more fits; `false` when all are busy. */
  async #makeRoom(): Promise<boolean> {
    if (this.#locals.size < this.#maxLocal) return true;
    const idle = [...this.#locals.values()].filter((l) => l.busy === 0)
      .sort((a, b) => a.lastUsed - b.lastUsed);
    for (const local of idle) {
      if (this.#locals.size < this.#maxLocal) break;
      await this.#drop(local.id);
    }
    return this.#locals.size < this.#maxLocal;
  }

  #full(): Response {
    return jsonError(
      503,
      `this instance serves ${this.#maxLocal} sessions with requests in flight, its limit; retry later`,
      { "retry-after": "5" },
    );
  }

  /** Closes this instance's copy of a session (the session stays in the store). */
  async #drop(id: string): Promise<void> {
    const local = this.#locals.get(id);
    if (local === undefined) return;
    this.#locals.delete(id);
    this.#principals.delete(id);
    await local.server.close().catch(() => {});
  }

  async #sweep(): Promise<void> {
    const now = Date.now();
    for (const local of [...this.#locals.values()]) {
      if (local.busy > 0) {
        // An open stream keeps its session alive in the store.
        if (await this.#state.touchSession(local.id) === undefined) await this.#drop(local.id);
      } else if (now - local.lastUsed >= this.#state.limits.sessionIdleMs) {
        await this.#drop(local.id);
      }
    }
  }

  /** Closes every copy (the sessions stay in the store, for other instances). */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await Promise.allSettled([...this.#locals.keys()].map((id) => this.#drop(id)));
  }
}

/** No room on this instance for one more session copy. */
export class RoomError extends Error {
  constructor() {
    super("this instance has no room for another session; retry later");
    this.name = "RoomError";
  }
}
