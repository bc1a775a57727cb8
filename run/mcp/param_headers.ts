/**
 * The custom `Mcp-Param-*` headers of the 2026-07-28 Streamable HTTP
 * transport, for both sides of a connection: a tool marks an input property
 * with `x-mcp-header: "Name"`, a client mirrors that argument of every
 * `tools/call` into an `Mcp-Param-Name` header (built here exactly as the
 * runner's MCP client builds it), and a server that reads the body checks
 * that every such header matches the argument it mirrors, refusing the call
 * with HTTP 400 and JSON-RPC error -32020 (`HeaderMismatch`) when it does not.
 *
 * The server's rules ({@linkcode checkParamHeaders}): a null or absent
 * argument expects no header (a header sent anyway is ignored); a present
 * argument needs its header; a value wrapped as `=?base64?…?=` is decoded
 * (canonical Base64 of UTF-8, else refused as malformed), any other value is
 * taken literally and must be visible ASCII; the decoded text must equal the
 * argument's header form (`true`/`false`, the decimal text of a number, the
 * string itself), and an integer-typed one may also be equal as a number
 * (`42.0` is `42`).
 *
 * @module
 */

import { isNonArrayObject } from "../../model/plain_object.ts";
import { type HeaderDeclaration, PARAM_HEADER_PREFIX } from "./_param_headers.ts";

export {
  type HeaderDeclaration,
  type HeaderScan,
  HeaderValueError,
  needsBase64,
  paramHeaders,
  scanHeaderDeclarations,
} from "./_param_headers.ts";
export { HEADER_MISMATCH, isHeaderMismatch, mirrorsHeaders } from "./_tool_headers.ts";
export { PARAM_HEADER_PREFIX };

/** Why a server refuses a call's `Mcp-Param-*` headers. */
export interface ParamHeaderFault {
  /** `missing`, `malformed` (bad Base64 or characters) or `mismatch`. */
  kind: "missing" | "malformed" | "mismatch";
  /** The header, e.g. `Mcp-Param-Region`. */
  header: string;
  /** The argument it mirrors, e.g. `region` or `where.region`. */
  argument: string;
  /** What is wrong, for the error message (values shortened). */
  message: string;
}

const SENTINEL_START = "=?base64?";
const SENTINEL_END = "?=";
/** Canonical Base64: the standard alphabet, padded to a multiple of four. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Visible ASCII and tab: what a literal header value may hold. */
const LITERAL = /^[\t\x20-\x7e]*$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;
/** How much of a value an error message quotes. */
const QUOTED = 64;

/** A value for an error message: JSON, cut after {@linkcode QUOTED} characters. */
function quote(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= QUOTED ? text : `${text.slice(0, QUOTED)}… (${text.length} characters)`;
}

/**
 * The text a header value carries: a `=?base64?…?=` value decoded (UTF-8),
 * any other value as it is; `undefined` for a malformed one (not canonical
 * Base64, not UTF-8, or a literal with characters outside visible ASCII).
 */
export function decodeHeaderValue(value: string): string | undefined {
  if (
    !(value.startsWith(SENTINEL_START) && value.endsWith(SENTINEL_END)) ||
    value.length < SENTINEL_START.length + SENTINEL_END.length
  ) {
    return LITERAL.test(value) ? value : undefined;
  }
  const payload = value.slice(SENTINEL_START.length, value.length - SENTINEL_END.length);
  if (!BASE64.test(payload)) return undefined;
  try {
    const binary = atob(payload);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** An argument's header form, or `undefined` for a value no header carries. */
function headerForm(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/**
 * Checks a call's `Mcp-Param-*` headers against its arguments, as a server
 * that reads the body must: the first fault, or `undefined` when every
 * declared argument that is present has a header that matches it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkParamHeaders } from "./param_headers.ts";
 *
 * const declarations = [{ path: ["region"], name: "Region" }];
 * const headers = new Headers({ "Mcp-Param-Region": "=?base64?ZXUtd2VzdA==?=" });
 * assert.equal(checkParamHeaders(declarations, { region: "eu-west" }, headers), undefined);
 * assert.equal(checkParamHeaders(declarations, { region: "us" }, headers)?.kind, "mismatch");
 * assert.equal(checkParamHeaders(declarations, { region: "us" }, new Headers())?.kind, "missing");
 * ```
 *
 * @param declarations The tool's header declarations (from {@linkcode scanHeaderDeclarations}).
 * @param args The call's `arguments`.
 * @param headers The request's headers.
 * @returns The first fault, or `undefined`.
 */
export function checkParamHeaders(
  declarations: readonly HeaderDeclaration[],
  args: unknown,
  headers: Headers,
): ParamHeaderFault | undefined {
  for (const declaration of declarations) {
    let value: unknown = args;
    for (const key of declaration.path) value = isNonArrayObject(value) ? value[key] : undefined;
    const form = headerForm(value);
    // Null or absent: no header is expected. An object or array has no header
    // form: the schema's own check refuses it.
    if (form === undefined) continue;
    const header = `${PARAM_HEADER_PREFIX}${declaration.name}`;
    const argument = declaration.path.join(".");
    const sent = headers.get(header);
    if (sent === null) {
      return {
        kind: "missing",
        header,
        argument,
        message: `the ${header} header is missing, but the arguments carry ${argument}=${
          quote(value)
        }`,
      };
    }
    const decoded = decodeHeaderValue(sent);
    if (decoded === undefined) {
      return {
        kind: "malformed",
        header,
        argument,
        message: `the ${header} header ${
          quote(sent)
        } is malformed: a value must be visible ASCII, or =?base64?…?= around canonical Base64 (padded) of UTF-8 text`,
      };
    }
    const equal = decoded === form ||
      (typeof value === "number" && DECIMAL.test(decoded) && Number(decoded) === value);
    if (!equal) {
      return {
        kind: "mismatch",
        header,
        argument,
        message: `the ${header} header carries ${
          quote(decoded)
        }, but the arguments carry ${argument}=${quote(value)}`,
      };
    }
  }
  return undefined;
}
