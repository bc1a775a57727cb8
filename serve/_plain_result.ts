// Private: the plain shape of a `tools/call` result (text blocks, an
// optional structured content object and error flag), which both eras'
// direct paths pass on as it came, in the key order the SDK would give it,
// instead of running the protocol's schema over it. Any other shape (another
// block kind, a block or result key the schema drops or reorders, a value
// of the wrong type) is left to the schema. The eras differ in what else a
// plain result carries: a 2026-07-28 one its `resultType` and the server's
// info in `_meta`, a 2025 one nothing else.

import { isPlainObject } from "./_plain_call.ts";

/** What a plain result of an era carries besides its content, structured content and error flag. */
export interface PlainShape {
  /** The `resultType` the result must carry (left out of the answer); none: it carries none. */
  readonly resultType?: string;
  /**
   * The one `_meta` key a result may carry, holding an object of exactly a
   * string `name` and `version` (put first in the answer, as the codec
   * does); none: a result with `_meta` is not plain.
   */
  readonly metaInfoKey?: string;
}

/** A 2025-era result: content, structured content, error flag, nothing else. */
export const LEGACY_PLAIN: PlainShape = {};

/** A 2026-07-28 result: `resultType: "complete"`, and the server's info in `_meta`. */
export const MODERN_PLAIN: PlainShape = {
  resultType: "complete",
  metaInfoKey: "io.modelcontextprotocol/serverInfo",
};

/** How many own enumerable keys `value` has. */
function keyCount(value: Record<string, unknown>): number {
  let n = 0;
  for (const _ in value) n++;
  return n;
}

/**
 * Whether `_meta` is exactly `{ [key]: { name, version } }` with string
 * values (what a server's info looks like in a 2026-07-28 result).
 */
function isInfoMeta(meta: unknown, key: string): boolean {
  if (!isPlainObject(meta) || keyCount(meta) !== 1) return false;
  const info = meta[key];
  return isPlainObject(info) && typeof info.name === "string" &&
    typeof info.version === "string" && keyCount(info) === 2;
}

/**
 * The result in the key order the SDK gives it, when it is of the plain
 * shape of `shape`'s era: content of text blocks each exactly `type` then
 * `text` (a string), an optional structured content object and boolean
 * error flag, and what the era adds; undefined for any other shape (the
 * schema reads it then).
 */
export function plainToolResult(
  raw: unknown,
  shape: PlainShape,
): Record<string, unknown> | undefined {
  if (!isPlainObject(raw)) return undefined;
  let keys = 1;
  if (shape.resultType !== undefined) {
    if (raw.resultType !== shape.resultType) return undefined;
    keys++;
  }
  const { content, structuredContent, isError, _meta } = raw;
  if (!Array.isArray(content)) return undefined;
  for (const block of content) {
    if (!isPlainObject(block) || block.type !== "text" || typeof block.text !== "string") {
      return undefined;
    }
    // `type` first: the schema would put it there.
    let n = 0;
    for (const key in block) if (n++ === 0 && key !== "type") return undefined;
    if (n !== 2) return undefined;
  }
  if (structuredContent !== undefined) {
    if (!isPlainObject(structuredContent)) return undefined;
    keys++;
  }
  if (isError !== undefined) {
    if (typeof isError !== "boolean") return undefined;
    keys++;
  }
  if (_meta !== undefined) {
    if (shape.metaInfoKey === undefined || !isInfoMeta(_meta, shape.metaInfoKey)) return undefined;
    keys++;
  }
  if (keyCount(raw) !== keys) return undefined;
  return {
    ...(_meta === undefined ? {} : { _meta }),
    content,
    ...(structuredContent === undefined ? {} : { structuredContent }),
    ...(isError === undefined ? {} : { isError }),
  };
}
