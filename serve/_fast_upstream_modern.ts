// Private: what the direct path of a `tools/call` (serve/_fast_upstream.ts)
// does differently on a 2026-07-28 connection, each piece taken from the
// connection's own SDK client so that the request and the reading of its
// answer are the client's: the `_meta` envelope (protocol version, client
// info, capabilities) is the client's own under the caller's `_meta` keys,
// the `Mcp-Protocol-Version` / `Mcp-Method` / `Mcp-Name` headers derive from
// the body as the SDK's transport derives them (the caller's `Mcp-Param-*`
// headers go with them, reserved names excepted), and a result is decoded
// and checked by the client's wire codec (`resultType`, an input-required
// result handed back as the SDK hands it to a caller that takes it; an
// omitted `resultType` read as "complete", as the connection reads it). A
// refusal before dispatch (HTTP 400 with the call's JSON-RPC error, e.g.
// -32020 or -32021) is the same error the SDK's client reports; serve's own
// -32020 retry (serve/_mcp_upstream_headers.ts) works on it unchanged.

import { ProtocolError, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { completedResult } from "../run/mcp/connection.ts";
import { needsBase64 } from "../run/mcp/param_headers.ts";
import { MODERN_PLAIN, plainToolResult } from "./_plain_result.ts";

/** The protocol revision whose requests carry the `_meta` envelope. */
export const MODERN_REVISION = "2026-07-28";
const VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
/** Header names the SDK's transport never takes from a caller's per-request headers. */
const RESERVED = new Set([
  "authorization",
  "dpop",
  "content-type",
  "mcp-protocol-version",
  "mcp-method",
  "mcp-name",
  "mcp-session-id",
]);

type Decoded =
  | { kind: "invalid"; error: Error }
  | {
    kind: "input_required";
    inputRequests: Record<string, unknown>;
    requestState?: string;
    _meta?: Record<string, unknown>;
  }
  | { kind: "complete"; result: Record<string, unknown> };

type Validated = { ok: true; value: unknown } | { ok: false; reason: string; message?: string };

/** The members of the SDK's client (2.4) the modern direct path reads. */
export interface ModernClient {
  _outboundMetaEnvelope(): Record<string, unknown> | undefined;
  _wireCodec(): {
    era: string;
    decodeResult(method: string, raw: unknown): Decoded;
    validateResult(method: string, raw: unknown): Validated;
  };
}

/** The client's modern-era members, or undefined when this SDK has none (the SDK's path then). */
export function modernClient(client: unknown): ModernClient | undefined {
  const c = client as Partial<ModernClient> | undefined;
  if (typeof c?._outboundMetaEnvelope !== "function" || typeof c._wireCodec !== "function") {
    return undefined;
  }
  return c._wireCodec().era === MODERN_REVISION ? c as ModernClient : undefined;
}

/**
 * The params as the SDK's client sends them (its envelope first, the
 * caller's `_meta` keys over it), or undefined when it has no envelope.
 */
export function envelopedParams(
  client: ModernClient,
  params: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const envelope = client._outboundMetaEnvelope();
  if (envelope === undefined) return undefined;
  return { ...params, _meta: { ...envelope, ...(params._meta as object | undefined) } };
}

/**
 * Adds the body-derived headers of a `tools/call` with `params` (already
 * enveloped) and the caller's `extra` headers, as the SDK's transport does;
 * false (nothing sent) for a tool name the SDK would send Base64-encoded.
 */
export function addModernHeaders(
  headers: Record<string, string>,
  params: Record<string, unknown>,
  extra: Record<string, string> | undefined,
): boolean {
  const version = (params._meta as Record<string, unknown> | undefined)?.[VERSION_KEY];
  if (typeof version === "string") {
    headers["mcp-protocol-version"] = version;
    headers["mcp-method"] = "tools/call";
    if (typeof params.name === "string") {
      if (needsBase64(params.name)) return false;
      headers["mcp-name"] = params.name;
    }
  }
  for (const name in extra) {
    const lower = name.toLowerCase();
    if (!RESERVED.has(lower)) headers[lower] = extra[name];
  }
  return true;
}

/** The headers of a response or notification posted during the call (no request headers). */
export function followUpHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    if (name !== "mcp-method" && name !== "mcp-name" && !name.startsWith("mcp-param-")) {
      out[name] = headers[name];
    }
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The result of a 2026-07-28 response, decoded and checked by the client's codec. */
export function modernResult(
  client: ModernClient,
  message: Record<string, unknown>,
): Record<string, unknown> {
  const error = message.error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
  if (error !== undefined) {
    throw ProtocolError.fromError(Number(error.code), String(error.message), error.data);
  }
  // Read as the connection reads every 2026-07-28 result (an omitted
  // `resultType` is "complete": run/mcp's lenient bridge), then as the SDK does.
  const raw = isPlainObject(message.result)
    ? completedResult("tools/call", message.result)
    : message.result;
  // The common plain shape as the codec would return it (a test compares both).
  const plain = plainToolResult(raw, MODERN_PLAIN);
  if (plain !== undefined) return plain;
  const codec = client._wireCodec();
  const decoded = codec.decodeResult("tools/call", raw);
  if (decoded.kind === "invalid") throw decoded.error;
  if (decoded.kind === "input_required") {
    // What the SDK gives a caller that takes input-required results itself.
    return {
      resultType: "input_required",
      inputRequests: decoded.inputRequests,
      ...(decoded.requestState === undefined ? {} : { requestState: decoded.requestState }),
      ...(decoded._meta === undefined ? {} : { _meta: decoded._meta }),
    };
  }
  const checked = codec.validateResult("tools/call", decoded.result);
  if (checked.ok) return checked.value as Record<string, unknown>;
  throw new SdkError(
    SdkErrorCode.InvalidResult,
    `Invalid result for tools/call: ${
      checked.reason === "invalid" ? checked.message : "not-in-era: tools/call"
    }`,
  );
}

/**
 * The call's JSON-RPC error in a 400 answer's body, as the SDK's transport
 * delivers it for a 2026-07-28 request; undefined for any other body (the
 * SDK's path then reads it).
 */
export function refusalOf(text: string, id: string): ProtocolError | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const m = parsed as Record<string, unknown>;
  if (typeof m !== "object" || m === null || Array.isArray(m)) return undefined;
  if (m.jsonrpc !== "2.0" || m.id !== id || Object.keys(m).length !== 3) return undefined;
  const e = m.error as Record<string, unknown>;
  if (typeof e !== "object" || e === null || Array.isArray(e)) return undefined;
  if (!Number.isSafeInteger(e.code) || typeof e.message !== "string") return undefined;
  for (const key in e) if (key !== "code" && key !== "message" && key !== "data") return undefined;
  return ProtocolError.fromError(e.code as number, e.message, e.data);
}
