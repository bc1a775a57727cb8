/**
 * The Gemini profiles: function-declaration names, the OpenAPI subset of `parameters`, `parametersJsonSchema`, and Vertex AI's stricter names, dated.
 *
 * @module
 */

import type { ProviderProfile, SchemaProfile } from "../profile.ts";
import { PASS } from "../_provider/mod.ts";

/**
 * Google Gemini function declarations: names of `[A-Za-z0-9_:.-]` up to 128;
 * `parameters` takes an OpenAPI 3.0 subset (this profile's `schema`), and
 * `parametersJsonSchema` near-full JSON Schema (this profile's `strictSchema`
 * is unused; see {@linkcode GEMINI_JSON_SCHEMA_PROFILE}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { GEMINI_PROFILE } from "@toolfoundation/core/adapter";
 *
 * assert.equal(GEMINI_PROFILE.names.separator, ":");
 * ```
 */
export const GEMINI_PROFILE: ProviderProfile = {
  format: "gemini",
  date: "2026-08-31",
  notes: "Gemini API function calling documentation (Schema object, parametersJsonSchema)",
  names: { allowed: "A-Za-z0-9_:.\\-", maxLength: 128, separator: ":" },
  schema: {
    keywords: [
      "type",
      "format",
      "title",
      "description",
      "nullable",
      "enum",
      "items",
      "properties",
      "required",
      "minItems",
      "maxItems",
      "minLength",
      "maxLength",
      "pattern",
      "minimum",
      "maximum",
      "minProperties",
      "maxProperties",
      "anyOf",
      "propertyOrdering",
      "default",
      "example",
    ],
    formats: ["enum", "date-time", "float", "double", "int32", "int64"],
    rootCombinators: false,
    refs: "inline",
    refSiblings: false,
    recursion: false,
    oneOf: "anyOf",
    allOf: "merge",
    closeObjects: false,
    requireAll: false,
    typeRequired: false,
    simplePatterns: false,
    limits: { maxInlinedNodes: 10_000 },
  },
};

/**
 * The schema rules of Gemini's `parametersJsonSchema`: near-full JSON Schema,
 * no root `$schema`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { GEMINI_JSON_SCHEMA_PROFILE } from "@toolfoundation/core/adapter";
 *
 * assert.equal(GEMINI_JSON_SCHEMA_PROFILE.refs, "pass");
 * ```
 */
export const GEMINI_JSON_SCHEMA_PROFILE: SchemaProfile = PASS;

/**
 * Gemini on Vertex AI: names up to 64, starting with a letter or `_`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultRegistry, GEMINI_VERTEX_PROFILE } from "@toolfoundation/core/adapter";
 *
 * const tool = { name: "9lives", inputSchema: { type: "object" as const } };
 * const out = defaultRegistry().convert(tool, "mcp", "gemini", { profile: GEMINI_VERTEX_PROFILE });
 * assert.equal((out.tool as { name: string }).name, "_9lives_e2f29fc7");
 * ```
 */
export const GEMINI_VERTEX_PROFILE: ProviderProfile = {
  ...GEMINI_PROFILE,
  notes: "Vertex AI function declarations: stricter names",
  names: { allowed: "A-Za-z0-9_:.\\-", maxLength: 64, firstChar: "A-Za-z_", separator: ":" },
};
