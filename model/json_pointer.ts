/**
 * JSON Pointer (RFC 6901): the one place that escapes and unescapes reference
 * tokens, so every layer (the validator's failure locations, the adapters'
 * schema walks, chain references, the CLI's output) spells a pointer the same
 * way. `~` is escaped before `/` and unescaped after it, so a token such as
 * `"~1"` survives the round trip.
 *
 * @example Round trip of tokens that need escaping
 * ```ts
 * import assert from "node:assert/strict";
 * import { pointerFromTokens, pointerTokens } from "@toolfoundation/core/model";
 *
 * const pointer = pointerFromTokens(["a/b", "~1", "0"]);
 * assert.equal(pointer, "/a~1b/~01/0");
 * assert.deepEqual(pointerTokens(pointer), ["a/b", "~1", "0"]);
 * ```
 *
 * @module
 */

/**
 * Escapes one JSON Pointer reference token: `~` → `~0`, then `/` → `~1`.
 *
 * @param token The unescaped token (a property name or an array index).
 * @returns The token as it is written inside a pointer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { escapePointerToken } from "@toolfoundation/core/model";
 *
 * assert.equal(escapePointerToken("a/b~c"), "a~1b~0c");
 * ```
 */
export function escapePointerToken(token: string): string {
  return token.indexOf("~") < 0 && token.indexOf("/") < 0
    ? token
    : token.replaceAll("~", "~0").replaceAll("/", "~1");
}

/**
 * Unescapes one JSON Pointer reference token: `~1` → `/`, then `~0` → `~`.
 *
 * @param token The token as written inside a pointer.
 * @returns The property name or array index it stands for.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unescapePointerToken } from "@toolfoundation/core/model";
 *
 * assert.equal(unescapePointerToken("~01"), "~1");
 * assert.equal(unescapePointerToken("a~1b"), "a/b");
 * ```
 */
export function unescapePointerToken(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

/**
 * The JSON Pointer of a list of unescaped tokens (`[]` is the root, `""`).
 *
 * @param tokens The unescaped tokens, outermost first.
 * @returns The pointer, each token escaped and preceded by `/`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pointerFromTokens } from "@toolfoundation/core/model";
 *
 * assert.equal(pointerFromTokens([]), "");
 * assert.equal(pointerFromTokens(["items", "0"]), "/items/0");
 * ```
 */
export function pointerFromTokens(tokens: readonly string[]): string {
  return tokens.map((token) => "/" + escapePointerToken(token)).join("");
}

/**
 * The unescaped tokens of a JSON Pointer (`""` is the root, `[]`). The first
 * character is dropped unchecked: callers pass pointers that start with "/".
 *
 * @param pointer A JSON Pointer: `""` or a string that starts with `/`.
 * @returns The unescaped tokens, outermost first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pointerTokens } from "@toolfoundation/core/model";
 *
 * assert.deepEqual(pointerTokens(""), []);
 * assert.deepEqual(pointerTokens("/a~1b/0"), ["a/b", "0"]);
 * ```
 */
export function pointerTokens(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer.slice(1).split("/").map(unescapePointerToken);
}
