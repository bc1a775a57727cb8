/**
 * The OpenAI profile: function-tool names and strict mode's JSON Schema subset and limits, dated.
 *
 * @module
 */

import type { ProviderProfile, SchemaProfile } from "../profile.ts";
import { PASS } from "../_provider/mod.ts";

const OPENAI_STRICT: SchemaProfile = {
  keywords: [
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "$ref",
    "$defs",
    "description",
    "title",
    "pattern",
    "format",
    "multipleOf",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
  ],
  formats: ["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"],
  rootCombinators: false,
  refs: "keep",
  refSiblings: false,
  recursion: true,
  oneOf: "anyOf",
  allOf: "merge",
  closeObjects: true,
  requireAll: true,
  typeRequired: true,
  simplePatterns: false,
  jsonTextMaps: true,
  limits: {
    maxProperties: 5000,
    maxDepth: 10,
    maxStringChars: 120_000,
    maxEnumValues: 1000,
    maxInlinedNodes: 10_000,
  },
};

/**
 * OpenAI function tools (Chat Completions and Responses): names of
 * `[A-Za-z0-9_-]` up to 64; strict mode's JSON Schema subset and limits.
 *
 * @example Azure OpenAI's older limits as a profile variant
 * ```ts
 * import assert from "node:assert/strict";
 * import { OPENAI_PROFILE, type ProviderProfile } from "@toolfoundation/core/adapter";
 *
 * const azure: ProviderProfile = {
 *   ...OPENAI_PROFILE,
 *   strictSchema: { ...OPENAI_PROFILE.strictSchema!, limits: { maxProperties: 100, maxDepth: 5 } },
 * };
 * assert.equal(azure.strictSchema?.limits?.maxProperties, 100);
 * ```
 */
export const OPENAI_PROFILE: ProviderProfile = {
  format: "openai",
  date: "2026-08-31",
  notes: "OpenAI function calling and Structured Outputs documentation (strict mode subset)",
  names: { allowed: "A-Za-z0-9_\\-", maxLength: 64, separator: "__" },
  schema: PASS,
  strictSchema: OPENAI_STRICT,
};
