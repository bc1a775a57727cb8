// Private: the shape both direct paths (serve/_fast_call.ts for the 2025
// era, serve/_fast_call_modern.ts for 2026-07-28) require of a `tools/call`
// before they look at its era: a single JSON-RPC request of a served tool,
// with only the keys the protocol defines, and headers the SDK accepts as
// they are. Anything else is the SDK's to answer.

import { isJsonContentType } from "@modelcontextprotocol/server";

const BODY_KEYS = new Set(["jsonrpc", "id", "method", "params"]);
const PARAM_KEYS = new Set(["name", "arguments", "_meta"]);

/** A `tools/call` of the plain shape, its `_meta` not yet looked at. */
export interface PlainCall {
  /** The JSON-RPC request ID. */
  id: string | number;
  /** The served tool name. */
  name: string;
  /** The arguments, when given (an object). */
  args: Record<string, unknown> | undefined;
  /** `params._meta` as sent (each era checks its own). */
  meta: unknown;
}

/** Whether `value` is an object literal's kind of object (what `JSON.parse` makes). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Whether every enumerable key of `value` is one of `allowed`. */
export function onlyKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

/** Whether `value` is a JSON-RPC request ID the SDK accepts (a string or a safe integer). */
export function isRequestId(value: unknown): value is string | number {
  return typeof value === "string" || Number.isSafeInteger(value);
}

/**
 * The call, when `body` is a single POSTed `tools/call` of a served tool
 * with only the protocol's keys, an arguments object or none, both media
 * types accepted and a JSON body; otherwise undefined.
 */
export function plainCallOf(
  request: Request,
  body: unknown,
  served: (name: string) => boolean,
): PlainCall | undefined {
  if (request.method !== "POST" || !isPlainObject(body)) return undefined;
  if (body.jsonrpc !== "2.0" || body.method !== "tools/call" || !isRequestId(body.id)) {
    return undefined;
  }
  if (!onlyKeys(body, BODY_KEYS)) return undefined;
  const params = body.params;
  if (!isPlainObject(params) || !onlyKeys(params, PARAM_KEYS)) return undefined;
  const name = params.name;
  if (typeof name !== "string" || !served(name)) return undefined;
  const args = params.arguments;
  if (args !== undefined && !isPlainObject(args)) return undefined;
  const headers = request.headers;
  const accept = headers.get("accept");
  if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) {
    return undefined;
  }
  if (!isJsonContentType(headers.get("content-type"))) return undefined;
  return { id: body.id, name, args, meta: params._meta };
}
