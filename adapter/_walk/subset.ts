// Private: the keyword rules of the schema walk for a target's subset beyond
// keeping or dropping a keyword: `oneOf` written as `anyOf`, unsupported
// formats, complex patterns, a capped `minItems`, and `additionalProperties`
// where every object is closed.

import { isSimplePattern } from "../_schema/mod.ts";
import { branchesDisjoint } from "./merge.ts";
import type { KeywordRule, NodeScope } from "./context.ts";

function oneOf(scope: NodeScope, key: string, value: unknown, keywordPointer: string): boolean {
  const walker = scope.walker;
  if (walker.allowed(key) || walker.profile.oneOf !== "anyOf" || !Array.isArray(value)) {
    return false;
  }
  if (scope.sourceSchema.anyOf !== undefined) {
    scope.drop(key, value, "widens", "oneOf cannot be rewritten to anyOf beside an existing anyOf");
    return true;
  }
  const disjoint = branchesDisjoint(value, walker.refs);
  scope.out.anyOf = scope.convertSubschemas(value, keywordPointer);
  walker.warn(
    keywordPointer,
    key,
    "rewritten",
    disjoint ? "none" : "widens",
    disjoint
      ? "oneOf is written as anyOf; its branches cannot overlap, so nothing changes"
      : "oneOf is written as anyOf; values matching several branches are accepted now",
  );
  return true;
}

function format(scope: NodeScope, key: string, value: unknown): boolean {
  const walker = scope.walker;
  if (!walker.allowed(key) || walker.formats === undefined || walker.formats.has(value as string)) {
    return false;
  }
  scope.drop(
    key,
    value,
    "none",
    `format ${JSON.stringify(value)} is not supported by ${walker.options.to}`,
  );
  return true;
}

function pattern(scope: NodeScope, key: string, value: unknown): boolean {
  const walker = scope.walker;
  if (!walker.allowed(key) || !walker.profile.simplePatterns || isSimplePattern(value)) {
    return false;
  }
  scope.drop(
    key,
    value,
    "widens",
    "patterns with backreferences, lookaround or word boundaries are not supported",
  );
  return true;
}

function minItems(scope: NodeScope, key: string, value: unknown, keywordPointer: string): boolean {
  const walker = scope.walker;
  const max = walker.profile.maxMinItems;
  if (!walker.allowed(key) || max === undefined || typeof value !== "number" || !(value > max)) {
    return false;
  }
  scope.out.minItems = max;
  scope.notes.push(`minItems: ${value}`);
  walker.warn(
    keywordPointer,
    key,
    "rewritten",
    "widens",
    `minItems above ${max} is not supported; it is lowered to ${max} and stated in the description`,
  );
  return true;
}

/** Closed objects get `additionalProperties: false` when the node is finished. */
function additionalProperties(scope: NodeScope): boolean {
  return scope.walker.profile.closeObjects;
}

/** The subset rules by keyword. */
export const SUBSET_RULES: Record<string, KeywordRule> = {
  oneOf,
  format,
  pattern,
  minItems,
  additionalProperties,
};
