/**
 * The Anthropic profile: tool names, schema rules, strict tool use's subset and request budgets, dated.
 *
 * @module
 */

import type { ProviderProfile } from "../profile.ts";
import { PASS } from "../_provider/mod.ts";

/**
 * Anthropic Messages API tools: names of `[A-Za-z0-9_-]` up to 64 (the safe
 * limit), root object without combinators, strict tool use's subset and its
 * request-wide budgets.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ANTHROPIC_PROFILE } from "@toolfoundation/core/adapter";
 *
 * assert.deepEqual(ANTHROPIC_PROFILE.requestLimits, { maxStrictTools: 20, maxOptionalParams: 24, maxUnionParams: 16 });
 * ```
 */
export const ANTHROPIC_PROFILE: ProviderProfile = {
  format: "anthropic",
  date: "2026-08-31",
  notes: "Anthropic tool use and strict tool use documentation",
  names: { allowed: "A-Za-z0-9_\\-", maxLength: 64, separator: "__" },
  schema: { ...PASS, rootCombinators: false },
  strictSchema: {
    keywords: [
      "type",
      "properties",
      "required",
      "additionalProperties",
      "items",
      "enum",
      "const",
      "anyOf",
      "allOf",
      "$ref",
      "$defs",
      "description",
      "title",
      "default",
      "format",
      "pattern",
      "minItems",
    ],
    formats: [
      "date-time",
      "time",
      "date",
      "duration",
      "email",
      "hostname",
      "uri",
      "ipv4",
      "ipv6",
      "uuid",
    ],
    rootCombinators: false,
    refs: "keep",
    refSiblings: false,
    recursion: false,
    oneOf: "anyOf",
    allOf: "merge",
    closeObjects: true,
    requireAll: false,
    typeRequired: false,
    simplePatterns: true,
    maxMinItems: 1,
    jsonTextMaps: true,
    limits: { maxInlinedNodes: 10_000 },
  },
  requestLimits: { maxStrictTools: 20, maxOptionalParams: 24, maxUnionParams: 16 },
};
