// Private: the custom headers of the 2026-07-28 Streamable HTTP transport. A
// tool marks an input property with `x-mcp-header: "Name"`; every `tools/call`
// of that tool then carries the argument's value in an `Mcp-Param-Name`
// header too, so that gateways and load balancers can route on it without
// reading the body. The server checks that the headers match the body and
// refuses the call when they do not (-32020), so the client must build them
// exactly by the specification's rules:
// - a declaration is valid only on a property reached from the root through
//   `properties` alone (not under items, additionalProperties, a composition,
//   a condition, `$defs` or `$ref`), with a non-empty RFC 9110 token as name,
//   on a `string`, `integer` or `boolean` property, and names unique without
//   regard to case; a tool with any invalid declaration is excluded from the
//   listing (it could never be called correctly);
// - a null or absent argument sends no header; a boolean is `true`/`false`,
//   a number its JSON text, a string itself unless it is not plain visible
//   ASCII (or is empty, has surrounding whitespace, or looks like the
//   sentinel), in which case it is sent as `=?base64?<UTF-8 in base64>?=`.
// A value that has no such form (an object, an array, a string with an
// unpaired surrogate, which has no UTF-8 form) is refused before sending:
// sent without its header the call would be refused by the server anyway.

import { isNonArrayObject } from "../../model/plain_object.ts";

/** The prefix of every custom parameter header. */
export const PARAM_HEADER_PREFIX = "Mcp-Param-";

const DECLARATION = "x-mcp-header";

/** RFC 9110 `token`: one or more tchar (no space, control character or delimiter). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

const HEADER_TYPES: ReadonlySet<string> = new Set(["string", "integer", "boolean"]);

/** Keywords whose subschemas are not reached through `properties` alone (single, array or map). */
const UNREACHABLE = [
  "items",
  "prefixItems",
  "contains",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "propertyNames",
  "patternProperties",
  "dependentSchemas",
  "oneOf",
  "anyOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "$defs",
  "definitions",
] as const;

const MAPS: ReadonlySet<string> = new Set([
  "patternProperties",
  "dependentSchemas",
  "$defs",
  "definitions",
]);

/** One header declaration: the argument's path from the root and the header's name. */
export interface HeaderDeclaration {
  /** Property names from the root of `arguments`. */
  path: string[];
  /** The name after `Mcp-Param-`, as declared. */
  name: string;
}

/** The declarations of a tool, or why they are invalid. */
export type HeaderScan =
  | { valid: true; declarations: HeaderDeclaration[] }
  | { valid: false; reason: string };

function where(path: readonly string[]): string {
  return path.length === 0 ? "the schema's root" : `property ${JSON.stringify(path.join("."))}`;
}

/** Reads every `x-mcp-header` declaration of an input schema and checks it. */
export function scanHeaderDeclarations(inputSchema: unknown): HeaderScan {
  const declarations: HeaderDeclaration[] = [];
  const seen = new Map<string, string>();
  const visit = (node: unknown, path: string[], reachable: boolean): string | undefined => {
    if (!isNonArrayObject(node)) return undefined;
    if (DECLARATION in node) {
      const name = node[DECLARATION];
      if (!reachable || path.length === 0) {
        return `${
          where(path)
        }: x-mcp-header is allowed only on a property reached from the root through "properties" alone (not under items, additionalProperties, oneOf/anyOf/allOf/not, if/then/else, $defs or $ref)`;
      }
      if (typeof name !== "string" || name === "") {
        return `${where(path)}: x-mcp-header must be a non-empty string (got ${
          JSON.stringify(name)
        })`;
      }
      if (!TOKEN.test(name)) {
        return `${where(path)}: x-mcp-header ${
          JSON.stringify(name)
        } is not an HTTP token (RFC 9110: visible ASCII without spaces, control characters or delimiters such as ":")`;
      }
      const type = node.type;
      if (typeof type !== "string" || !HEADER_TYPES.has(type)) {
        return `${
          where(path)
        }: x-mcp-header is allowed only on a string, integer or boolean property (got type ${
          JSON.stringify(type ?? null)
        })`;
      }
      const lower = name.toLowerCase();
      const earlier = seen.get(lower);
      if (earlier !== undefined) {
        return `${where(path)}: x-mcp-header ${JSON.stringify(name)} repeats ${
          JSON.stringify(earlier)
        } (header names are compared without regard to case)`;
      }
      seen.set(lower, name);
      declarations.push({ path, name });
    }
    if (isNonArrayObject(node.properties)) {
      for (const [key, child] of Object.entries(node.properties)) {
        const fault = visit(child, [...path, key], reachable);
        if (fault !== undefined) return fault;
      }
    }
    for (const keyword of UNREACHABLE) {
      const sub = node[keyword];
      if (sub === undefined) continue;
      const branches = Array.isArray(sub)
        ? sub
        : MAPS.has(keyword) && isNonArrayObject(sub)
        ? Object.values(sub)
        : [sub];
      for (const branch of branches) {
        const fault = visit(branch, [...path, `<${keyword}>`], false);
        if (fault !== undefined) return fault;
      }
    }
    return undefined;
  };
  const fault = visit(inputSchema, [], true);
  return fault === undefined ? { valid: true, declarations } : { valid: false, reason: fault };
}

const SENTINEL_START = "=?base64?";
const SENTINEL_END = "?=";

/** Whether a header value is sent Base64-encoded (else as it is): the SDK's rule. */
export function needsBase64(text: string): boolean {
  if (text === "" || text !== text.trim()) return true;
  if (text.startsWith(SENTINEL_START) && text.endsWith(SENTINEL_END)) return true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 9 && (c < 32 || c > 126)) return true;
  }
  return false;
}

function base64Utf8(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** A string with an unpaired surrogate (no UTF-8 form: it would arrive altered). */
function unpaired(text: string): boolean {
  return !text.isWellFormed();
}

/** Why an argument cannot be sent as a header (the call is refused). */
export class HeaderValueError extends Error {
  /** The header's name after `Mcp-Param-`. */
  readonly header: string;
  /** The argument's path. */
  readonly path: string;
  constructor(header: string, path: string, reason: string) {
    super(`argument ${JSON.stringify(path)} (header ${PARAM_HEADER_PREFIX}${header}) ${reason}`);
    this.name = "HeaderValueError";
    this.header = header;
    this.path = path;
  }
}

/** The header value of one argument, or `undefined` when it sends no header (null or absent). */
export function headerValue(declaration: HeaderDeclaration, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const path = declaration.path.join(".");
  let text: string;
  if (typeof value === "boolean") text = value ? "true" : "false";
  else if (typeof value === "number") text = JSON.stringify(value);
  else if (typeof value === "string") {
    if (unpaired(value)) {
      throw new HeaderValueError(
        declaration.name,
        path,
        "is a string with an unpaired UTF-16 surrogate, which has no UTF-8 form; send well-formed text",
      );
    }
    text = value;
  } else {
    throw new HeaderValueError(
      declaration.name,
      path,
      `is ${
        Array.isArray(value) ? "an array" : "an object"
      }; a header carries only a string, integer or boolean`,
    );
  }
  return needsBase64(text) ? `${SENTINEL_START}${base64Utf8(text)}${SENTINEL_END}` : text;
}

/** The `Mcp-Param-*` headers of one call; throws {@linkcode HeaderValueError} for a value with no header form. */
export function paramHeaders(
  declarations: readonly HeaderDeclaration[],
  args: Record<string, unknown>,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const declaration of declarations) {
    let value: unknown = args;
    for (const key of declaration.path) {
      value = isNonArrayObject(value) ? value[key] : undefined;
    }
    const text = headerValue(declaration, value);
    if (text !== undefined) headers[`${PARAM_HEADER_PREFIX}${declaration.name}`] = text;
  }
  return headers;
}
