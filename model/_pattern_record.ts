// Private: pattern results of one value's first pass (the fast path's, or
// Hyperjump's FLAG pass), replayed when its failures are computed later, so
// that each pattern runs once per long string even when the failures are read
// long after the answer.

import type { Matcher } from "./_regex.ts";

/** Strings shorter than this are cheap to test again; only longer ones are recorded. */
export const RECORD_MIN_LENGTH = 256;

/** The recorded results of one value (filled on demand). */
export interface PatternRecord {
  results?: Map<Matcher, Map<string, boolean>>;
}

let active: PatternRecord | undefined;

/** Makes `record` the active record; returns the previous one, to restore with the same call. */
export function swapPatternRecord(record: PatternRecord | undefined): PatternRecord | undefined {
  const previous = active;
  active = record;
  return previous;
}

/** `matcher.test(text)`, answered from the active record when it holds the result. */
export function testPattern(matcher: Matcher, text: string): boolean {
  if (active === undefined || text.length < RECORD_MIN_LENGTH) return matcher.test(text);
  const results = active.results ??= new Map();
  let byText = results.get(matcher);
  if (byText === undefined) results.set(matcher, byText = new Map());
  let result = byText.get(text);
  if (result === undefined) byText.set(text, result = matcher.test(text));
  return result;
}
