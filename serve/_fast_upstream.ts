// Private: the direct path of a `tools/call` to a Streamable HTTP upstream.
// The connection stays the SDK's (its initialize or discovery, session, era,
// OAuth provider and standalone stream); only the call itself is posted
// here, over our own keep-alive HTTP/1.1 connections (`http:`) or `fetch`
// (`https:`), and its answer (a JSON body or an SSE stream) read here: one
// parse per message, no schema pass over the envelope, no web-stream
// pipeline. The request carries what the SDK's transport would put on it
// (the configured headers, the provider's bearer token, the session, the
// protocol version; on a 2026-07-28 connection the client's `_meta` envelope
// and the `Mcp-*` headers: serve/_fast_upstream_modern.ts). A 2025-era
// result is checked against the protocol's `CallToolResult` schema and put
// in its shape, a 2026-07-28 one decoded by the client's own codec, as the
// SDK's client would. Progress and logging of the call reach the caller as
// they come, a server-to-client request is answered by `onRequest` (or
// refused), and a cancelled call is cancelled as the SDK cancels it
// (`notifications/cancelled` in the 2025 era, the request's stream closed in
// the 2026-07-28 one). Whatever the SDK does besides (a refused or
// insufficient token and its refresh or step-up, a redirect, a session the
// server forgot, DPoP) is left to it: an answer that needs it is refused with
// `Undelivered` before the server ran anything, and the caller sends the
// call through the SDK instead.

import { ProtocolError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import { type McpServerConfig, OutputTooLargeError } from "../run/mod.ts";
import type { Connection } from "../run/mcp/connection.ts";
import { wireResult } from "./_fast_call.ts";
import type { Http1Response } from "./_http1_answer.ts";
import { Http1Pool } from "./_http1_client.ts";
import type { UpstreamCallContext } from "./upstream.ts";
import {
  addModernHeaders,
  envelopedParams,
  followUpHeaders,
  MODERN_REVISION,
  modernClient,
  modernResult,
  refusalOf,
} from "./_fast_upstream_modern.ts";

/** The call was not delivered (the server ran nothing): send it the SDK's way. */
export class Undelivered extends Error {
  /** Creates the instance. */
  constructor(reason: string) {
    super(`not sent directly: ${reason}`);
    this.name = "Undelivered";
  }
}

const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
/** Statuses the SDK's transport handles itself (auth, session, redirects, negotiation). */
const SDK_STATUSES = new Set([300, 301, 302, 303, 307, 308, 400, 401, 403, 404, 405, 406, 415]);
/** Statuses whose Retry-After is reported (as run/mcp's HTTP bodies do). */
const RETRY_AFTER_STATUS = new Set([429, 502, 503, 504]);
let nextId = 0;
/**
 * Whether a plain-HTTP upstream is posted to over our own HTTP/1.1 client
 * (tests turn it off to run the `fetch` path an `https:` upstream takes),
 * and whether the direct path is taken at all (tests turn it off to compare
 * with the SDK's client on the same kind of connection).
 */
export const directOptions: { ownClient: boolean; enabled: boolean } = {
  ownClient: true,
  enabled: true,
};
const encoder = new TextEncoder();
/** What `fetch` sends by itself, sent here too: servers see the same request. */
const USER_AGENT = `Deno/${Deno.version.deno}`;
/** Parsed upstream URLs (a few per process; only read, never changed). */
const urls = new Map<string, URL>();

function urlOf(text: string): URL {
  let url = urls.get(text);
  if (url === undefined) {
    url = new URL(text);
    if (urls.size >= 64) urls.clear();
    urls.set(text, url);
  }
  return url;
}

/** The keep-alive connections of each SDK connection, closed with it. */
const pools = new WeakMap<Connection, Http1Pool>();

function poolOf(connection: Connection): Http1Pool {
  let pool = pools.get(connection);
  if (pool === undefined) {
    const created = new Http1Pool();
    pool = created;
    pools.set(connection, created);
    connection.bodies?.onclose.add(() => created.close());
  }
  return pool;
}

/** An answer of the server, read the same way over `fetch` or our own client. */
interface Answer {
  readonly status: number;
  /** The reason phrase (our own client keeps none: the standard one for 400). */
  readonly statusText: string;
  header(name: string): string | null;
  /** The next bytes of the body (valid until the next read), `null` at its end. */
  read(): Promise<Uint8Array | null>;
  /** The whole body; {@linkcode OutputTooLargeError} past `max`. */
  bytes(max: number): Promise<Uint8Array>;
  /** Drops the body (the connection is not reused). */
  cancel(): void;
  /** The call's answer is read: the rest of the body is not needed. */
  done(): void;
}

function fromHttp1(response: Http1Response): Answer {
  return {
    status: response.status,
    statusText: response.status === 400 ? "Bad Request" : "",
    header: (name) => response.headers.get(name) ?? null,
    read: () => response.read(),
    bytes: (max) => response.bytes(max, () => new OutputTooLargeError(max)),
    cancel: () => response.cancel(),
    done: () => response.discard(),
  };
}

function fromFetch(response: Response): Answer {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return {
    status: response.status,
    statusText: response.statusText,
    header: (name) => response.headers.get(name),
    async read() {
      reader ??= response.body!.getReader();
      const { value, done } = await reader.read();
      return done ? null : value;
    },
    async bytes(max) {
      const length = Number(response.headers.get("content-length") ?? NaN);
      if (length > max) {
        await response.body?.cancel().catch(() => {});
        throw new OutputTooLargeError(max);
      }
      const bytes = new Uint8Array(await response.arrayBuffer());
      if (bytes.length > max) throw new OutputTooLargeError(max);
      return bytes;
    },
    cancel() {
      (reader?.cancel() ?? response.body?.cancel())?.catch(() => {});
    },
    done() {
      (reader?.cancel() ?? response.body?.cancel())?.catch(() => {});
    },
  };
}

/** The SDK transport's members read here (2.4: its session, version and adapted auth provider). */
interface HttpTransport {
  sessionId?: string;
  protocolVersion?: string;
  _authProvider?: { token?: () => Promise<string | undefined> };
  _oauthProvider?: { dpop?: () => Promise<unknown> };
}

/**
 * Whether a call over this connection can take the direct path: a
 * Streamable HTTP connection of the 2025 era, or of the 2026-07-28 era for
 * a caller that takes input-required results itself (the SDK's client would
 * otherwise answer them with another round of requests).
 */
export function directCapable(
  config: McpServerConfig,
  connection: Connection,
  context?: UpstreamCallContext,
): boolean {
  if (
    config.transport !== "http" || !directOptions.enabled || connection.closed ||
    connection.lostError !== undefined
  ) {
    return false;
  }
  const transport = connection.transport as unknown as HttpTransport;
  const dpop = transport._oauthProvider?.dpop;
  if (dpop !== undefined && typeof dpop !== "function") return false;
  if (config.authProvider !== undefined && typeof transport._authProvider?.token !== "function") {
    return false;
  }
  const version = transport.protocolVersion;
  if (typeof version !== "string") return false;
  if (version < MODERN_REVISION) return true;
  return version === MODERN_REVISION && context?.returnInputRequired === true &&
    modernClient(connection.client) !== undefined;
}

function headersOf(
  config: McpServerConfig & { transport: "http" },
  transport: HttpTransport,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name in config.headers) headers[name.toLowerCase()] = config.headers[name];
  if (transport.sessionId !== undefined) headers["mcp-session-id"] = transport.sessionId;
  headers["mcp-protocol-version"] = transport.protocolVersion!;
  headers["content-type"] = "application/json";
  headers["accept"] = acceptOf(headers["accept"]);
  headers["accept-encoding"] ??= "identity";
  headers["user-agent"] ??= USER_AGENT;
  return headers;
}

/**
 * Puts the bearer token the SDK's transport would send on `headers`: the
 * same provider, asked the same way; throws for a provider with a DPoP
 * session (each request needs a proof the SDK's fetch makes).
 */
async function addToken(headers: Record<string, string>, transport: HttpTransport): Promise<void> {
  const token = await transport._authProvider!.token!();
  if (token) headers["authorization"] = `Bearer ${token}`;
  if (await transport._oauthProvider?.dpop?.()) throw new Error("a DPoP session");
}

/** A configured Accept with the two types the SDK's transport adds (once each). */
function acceptOf(configured: string | undefined): string {
  if (configured === undefined) return "application/json, text/event-stream";
  const types = [
    ...configured.split(",").map((s) => s.trim().toLowerCase()),
    "application/json",
    "text/event-stream",
  ];
  return [...new Set(types)].join(", ");
}

/**
 * Sends `tools/call` with `params` over the connection's session and
 * returns its result, as the SDK's client would; progress of the call is
 * asked for under `progressToken` when the caller takes it; `extra` headers
 * (a call's `Mcp-Param-*`) go on a 2026-07-28 request; `tally.posted`
 * counts the calls posted.
 *
 * @throws {Undelivered} when the server answered with what only the SDK handles; nothing ran.
 */
export async function directCall(
  config: McpServerConfig,
  connection: Connection,
  params: Record<string, unknown>,
  context: UpstreamCallContext,
  signal: AbortSignal,
  progressToken?: string,
  extra?: Record<string, string>,
  tally?: { posted: number },
): Promise<Record<string, unknown>> {
  const http = config as McpServerConfig & { transport: "http" };
  const transport = connection.transport as unknown as HttpTransport;
  const max = config.maxOutputBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const headers = headersOf(http, transport);
  if (http.authProvider !== undefined) {
    try {
      await addToken(headers, transport);
    } catch (error) {
      // The SDK asks the provider again, and fails (or not) its own way.
      throw new Undelivered(`no token: ${(error as Error)?.message ?? error}`);
    }
  }
  const id = `tf-${++nextId}`;
  const token = context.onProgress === undefined ? undefined : progressToken ?? `${id}-progress`;
  let sent = token === undefined
    ? params
    : { ...params, _meta: { ...(params._meta as object | undefined), progressToken: token } };
  const modern = transport.protocolVersion === MODERN_REVISION
    ? modernClient(connection.client)
    : undefined;
  let followUp = headers;
  if (modern !== undefined) {
    const enveloped = envelopedParams(modern, sent);
    if (enveloped === undefined) throw new Undelivered("the client has no 2026-07-28 envelope");
    sent = enveloped;
    if (!addModernHeaders(headers, sent, extra)) {
      throw new Undelivered("a tool name sent Base64-encoded");
    }
    followUp = followUpHeaders(headers);
  }
  const url = urlOf(String(http.url));
  const pool = url.protocol === "http:" && directOptions.ownClient ? poolOf(connection) : undefined;
  const post = async (
    message: Record<string, unknown>,
    signal?: AbortSignal,
    using = followUp,
  ): Promise<Answer> => {
    const body = JSON.stringify(message);
    if (pool !== undefined) {
      return fromHttp1(
        await pool.request(url, {
          method: "POST",
          headers: using,
          body: encoder.encode(body),
          signal,
        }),
      );
    }
    return fromFetch(
      await fetch(url, {
        method: "POST",
        headers: using,
        body,
        redirect: "manual",
        ...(signal === undefined ? {} : { signal }),
      }),
    );
  };
  let response: Answer;
  if (tally !== undefined) tally.posted++;
  try {
    // Key order as the SDK's client builds the message.
    response = await post(
      modern === undefined
        ? { jsonrpc: "2.0", id, method: "tools/call", params: sent }
        : { method: "tools/call", params: sent, jsonrpc: "2.0", id },
      signal,
      headers,
    );
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw error;
  }
  if (modern !== undefined && response.status === 400) {
    // A 2026-07-28 server refuses a request before dispatch with its
    // JSON-RPC error in a 400 (-32020, -32021, ...): the SDK's client reports
    // that error, and any other 400 as the SDK's transport does (not sent
    // again: the server saw the call once, as on the SDK's path).
    const text = await response.bytes(max).then(
      (bytes) => new TextDecoder().decode(bytes),
      () => null, // the SDK's transport reads an unreadable body as null
    );
    throw (text === null ? undefined : refusalOf(text, id)) ?? new SdkHttpError(
      SdkErrorCode.ClientHttpNotImplemented,
      `Error POSTing to endpoint: ${text}`,
      { status: 400, statusText: response.statusText, text },
    );
  }
  if (SDK_STATUSES.has(response.status)) {
    response.cancel();
    throw new Undelivered(`HTTP ${response.status}`);
  }
  if (response.status < 200 || response.status > 299) {
    const text = await response.bytes(DEFAULT_MAX_MESSAGE_BYTES).then(
      (bytes) => new TextDecoder().decode(bytes),
      () => "",
    );
    const retryAfter = response.header("retry-after");
    if (retryAfter !== null && RETRY_AFTER_STATUS.has(response.status)) {
      // As the connection's own fetch reports it: the server says when to try again.
      const body = text.slice(0, 200);
      throw new Error(
        `HTTP ${response.status}${body === "" ? "" : `: ${body}`} (Retry-After: ${retryAfter})`,
      );
    }
    throw new Error(`Error POSTing to endpoint (HTTP ${response.status}): ${text}`);
  }
  const cancel = () => {
    // As the SDK does: the server is told, and stops the call (in the
    // 2026-07-28 era the request's stream closes with the signal instead).
    void post({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: id, reason: String(signal.reason) },
    }).then((r) => r.done()).catch(() => {});
  };
  if (modern === undefined) signal.addEventListener("abort", cancel, { once: true });
  try {
    const type = response.header("content-type") ?? "";
    const answer = type.includes("text/event-stream")
      ? await fromStream(response, id, max, {
        onProgress: (p) => {
          if (p.progressToken !== token) return;
          context.onProgress?.({
            progress: p.progress as number,
            ...(p.total === undefined ? {} : { total: p.total as number }),
            ...(p.message === undefined ? {} : { message: p.message as string }),
          });
        },
        onNotification: (n) => void context.onNotification?.(n),
        onRequest: (request) => answerRequest(request, context, post),
      })
      : fromJson(new TextDecoder().decode(await response.bytes(max)), id);
    return modern === undefined ? resultOf(answer) : modernResult(modern, answer);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw error;
  } finally {
    signal.removeEventListener("abort", cancel);
  }
}

/** The result of the call's response, or its JSON-RPC error as the SDK's client throws it. */
export function resultOf(message: Record<string, unknown>): Record<string, unknown> {
  const error = message.error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
  if (error !== undefined) {
    throw ProtocolError.fromError(Number(error.code), String(error.message), error.data);
  }
  const result = message.result;
  if (typeof result !== "object" || result === null || Array.isArray(result)) {
    throw new Error(`the server answered tools/call with a result that is not an object`);
  }
  const wire = wireResult(result as Record<string, unknown>);
  if ("error" in wire) throw new Error(wire.error.message);
  return wire.result;
}

function fromJson(text: string, id: string): Record<string, unknown> {
  const parsed = JSON.parse(text);
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  const answer = messages.find((m) => m?.id === id && ("result" in m || "error" in m));
  if (answer === undefined) {
    throw new Error("the server's JSON answer holds no response to the call");
  }
  return answer;
}

interface Handlers {
  onProgress(params: Record<string, unknown>): void;
  onNotification(notification: { method: string; params?: Record<string, unknown> }): void;
  onRequest(request: Record<string, unknown>): void;
}

/** Reads the SSE answer until the call's response; hands on what comes before it. */
async function fromStream(
  response: Answer,
  id: string,
  max: number,
  handlers: Handlers,
): Promise<Record<string, unknown>> {
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  let eventBytes = 0;
  try {
    while (true) {
      const value = await response.read();
      if (value === null) throw new Error("the server closed the call's stream before answering");
      buffer += decoder.decode(value, { stream: true });
      let start = 0;
      for (let nl = buffer.indexOf("\n", start); nl >= 0; nl = buffer.indexOf("\n", start)) {
        let line = buffer.slice(start, nl);
        start = nl + 1;
        if (line.endsWith("\r")) line = line.slice(0, -1);
        if (line === "") {
          if (data.length > 0) {
            const message = JSON.parse(data.join("\n"));
            data = [];
            eventBytes = 0;
            if (message?.id === id && ("result" in message || "error" in message)) {
              response.done();
              return message;
            }
            dispatch(message, handlers);
          }
          continue;
        }
        eventBytes += line.length;
        if (eventBytes > max) throw new OutputTooLargeError(max);
        if (line.startsWith("data:")) {
          data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
        }
      }
      buffer = buffer.slice(start);
      if (eventBytes + buffer.length > max) throw new OutputTooLargeError(max);
    }
  } catch (error) {
    response.cancel();
    throw error;
  }
}

function dispatch(message: Record<string, unknown>, handlers: Handlers): void {
  if (typeof message?.method !== "string") return;
  const params = (message.params ?? {}) as Record<string, unknown>;
  if (message.id !== undefined) {
    handlers.onRequest(message);
  } else if (message.method === "notifications/progress") {
    handlers.onProgress(params);
  } else {
    handlers.onNotification({ method: message.method, params });
  }
}

/** Answers a server-to-client request of the call with a POST of the response. */
function answerRequest(
  request: Record<string, unknown>,
  context: UpstreamCallContext,
  post: (message: Record<string, unknown>) => Promise<Answer>,
): void {
  const reply = async () => {
    try {
      if (context.onRequest === undefined) {
        throw Object.assign(new Error("Method not found"), { code: -32601 });
      }
      const result = await context.onRequest({
        method: String(request.method),
        params: (request.params ?? {}) as Record<string, unknown>,
      });
      return { jsonrpc: "2.0", id: request.id, result };
    } catch (error) {
      const e = error as { code?: unknown; message?: unknown; data?: unknown };
      return {
        jsonrpc: "2.0",
        id: request.id,
        error: {
          code: Number.isSafeInteger(e?.code) ? e.code : -32603,
          message: String(e?.message ?? "Internal error"),
          ...(e?.data === undefined ? {} : { data: e.data }),
        },
      };
    }
  };
  void reply().then((message) => post(message)).then((r) => r.done()).catch(() => {});
}
