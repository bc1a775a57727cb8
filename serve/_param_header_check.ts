// Private: serve's check of the `Mcp-Param-*` headers a 2026-07-28 client
// sends over Streamable HTTP. A served tool whose input schema declares
// `x-mcp-header` properties has each of those arguments mirrored into a
// header; serve reads the body, so it must check that every header matches
// the argument it mirrors and refuse the call otherwise, with HTTP 400 and
// JSON-RPC error -32020 (HeaderMismatch), before anything runs: a gateway or
// load balancer in front of serve may have routed the request on the header,
// and a call whose header says one thing and whose body another must not run.
// 2025-era requests have no such rule (their headers are not looked at), nor
// do tools without declarations.

import { PROTOCOL_VERSION_META_KEY } from "@modelcontextprotocol/server";
import {
  checkParamHeaders,
  HEADER_MISMATCH,
  type HeaderDeclaration,
  scanHeaderDeclarations,
} from "../run/mcp/param_headers.ts";

/** The first protocol version whose Streamable HTTP transport has custom headers. */
const MODERN = "2026-07-28";

/** Checks a request's headers against its body; a Response refuses it. */
export type ParamHeaderCheck = (request: Request, body: unknown) => Response | undefined;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The check for the served tools `definitions` (their `tools/list`
 * entries): each tool's valid declarations are read once. A tool whose
 * declarations are invalid has none checked (a 2026-07-28 client leaves it
 * out of its listing and never calls it with headers).
 */
export function paramHeaderCheck(
  definitions: readonly Record<string, unknown>[],
): ParamHeaderCheck {
  const declared = new Map<string, HeaderDeclaration[]>();
  for (const definition of definitions) {
    const scan = scanHeaderDeclarations(definition.inputSchema);
    if (scan.valid && scan.declarations.length > 0) {
      declared.set(String(definition.name), scan.declarations);
    }
  }
  return (request, body) => {
    if (declared.size === 0 || !isObject(body) || body.method !== "tools/call") return undefined;
    const params = body.params;
    if (!isObject(params)) return undefined;
    // The era is the body's: a 2026-07-28 request names its version in its envelope.
    const meta = params._meta;
    const version = isObject(meta) ? meta[PROTOCOL_VERSION_META_KEY] : undefined;
    if (typeof version !== "string" || version < MODERN) return undefined;
    const declarations = declared.get(String(params.name));
    if (declarations === undefined) return undefined;
    const fault = checkParamHeaders(declarations, params.arguments, request.headers);
    if (fault === undefined) return undefined;
    const id = typeof body.id === "string" || typeof body.id === "number" ? body.id : null;
    return Response.json({
      jsonrpc: "2.0",
      id,
      error: {
        code: HEADER_MISMATCH,
        message:
          `Bad Request: the request headers and body disagree: ${fault.message} (a client builds each Mcp-Param header from the argument its tool's x-mcp-header declaration names; list the tools again and retry)`,
        data: { header: fault.header, argument: fault.argument, reason: fault.kind },
      },
    }, { status: 400 });
  };
}
