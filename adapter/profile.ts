/**
 * Provider rules as data: one dated profile per target format. A provider
 * change is a change of these objects, not of the transforms.
 *
 * @module
 */

/** Tool-name rules of a target. */
export interface NameRules {
  /** Allowed characters, as the body of a regular-expression character class. */
  readonly allowed: string;
  /** Longest name accepted. */
  readonly maxLength: number;
  /** Allowed first characters (a character-class body), when restricted. */
  readonly firstChar?: string;
  /** What joins namespace and name (`":"` where a colon is legal, else `"__"`). */
  readonly separator: string;
}

/** Size limits of a schema mode. */
export interface SchemaLimits {
  /** Most object properties across the whole schema. */
  readonly maxProperties?: number;
  /** Deepest object nesting. */
  readonly maxDepth?: number;
  /** Most characters of property names, enum and const values together. */
  readonly maxStringChars?: number;
  /** Most enum values across the whole schema. */
  readonly maxEnumValues?: number;
  /**
   * Most schema nodes that inlining `$ref`s may copy; a reference beyond it is
   * cut (to any value of its type) with a warning. 10,000 when absent.
   */
  readonly maxInlinedNodes?: number;
}

/** The JSON Schema rules of one mode (strict or not) of a target. */
export interface SchemaProfile {
  /** Keywords kept; `"any"` keeps every keyword. Anything else is dropped with a warning. */
  readonly keywords: readonly string[] | "any";
  /** Allowed `format` values; absent means any. */
  readonly formats?: readonly string[];
  /** Whether the root may carry `anyOf`/`oneOf`/`allOf` (else they are merged into the root). */
  readonly rootCombinators: boolean;
  /** `$ref` handling: kept (hoisted to root `$defs`), inlined, or passed through untouched. */
  readonly refs: "keep" | "inline" | "pass";
  /** Whether `$ref` may have sibling keywords. */
  readonly refSiblings: boolean;
  /** Whether recursive references are allowed. */
  readonly recursion: boolean;
  /** `oneOf`: kept, or rewritten to `anyOf`. */
  readonly oneOf: "keep" | "anyOf";
  /** `allOf`: kept, or merged into the schema that holds it. */
  readonly allOf: "keep" | "merge";
  /** Every object must have `additionalProperties: false`. */
  readonly closeObjects: boolean;
  /** Every property must be required (optional ones become nullable). */
  readonly requireAll: boolean;
  /** Every schema must say what it accepts (`type`, `enum`, `const`, `anyOf` or `$ref`). */
  readonly typeRequired: boolean;
  /** Only simple `pattern`s (no backreferences, lookaround or word boundaries). */
  readonly simplePatterns: boolean;
  /** Largest `minItems` accepted, when limited. */
  readonly maxMinItems?: number;
  /**
   * Maps (objects below the root without properties whose
   * `additionalProperties` is not `false`, and untyped schemas whose only
   * keyword is an `additionalProperties` schema) are declared as a string
   * holding the object as JSON text, which the input normalizer parses back.
   */
  readonly jsonTextMaps?: boolean;
  /** Size limits. */
  readonly limits?: SchemaLimits;
}

/** Request-wide budgets (Anthropic strict tool use). */
export interface RequestLimits {
  /** Most strict tools in one request. */
  readonly maxStrictTools: number;
  /** Most optional parameters across all strict tools. */
  readonly maxOptionalParams: number;
  /** Most union-typed parameters (`anyOf` or type arrays) across all strict tools. */
  readonly maxUnionParams: number;
}

/**
 * The dated rules of one target format.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { OPENAI_PROFILE } from "@toolfoundation/core/adapter";
 *
 * assert.equal(OPENAI_PROFILE.names.maxLength, 64);
 * assert.equal(OPENAI_PROFILE.strictSchema?.limits?.maxDepth, 10);
 * ```
 */
export interface ProviderProfile {
  /** The format name, e.g. `openai`. */
  readonly format: string;
  /** The date the rules were last checked against the provider's documentation. */
  readonly date: string;
  /** Short notes on where the rules come from. */
  readonly notes: string;
  /** Tool-name rules. */
  readonly names: NameRules;
  /** Schema rules without strict mode. */
  readonly schema: SchemaProfile;
  /** Schema rules in strict mode, when the target has one. */
  readonly strictSchema?: SchemaProfile;
  /** Request-wide budgets, when the target has them. */
  readonly requestLimits?: RequestLimits;
}

const PASS: SchemaProfile = {
  keywords: "any",
  rootCombinators: true,
  refs: "pass",
  refSiblings: true,
  recursion: true,
  oneOf: "keep",
  allOf: "keep",
  closeObjects: false,
  requireAll: false,
  typeRequired: false,
  simplePatterns: false,
};

/**
 * MCP 2025-11-25: names of `[A-Za-z0-9_.-]`, up to 128; any JSON Schema.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MCP_PROFILE } from "@toolfoundation/core/adapter";
 *
 * assert.equal(MCP_PROFILE.names.maxLength, 128);
 * ```
 */
export const MCP_PROFILE: ProviderProfile = {
  format: "mcp",
  date: "2025-11-25",
  notes: "MCP specification 2025-11-25 (the version @modelcontextprotocol/sdk 1.32.2 speaks)",
  names: { allowed: "A-Za-z0-9_.\\-", maxLength: 128, separator: "__" },
  schema: PASS,
};

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

/**
 * OpenAI Responses API function tools: the same rules as {@linkcode OPENAI_PROFILE}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { OPENAI_RESPONSES_PROFILE } from "@toolfoundation/core/adapter";
 *
 * assert.equal(OPENAI_RESPONSES_PROFILE.format, "openai-responses");
 * ```
 */
export const OPENAI_RESPONSES_PROFILE: ProviderProfile = {
  ...OPENAI_PROFILE,
  format: "openai-responses",
};

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
