/**
 * Provider rules as data: the shape of one dated profile per target format
 * (each provider's folder holds its own profile). A provider change is a change
 * of these objects, not of the transforms.
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
