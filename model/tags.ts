/**
 * Tag normalization for discovery layers.
 *
 * @module
 */

/** Longest tag kept, in characters. */
export const MAX_TAG_LENGTH = 64;
/** Most tags kept. */
export const MAX_TAG_COUNT = 20;

const WHITESPACE_RUN = /\s+/g;
const NOT_TAG_CHAR = /[^a-z0-9\-_.]/g;

/**
 * Normalizes one tag: lowercase, trim, whitespace runs to `-`, characters
 * outside `[a-z0-9-_.]` removed, cut to 64 characters. Returns `""` when
 * nothing is left.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizeTag } from "@toolfoundation/core/model";
 *
 * assert.equal(normalizeTag("  Machine Learning! "), "machine-learning");
 * ```
 *
 * @param tag The raw tag.
 * @returns The normalized tag, possibly empty.
 */
export function normalizeTag(tag: string): string {
  return tag.toLowerCase().trim().replace(WHITESPACE_RUN, "-").replace(NOT_TAG_CHAR, "")
    .slice(0, MAX_TAG_LENGTH);
}

/**
 * Normalizes a list of tags: each tag as in
 * {@linkcode normalizeTag}, empties dropped, duplicates removed keeping the
 * first occurrence, at most 20 kept.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizeTags } from "@toolfoundation/core/model";
 *
 * assert.deepEqual(
 *   normalizeTags(["Search", " search ", "File System", "a ! b", "!!"]),
 *   ["search", "file-system", "a--b"],
 * );
 * ```
 *
 * @param tags The raw tags.
 * @returns The normalized tags, in their original order.
 */
export function normalizeTags(tags: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of tags) {
    if (out.length >= MAX_TAG_COUNT) break;
    const tag = normalizeTag(String(raw));
    if (tag === "" || seen.has(tag)) continue;
    seen.add(tag);
    out.push(tag);
  }
  return out;
}
