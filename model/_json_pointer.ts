// Private: JSON Pointer (RFC 6901) tokens and the two object checks, shared by
// every layer (model is the lowest, so adapter/, run/ and cli/ import from here).

/** Escapes one JSON Pointer reference token: `~` → `~0`, then `/` → `~1`. */
export function escapePointerToken(token: string): string {
  return token.indexOf("~") < 0 && token.indexOf("/") < 0
    ? token
    : token.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** Unescapes one JSON Pointer reference token: `~1` → `/`, then `~0` → `~`. */
export function unescapePointerToken(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

/** The JSON Pointer of a list of unescaped tokens (`[]` is the root, `""`). */
export function pointerFromTokens(tokens: readonly string[]): string {
  return tokens.map((token) => "/" + escapePointerToken(token)).join("");
}

/**
 * The unescaped tokens of a JSON Pointer (`""` is the root, `[]`). The first
 * character is dropped unchecked: callers pass pointers that start with "/".
 */
export function pointerTokens(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer.slice(1).split("/").map(unescapePointerToken);
}

/**
 * Whether a value is a non-null, non-array object, whatever its prototype.
 * For structural checks of parsed JSON/YAML and of user-given records (tool
 * records, backends, manifests, MCP answers, schemas in the adapters).
 */
export function isNonArrayObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Whether a value is a plain JSON object: a non-array object whose prototype
 * is `Object.prototype` or `null` (class instances such as `Date` or `Map` are
 * not). For the validator, which must tell JSON values from other values.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isNonArrayObject(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
