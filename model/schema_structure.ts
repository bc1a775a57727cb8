/**
 * The structure check every schema passes before it is compiled or
 * converted: bounded nesting, and no `$ref` cycle that makes no progress.
 * Pure and iterative, so it is safe on any input.
 *
 * @module
 */

import type { JsonSchema } from "./tool.ts";
import { analyzeSchemaStructure } from "./_schema_structure.ts";

/** Deepest schema nesting accepted by default (subschema levels; also the longest in-place `$ref` chain). */
export const DEFAULT_MAX_SCHEMA_DEPTH = 128;
/** Deepest JSON nesting of any value inside a schema accepted by default (objects and arrays). */
export const DEFAULT_MAX_SCHEMA_JSON_DEPTH = 1024;
/** Most objects and arrays in a schema (counted per occurrence) accepted by default. */
export const DEFAULT_MAX_SCHEMA_NODES = 1_000_000;
/** Most schema evaluations one value may cost (in-place subschemas and `$ref`s, counted per path) by default. */
export const DEFAULT_MAX_IN_PLACE_EVALUATIONS = 10_000;

/** Options of {@linkcode checkSchemaStructure}. */
export interface SchemaStructureOptions {
  /**
   * Deepest schema nesting: each subschema inside a subschema is one level,
   * and each schema reached through a `$ref` applied to the same value is one
   * more level of the chain (default {@linkcode DEFAULT_MAX_SCHEMA_DEPTH}).
   */
  maxDepth?: number;
  /** Deepest nesting of objects and arrays anywhere in the document (default {@linkcode DEFAULT_MAX_SCHEMA_JSON_DEPTH}). */
  maxJsonDepth?: number;
  /** Most objects and arrays in the document (default {@linkcode DEFAULT_MAX_SCHEMA_NODES}). */
  maxNodes?: number;
  /**
   * Most schemas evaluated against one value, counting every path through
   * in-place keywords and `$ref`s (default {@linkcode DEFAULT_MAX_IN_PLACE_EVALUATIONS}):
   * bounds `$ref` fan-out bombs such as 30 levels of `allOf: [{$ref}, {$ref}]`.
   */
  maxInPlaceEvaluations?: number;
  /** Other documents `$ref`s may reach, keyed by absolute URI (a validator's trusted documents). */
  documents?: Readonly<Record<string, JsonSchema>>;
  /** Read the schema as draft-07 when it has no `$schema` (default: 2020-12). */
  draft07?: boolean;
}

/**
 * Checks that a schema can be evaluated with a bound, before compiling or
 * converting it:
 *
 * - it nests at most `maxDepth` subschema levels and `maxJsonDepth` JSON
 *   levels, and has at most `maxNodes` objects and arrays (`depth`, `size`);
 * - no `$ref` or `$dynamicRef` leads back to a schema it is part of through
 *   keywords that apply to the same value (`allOf`, `anyOf`, `oneOf`, `not`,
 *   `if`, `then`, `else`, `dependentSchemas`, draft-07 `dependencies`, `$ref`,
 *   `$dynamicRef`): such a schema recurses without end (`cycle`). A cycle
 *   through `properties`, `items` and the like applies to a smaller part of
 *   the value each time and is fine (a recursive tree schema);
 * - the longest chain of schemas applied to one value (through in-place
 *   keywords and `$ref`s) is at most `maxDepth` (`depth`), and the number of
 *   schemas evaluated against one value, counted per path, is at most
 *   `maxInPlaceEvaluations` (`size`).
 *
 * References are resolved statically (`$id`, `$anchor`, `$dynamicAnchor`,
 * JSON Pointers, draft-07 `#name` ids); a `$dynamicRef` is followed to its
 * static target and, when that target declares the same `$dynamicAnchor`, to
 * every schema that declares it. References that resolve to nothing here are
 * left to the validator. Nothing recurses: any input is safe.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkSchemaStructure, SchemaShapeError } from "@toolfoundation/core/model";
 *
 * // A recursive tree is fine: each `$ref` applies to a child value.
 * checkSchemaStructure({ type: "object", properties: { children: { type: "array", items: { $ref: "#" } } } });
 *
 * // a -> b -> a applies to the same value forever.
 * const loop = { $ref: "#/$defs/a", $defs: { a: { $ref: "#/$defs/b" }, b: { allOf: [{ $ref: "#/$defs/a" }] } } };
 * assert.throws(() => checkSchemaStructure(loop), (e) => {
 *   assert.ok(e instanceof SchemaShapeError);
 *   assert.equal(e.problem, "cycle");
 *   assert.equal(e.keywordLocation, "/$defs/b/allOf/0/$ref");
 *   return true;
 * });
 * ```
 *
 * @param schema The schema (any value; only objects have structure).
 * @param options Limits, trusted documents and the default dialect.
 * @throws {SchemaShapeError} With `problem` (`depth`, `cycle`, `size`) and `keywordLocation`.
 */
export function checkSchemaStructure(schema: unknown, options: SchemaStructureOptions = {}): void {
  analyzeSchemaStructure(schema, options);
}
