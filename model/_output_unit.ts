// Private: the units of Hyperjump's DETAILED output (or the fast path's
// copies of them) as the failures read them, and the site of a keyword
// location: its document, pointer tokens and value.

import { pointerFromTokens, pointerTokens } from "./json_pointer.ts";

/**
 * One unit of Hyperjump's DETAILED output (the fields read here): Hyperjump's
 * own units, or the fast path's copies of them.
 */
export interface OutputUnit {
  /** The keyword's URI (`https://json-schema.org/evaluation/validate` for a false schema). */
  keyword: string;
  /** The keyword's (or false schema's) absolute URI. */
  absoluteKeywordLocation: string;
  /** `#` and the value's JSON Pointer, URI-encoded. */
  instanceLocation: string;
  /** The units of the subschemas the keyword applied. */
  errors?: readonly OutputUnit[];
  /** Precomputed `keywordSite(absoluteKeywordLocation)` (the fast path's units). */
  site?: KeywordSite;
  /**
   * The value's JSON Pointer as `instanceLocation` names it, when the unit
   * carries it (the fast path's units, for values other than property names);
   * `instance` is then the value at that pointer.
   */
  pointer?: string;
  /** The value at `pointer` (read only when `pointer` is set). */
  instance?: unknown;
}

/** What the failures read of a keyword's absolute location (the same for every value). */
export interface KeywordSite {
  /** The document's base URI. */
  base: string;
  /** The keyword's pointer tokens in that document. */
  tokens: string[];
  /** The location as failures give it (relative to the root document). */
  absolute: string;
  /** The keyword's JSON Pointer. */
  keywordLocation: string;
  /** The last token (the keyword's name), or "". */
  last: string;
  /** The keyword's value. */
  value: unknown;
  /** The schema object holding the keyword. */
  schema: Record<string, unknown> | undefined;
  /** The leaf message when it does not depend on the value (filled on first use). */
  leaf?: string;
}

/** The site of a keyword location, as the failures read it. */
export function keywordSite(
  absoluteKeywordLocation: string,
  lookup: DocumentLookup,
  rootUri: string,
): KeywordSite {
  const [base, tokens] = splitLocation(absoluteKeywordLocation);
  const document = lookup(base);
  return {
    base,
    tokens,
    absolute: base === rootUri
      ? absoluteKeywordLocation.slice(rootUri.length)
      : absoluteKeywordLocation,
    keywordLocation: pointerFromTokens(tokens),
    last: tokens[tokens.length - 1] ?? "",
    value: at(document, tokens),
    schema: at(document, tokens.slice(0, -1)) as Record<string, unknown> | undefined,
  };
}

/** Looks up documents by base URI, for the keyword values messages quote. */
export type DocumentLookup = (baseUri: string) => unknown;

/** The pointer tokens of a URI fragment. */
export function decodePointer(fragment: string): string[] {
  return pointerTokens(decodeURIComponent(fragment));
}

/** A location's base URI and pointer tokens. */
export function splitLocation(location: string): [string, string[]] {
  const hash = location.indexOf("#");
  return hash < 0
    ? [location, []]
    : [location.slice(0, hash), decodePointer(location.slice(hash + 1))];
}

/** The value at `tokens` in `value`, or undefined. */
export function at(value: unknown, tokens: readonly string[]): unknown {
  let current = value;
  for (const token of tokens) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}
