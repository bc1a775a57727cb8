// Private: the keyword rules of the schema walk for a target's subset beyond
// keeping or dropping a keyword: `oneOf` written as `anyOf`, unsupported
// formats, complex patterns, a capped `minItems`, and `additionalProperties`
// where every object is closed.

import { isSimplePattern } from "./_keywords.ts";
import { branchesDisjoint } from "./_merge.ts";
import type { KeywordRule, NodeScope } from "./_walk_keywords.ts";

function oneOf(c: NodeScope, key: string, value: unknown, kp: string): boolean {
  const w = c.w;
  if (w.allowed(key) || w.profile.oneOf !== "anyOf" || !Array.isArray(value)) return false;
  if (c.s.anyOf !== undefined) {
    c.drop(key, value, "widens", "oneOf cannot be rewritten to anyOf beside an existing anyOf");
    return true;
  }
  const disjoint = branchesDisjoint(value, w.refs);
  c.out.anyOf = c.list(value, kp);
  w.warn(
    kp,
    key,
    "rewritten",
    disjoint ? "none" : "widens",
    disjoint
      ? "oneOf is written as anyOf; its branches cannot overlap, so nothing changes"
      : "oneOf is written as anyOf; values matching several branches are accepted now",
  );
  return true;
}

function format(c: NodeScope, key: string, value: unknown): boolean {
  const w = c.w;
  if (!w.allowed(key) || w.formats === undefined || w.formats.has(value as string)) return false;
  c.drop(key, value, "none", `format ${JSON.stringify(value)} is not supported by ${w.options.to}`);
  return true;
}

function pattern(c: NodeScope, key: string, value: unknown): boolean {
  const w = c.w;
  if (!w.allowed(key) || !w.profile.simplePatterns || isSimplePattern(value)) return false;
  c.drop(
    key,
    value,
    "widens",
    "patterns with backreferences, lookaround or word boundaries are not supported",
  );
  return true;
}

function minItems(c: NodeScope, key: string, value: unknown, kp: string): boolean {
  const w = c.w;
  const max = w.profile.maxMinItems;
  if (!w.allowed(key) || max === undefined || typeof value !== "number" || !(value > max)) {
    return false;
  }
  c.out.minItems = max;
  c.notes.push(`minItems: ${value}`);
  w.warn(
    kp,
    key,
    "rewritten",
    "widens",
    `minItems above ${max} is not supported; it is lowered to ${max} and stated in the description`,
  );
  return true;
}

/** Closed objects get `additionalProperties: false` when the node is finished. */
function additionalProperties(c: NodeScope): boolean {
  return c.w.profile.closeObjects;
}

/** The subset rules by keyword. */
export const SUBSET_RULES: Record<string, KeywordRule> = {
  oneOf,
  format,
  pattern,
  minItems,
  additionalProperties,
};
