// Private: the direct path of a 2026-07-28 `tools/call` over HTTP. Like the
// 2025-era one (serve/_fast_call.ts), it answers without a per-request SDK
// server and transport, with the SDK's bytes. Only what is proven equal is
// done here: a request of the plain shape (name, arguments, and an envelope
// of exactly protocol version, client info and client capabilities: no
// progress token, no log level, no request state or input responses, so no
// notification can turn the answer into a stream), the standard headers
// present and agreeing with the body, the era and envelope as the SDK's own
// classifier finds them. The answer is one JSON body: a plain result of text
// blocks gets the era's `resultType` and `serverInfo` here; any other
// outcome (another result shape, an input-required result, an error, a
// deadline) is handed to the SDK's modern path on a server whose
// `tools/call` handler returns that outcome, so the SDK validates and
// encodes it as it would have (the -32021 check of input requests against
// the envelope's capabilities included).

import {
  classifyInboundRequest,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  createMcpHandler,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
} from "@modelcontextprotocol/server";
import type { McpCallResult } from "../run/mod.ts";
import type { CallContext, Gateway } from "./gateway.ts";
import { createMcpServer, protocolError } from "./_mcp_server.ts";
import { isPlainObject, onlyKeys, plainCallOf } from "./_plain_call.ts";
import { LEGACY_PLAIN, plainToolResult } from "./_plain_result.ts";
import { inSpan, markToolError } from "./_telemetry.ts";

/** The protocol revision the direct path answers. */
const REVISION = "2026-07-28";
const METHOD_NOT_FOUND = -32601;
const ENVELOPE_KEYS = new Set([
  PROTOCOL_VERSION_META_KEY,
  CLIENT_INFO_META_KEY,
  CLIENT_CAPABILITIES_META_KEY,
]);
const CLIENT_INFO_KEYS = new Set(["name", "version", "title"]);
/** How many envelopes' verdicts {@linkcode EnvelopeVerdicts} keeps before it starts over. */
export const MAX_VERDICTS = 256;

/**
 * The SDK classifier's verdicts on 2026-07-28 envelopes, by the envelope's
 * JSON: a pure memo (the verdict depends on the envelope alone), held by the
 * handler that asks, at most {@linkcode MAX_VERDICTS} (cleared when full).
 */
export class EnvelopeVerdicts {
  readonly #verdicts = new Map<string, boolean>();

  /** How many verdicts are kept. */
  get size(): number {
    return this.#verdicts.size;
  }

  /** The verdict on an envelope, computed by `judge` when not kept. */
  get(key: string, judge: () => boolean): boolean {
    let verdict = this.#verdicts.get(key);
    if (verdict === undefined) {
      verdict = judge();
      if (this.#verdicts.size >= MAX_VERDICTS) this.#verdicts.clear();
      this.#verdicts.set(key, verdict);
    }
    return verdict;
  }
}

/** A 2026-07-28 `tools/call` the direct path answers. */
export interface ModernCall {
  /** The JSON-RPC request ID. */
  id: string | number;
  /** The served tool name. */
  name: string;
  /** The arguments (`{}` when absent). */
  args: Record<string, unknown>;
  /** The capabilities the envelope declares. */
  clientCapabilities: Record<string, unknown>;
}

/**
 * The call, when `body` is a 2026-07-28 `tools/call` of a served tool of the
 * plain shape the direct path answers exactly as the SDK would; otherwise
 * undefined (the SDK's path serves it).
 */
export function modernCallOf(
  request: Request,
  body: unknown,
  served: (name: string) => boolean,
  verdicts: EnvelopeVerdicts,
): ModernCall | undefined {
  const call = plainCallOf(request, body, served);
  if (call === undefined) return undefined;
  const { id, name, args, meta } = call;
  if (!isPlainObject(meta) || !onlyKeys(meta, ENVELOPE_KEYS)) return undefined;
  if (meta[PROTOCOL_VERSION_META_KEY] !== REVISION) return undefined;
  const info = meta[CLIENT_INFO_META_KEY];
  if (!isPlainObject(info) || !onlyKeys(info, CLIENT_INFO_KEYS)) return undefined;
  if (typeof info.name !== "string" || typeof info.version !== "string") return undefined;
  if (info.title !== undefined && typeof info.title !== "string") return undefined;
  const capabilities = meta[CLIENT_CAPABILITIES_META_KEY];
  if (!isPlainObject(capabilities)) return undefined;
  const headers = request.headers;
  // The standard headers present, exactly as the body says (no whitespace to strip).
  if (headers.get("mcp-protocol-version") !== REVISION) return undefined;
  if (headers.get("mcp-method") !== "tools/call" || headers.get("mcp-name") !== name) {
    return undefined;
  }
  // The SDK's own verdict on the era and the envelope (its schema checks of
  // client info and capabilities): anything but a plain modern request of
  // this revision is the SDK's to answer. With the headers and the shape
  // fixed as above, the verdict depends on the envelope's value only: kept
  // per envelope (its JSON), as a client sends the same one on every call.
  const modern = verdicts.get(JSON.stringify(meta), () => {
    const outcome = classifyInboundRequest({
      httpMethod: "POST",
      protocolVersionHeader: REVISION,
      mcpMethodHeader: "tools/call",
      mcpNameHeader: name,
      body,
    }) as { kind: string; classification?: { revision?: string } };
    return outcome.kind === "modern" && outcome.classification?.revision === REVISION;
  });
  if (!modern) return undefined;
  return { id, name, args: args ?? {}, clientCapabilities: capabilities };
}

/** How a call ended: its (scrubbed) result, or what it threw. */
type Outcome = { result: McpCallResult } | { error: unknown };

/** What {@linkcode answerModernCall} needs besides the call. */
export interface ModernCallOptions {
  /** Who calls (access log, upstream shares). */
  caller: string;
  /** The request (its signal aborts the call when the client goes away). */
  request: Request;
  /** Answers the request on the SDK's path for the given outcome (the replay). */
  replay(outcome: Outcome): Promise<Response>;
  /**
   * Called when the answer is made here, whole (its body needs no watching
   * for its end), not by the replay.
   */
  answered?(): void;
}

/** The SDK's answer to a request whose exchange closed before a response (the client went away). */
const GONE_STATUS = 499;

/**
 * Answers a 2026-07-28 call: the gateway's outcome as the SDK's JSON answer,
 * built here for a plain result and by the SDK (the replay) for any other.
 */
export async function answerModernCall(
  gateway: Gateway,
  call: ModernCall,
  serverInfo: Readonly<Record<string, unknown>>,
  options: ModernCallOptions,
): Promise<Response> {
  const signal = options.request.signal;
  const context: CallContext = {
    caller: options.caller,
    clientCapabilities: call.clientCapabilities,
    clientEra: "modern",
    signal,
    // No log level in the envelope: the SDK sends no logging message.
    onNotification: () => {},
    onRequest: (request) =>
      Promise.reject(
        Object.assign(
          new Error(
            `the client speaks MCP ${REVISION}, which has no server-to-client requests; serve turns an upstream's ${request.method} into an input-required result during tools/call only`,
          ),
          { code: METHOD_NOT_FOUND },
        ),
      ),
  };
  const work = (async (): Promise<Outcome> => {
    try {
      const result = await inSpan({
        method: "tools/call",
        requestId: call.id,
        protocolVersion: REVISION,
        transport: "tcp",
        target: call.name,
      }, async (span) => {
        const result = await gateway.callTool(call.name, call.args, context);
        if (result.isError === true) markToolError(span, "tool_error");
        return result;
      }, (text) => gateway.redact(text));
      return { result: gateway.scrub(result) };
    } catch (error) {
      return { error };
    }
  })();
  // The SDK's exchange ends when the client goes away: 499 at once, the call
  // cancelled through the same signal.
  let onAbort: (() => void) | undefined;
  const gone = new Promise<undefined>((resolve) => {
    onAbort = () => resolve(undefined);
    if (signal.aborted) resolve(undefined);
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  const outcome = await Promise.race([work, gone]);
  signal.removeEventListener("abort", onAbort!);
  if (outcome === undefined || signal.aborted) {
    options.answered?.();
    return new Response(null, { status: GONE_STATUS });
  }
  if ("result" in outcome && outcome.result.resultType === undefined) {
    const plain = plainToolResult(outcome.result, LEGACY_PLAIN);
    if (plain !== undefined) {
      const json = JSON.stringify({
        result: {
          ...plain,
          resultType: "complete",
          _meta: { [SERVER_INFO_META_KEY]: serverInfo },
        },
        jsonrpc: "2.0",
        id: call.id,
      });
      options.answered?.();
      return new Response(json, { status: 200, headers: { "Content-Type": "application/json" } });
    }
  }
  return await options.replay(outcome);
}

/** The SDK's modern path for outcomes known already: a handler of its own per replayed request. */
export interface ModernReplay {
  /** Answers `request` (its body parsed as `body`) with `outcome` on the SDK's path. */
  fetch(
    request: Request,
    body: unknown,
    authInfo: Record<string, unknown>,
    outcome: Outcome,
  ): Promise<Response>;
  /** Closes the handler. */
  close(): Promise<void>;
}

/** The server's identity as the SDK puts it in a 2026-07-28 result's `_meta`. */
export function serverInfoOf(options: { name?: string; version?: string }): {
  name: string;
  version: string;
} {
  return { name: options.name ?? "toolfoundation", version: options.version ?? "0.1.0" };
}

/**
 * A handler of the SDK whose servers are the gateway's (same identity,
 * capabilities and cache hints) with a `tools/call` handler that returns
 * (or throws, as the gateway's server does) a known outcome.
 */
export function createModernReplay(
  gateway: Gateway,
  serverOptions: { name?: string; version?: string; instructions?: string },
  maxRequestBodySize: number,
): ModernReplay {
  const outcomes = new WeakMap<Request, Outcome>();
  const handler = createMcpHandler((ctx) => {
    const server = createMcpServer(gateway, { ...serverOptions, transport: "tcp" });
    const outcome = outcomes.get(ctx.requestInfo as Request);
    server.setRequestHandler("tools/call", () => {
      if (outcome === undefined) throw new Error("a replayed call without its outcome");
      if ("error" in outcome) throw protocolError(outcome.error, gateway);
      // deno-lint-ignore no-explicit-any
      return outcome.result as any;
    });
    return server;
  }, { legacy: "reject", maxRequestBodySize, onerror: () => {} });
  return {
    fetch(request, body, authInfo, outcome) {
      outcomes.set(request, outcome);
      // deno-lint-ignore no-explicit-any
      return handler.fetch(request, { parsedBody: body, authInfo: authInfo as any });
    },
    close: () => handler.close(),
  };
}
