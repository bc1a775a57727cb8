// Private: the direct path of a 2025-era `tools/call` over HTTP. Such a call
// only needs the gateway (argument check, deadline, forwarding, output check,
// access log) and its answer on the wire; a fresh SDK server and transport
// per request, with their schema passes and web streams, cost most of a
// forwarded call. A request qualifies only when everything the SDK would do
// with it is known here (its shape, headers and version are the ordinary
// ones); any other request takes the SDK's path. The answer is the SDK's to
// the byte: the same SSE event framing and headers, the result checked
// against the protocol's `CallToolResult` schema (once, and skipped for the
// plain shapes the schema passes unchanged), the same JSON-RPC error
// objects, and progress and logging notifications streamed as they come.

import { specTypeSchemas, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import type { McpCallResult } from "../run/mod.ts";
import { type CallContext, type Gateway, GatewayProtocolError } from "./gateway.ts";
import { keepAlive } from "./_keep_alive.ts";
import { isPlainObject, isRequestId, plainCallOf } from "./_plain_call.ts";
import { LEGACY_PLAIN, plainToolResult } from "./_plain_result.ts";
import { inSpan, markToolError } from "./_telemetry.ts";

/** A `tools/call` the direct path answers. */
export interface FastCall {
  /** The JSON-RPC request ID. */
  id: string | number;
  /** The served tool name. */
  name: string;
  /** The arguments (`{}` when absent). */
  args: Record<string, unknown>;
  /** The client's progress token, when it asked for progress. */
  progressToken?: string | number;
  /** The protocol version the request names (header), or undefined. */
  version: string | undefined;
}

const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;
/** The SDK's interval of SSE keep-alive comments on a request's stream. */
const KEEP_ALIVE_MS = 15_000;
/** The SDK's headers of a request's SSE stream. */
const SSE_HEADERS: Readonly<Record<string, string>> = {
  "Content-Type": "text/event-stream",
  "Cache-Control": "no-cache, no-transform",
  Connection: "keep-alive",
  "X-Accel-Buffering": "no",
};
/** The first protocol version of the era with a per-request envelope (the SDK's "modern" era). */
const FIRST_MODERN_VERSION = "2026-07-28";
/** Result keys that make the SDK leave a result without `content` as it is. */
const FOREIGN_RESULT_KEYS = ["task", "inputRequests", "requestState"];
const CALL_TOOL_RESULT = (specTypeSchemas as unknown as Record<string, {
  safeParse(value: unknown): { success: boolean; data?: unknown; error?: { message: string } };
}>).CallToolResult;

/**
 * The call, when `body` is a 2025-era `tools/call` of a served tool the
 * direct path answers exactly as the SDK would: a single request (no
 * batch) of the plain shape (name, optional arguments object, optional
 * `_meta` with only a progress token), headers the SDK accepts as they are
 * (both media types accepted, a JSON body, a supported protocol version),
 * 2025-era as the SDK's classifier finds it.
 */
export function fastCallOf(
  request: Request,
  body: unknown,
  served: (name: string) => boolean,
): FastCall | undefined {
  const call = plainCallOf(request, body, served);
  if (call === undefined) return undefined;
  const meta = call.meta;
  let progressToken: string | number | undefined;
  if (meta !== undefined) {
    if (!isPlainObject(meta)) return undefined;
    for (const key in meta) if (key !== "progressToken") return undefined;
    if (meta.progressToken !== undefined) {
      if (!isRequestId(meta.progressToken)) return undefined;
      progressToken = meta.progressToken;
    }
  }
  const headers = request.headers;
  const version = headers.get("mcp-protocol-version") ?? undefined;
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
  // What the SDK's classifier (`classifyInboundRequest`) says of this shape,
  // without its two schema passes that fail, building an error each, on
  // every request (a result or error response needs `result` or `error`,
  // which the body cannot hold): a JSON-RPC request without the envelope
  // claim (`_meta` holds a progress token at most) is 2025-era unless its
  // header names a later era's version. tests/serve/direct_call_test.ts
  // compares the two. The checks above imply the SDK's `JSONRPCRequest`
  // schema (strict keys, "2.0", an integer or string ID, a `_meta` of a
  // progress token at most), so its zod pass is not run again here (the
  // same test checks every body taken against it).
  if (version !== undefined && version >= FIRST_MODERN_VERSION) return undefined;
  return {
    id: call.id,
    name: call.name,
    args: call.args ?? {},
    ...(progressToken === undefined ? {} : { progressToken }),
    version,
  };
}

/**
 * The result as the SDK's server sends it: a plain result of text blocks
 * (the common case) is put in the schema's key order; any other shape goes
 * through the protocol's `CallToolResult` schema, whose output is what the
 * SDK sends (unknown keys of content blocks dropped, keys in schema order).
 * A result the schema refuses is the SDK's invalid-params error.
 */
export function wireResult(
  result: Record<string, unknown>,
): { result: Record<string, unknown> } | { error: { code: number; message: string } } {
  const plain = plainToolResult(result, LEGACY_PLAIN);
  if (plain !== undefined) return { result: plain };
  const normalized = result.content === undefined &&
      !FOREIGN_RESULT_KEYS.some((key) => key in result)
    ? { ...result, content: [] }
    : result;
  const parsed = CALL_TOOL_RESULT.safeParse(normalized);
  if (!parsed.success) {
    return {
      error: {
        code: INVALID_PARAMS,
        message: `Invalid tools/call result: ${parsed.error?.message}`,
      },
    };
  }
  return { result: parsed.data as Record<string, unknown> };
}

/** The JSON-RPC error the SDK sends for a failure of the handler (message and data scrubbed). */
function errorObject(
  error: unknown,
  gateway: Gateway,
): { code: number; message: string; data?: unknown } {
  if (error instanceof GatewayProtocolError) {
    return { code: legacyCode(error.code), message: gateway.redact(error.message) };
  }
  const e = error as { code?: unknown; message?: unknown; data?: unknown };
  const code = Number.isSafeInteger(e?.code) ? e.code as number : INTERNAL_ERROR;
  const message = gateway.redact(String(e?.message ?? error ?? "Internal error"));
  return {
    code: legacyCode(code),
    message,
    ...(e?.data === undefined ? {} : { data: gateway.scrub(e.data) }),
  };
}

/** The 2025 wire has no resource-not-found code: the SDK sends invalid params instead. */
function legacyCode(code: number): number {
  return code === -32002 ? INVALID_PARAMS : code;
}

function isInputRequiredResult(result: Record<string, unknown>): boolean {
  return result.resultType === "input_required";
}

/** Where the events of an answer go: the SDK's framing, and an ID per event when the session keeps them. */
export interface EventSink {
  /**
   * Stores an event of the stream (the message and its JSON as it goes on
   * the wire, serialised once for both) and returns its ID (sessions with
   * resumable streams).
   */
  store?(message: Record<string, unknown>, json: string): Promise<string>;
  /** The first event of the stream (a session's priming event), if any. */
  priming?(): Promise<string | undefined>;
}

/** What the direct path needs besides the call. */
export interface FastCallOptions {
  /** Who calls (access log, upstream shares). */
  caller: string;
  /** The session, for telemetry. */
  sessionId?: string;
  /** The capabilities the client declared (`{}` for a stateless request). */
  clientCapabilities: Readonly<Record<string, unknown>>;
  /** Aborts when the client goes away. */
  signal: AbortSignal;
  /** Extra response headers (a session's ID). */
  headers?: Readonly<Record<string, string>>;
  /** Event IDs and priming of a session's stream. */
  events?: EventSink;
  /** Whether a logging message of `level` passes the client's `logging/setLevel` threshold. */
  logs?: (level: string) => boolean;
  /** Called once the answer is complete or abandoned. */
  done(): void;
  /** Called once the call itself ended (it may outlive an abandoned answer). */
  settled?(): void;
}

/**
 * Answers a call: the gateway's result (or error) as the SDK's SSE answer.
 * Without notifications the whole answer is sent as one body once it is
 * known; the first notification (or the keep-alive interval) turns it into
 * a stream that carries them as they come.
 */
export async function answerFastCall(
  gateway: Gateway,
  call: FastCall,
  options: FastCallOptions,
): Promise<Response> {
  const encoder = new TextEncoder();
  const headers = { ...SSE_HEADERS, ...options.headers };
  let stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  let streamed: ((response: Response) => void) | undefined;
  let pending = "";
  let closed = false;
  const frame = async (message: Record<string, unknown>): Promise<string> => {
    const json = JSON.stringify(message);
    const id = await options.events?.store?.(message, json);
    return `event: message\n${id === undefined ? "" : `id: ${id}\n`}data: ${json}\n\n`;
  };
  const write = (text: string) => {
    if (closed) return;
    if (stream === undefined) {
      pending += text;
      return;
    }
    try {
      stream.enqueue(encoder.encode(text));
    } catch { /* the client went away */ }
  };
  let stopBeats: (() => void) | undefined;
  /** Turns the answer into a stream now (its headers go out). */
  const openStream = () => {
    if (stream !== undefined || streamed === undefined) return;
    const resolve = streamed;
    streamed = undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        stream = controller;
      },
      cancel() {
        closed = true;
        stopBeats?.();
        options.done();
      },
    });
    if (pending !== "") stream!.enqueue(encoder.encode(pending));
    pending = "";
    resolve(new Response(body, { status: 200, headers }));
  };
  // Notifications are written in the order they came, each after its ID is stored.
  let chain = Promise.resolve();
  const notify = (message: Record<string, unknown>) => {
    const framed = frame(message);
    chain = chain.then(async () => {
      const text = await framed.catch(() => undefined);
      if (text === undefined) return;
      openStream();
      write(text);
    });
  };

  const priming = options.events?.priming === undefined
    ? undefined
    : await options.events.priming();
  if (priming !== undefined) write(priming);

  const context: CallContext = {
    caller: options.caller,
    clientCapabilities: options.clientCapabilities,
    clientEra: "legacy",
    signal: options.signal,
    ...(call.progressToken === undefined ? {} : {
      onProgress: (p) =>
        notify({
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: gateway.scrub({ progressToken: call.progressToken, ...p }),
        }),
    }),
    onNotification: (n) => {
      if (n.method !== "notifications/message") return;
      const p = gateway.scrub(n.params ?? {});
      if (options.logs !== undefined && !options.logs(String(p.level))) return;
      notify({
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level: p.level, data: p.data, logger: p.logger },
      });
    },
    // A stateless 2025 request, or a session whose client offered no
    // sampling, elicitation or roots: the upstream was offered none of them.
    onRequest: (request) =>
      Promise.reject(
        Object.assign(new Error(`Method not found: ${request.method}`), { code: -32601 }),
      ),
  };

  return await new Promise<Response>((resolve) => {
    streamed = resolve;
    // A priming event is there for the client to resume from: it goes at once.
    if (pending !== "") openStream();
    stopBeats = keepAlive(KEEP_ALIVE_MS, () => {
      openStream();
      write(": keepalive\n\n");
    });
    void respond().then((text) => {
      options.settled?.();
      stopBeats!();
      if (stream === undefined) {
        // Done before anything had to be streamed: one body.
        streamed = undefined;
        options.done();
        resolve(new Response(pending + text, { status: 200, headers }));
        return;
      }
      write(text);
      if (closed) return;
      closed = true;
      try {
        stream.close();
      } catch { /* cancelled meanwhile */ }
      options.done();
    });
  });

  /** The framed last event: the result, or the JSON-RPC error. */
  async function respond(): Promise<string> {
    let message: Record<string, unknown>;
    try {
      const result = await inSpan({
        method: "tools/call",
        requestId: call.id,
        sessionId: options.sessionId,
        protocolVersion: call.version,
        transport: "tcp",
        target: call.name,
      }, async (span) => {
        const result = await gateway.callTool(call.name, call.args, context);
        if (result.isError === true) markToolError(span, "tool_error");
        return result;
      }, (text) => gateway.redact(text));
      message = encodeResult(gateway.scrub(result), call.id);
    } catch (error) {
      message = { jsonrpc: "2.0", id: call.id, error: errorObject(error, gateway) };
    }
    await chain;
    return await frame(message);
  }
}

/** The JSON-RPC response of a result (or of the error the schema or its kind gives). */
function encodeResult(result: McpCallResult, id: string | number): Record<string, unknown> {
  if (isInputRequiredResult(result)) {
    return {
      jsonrpc: "2.0",
      id,
      error: {
        code: INTERNAL_ERROR,
        message:
          "the upstream server asked for the client's input (an input-required result), which a " +
          "2025-era request without a session cannot answer; open a session (serve --sessions) " +
          "or speak MCP 2026-07-28",
      },
    };
  }
  const wire = wireResult(result);
  if ("error" in wire) return { jsonrpc: "2.0", id, error: wire.error };
  return { result: wire.result, jsonrpc: "2.0", id };
}
