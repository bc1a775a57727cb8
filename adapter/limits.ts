/**
 * Structural limits of conversion. Tool schemas come from MCP servers and
 * third-party manifests, so conversion bounds what it follows: nothing a
 * server sends can make it recurse without end or exhaust the call stack.
 * The limits are the validator's defaults (`checkSchemaStructure`), so a
 * schema `validate` accepts is not refused by `convert` for its depth.
 *
 * @module
 */

import {
  DEFAULT_MAX_SCHEMA_DEPTH,
  DEFAULT_MAX_SCHEMA_JSON_DEPTH,
} from "../model/schema_structure.ts";

/**
 * Deepest schema nesting a conversion rewrites (128): each subschema inside a
 * subschema is one level, and so is each `$ref` followed while inlining. A
 * deeper schema is refused with a {@linkcode SchemaShapeError} (`problem`
 * `depth`) whose `keywordLocation` is the JSON Pointer, in the tool, of the
 * first schema beyond the limit.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultRegistry, MAX_SCHEMA_DEPTH } from "@toolfoundation/core/adapter";
 * import { SchemaShapeError } from "@toolfoundation/core/model";
 *
 * let schema: Record<string, unknown> = { type: "string" };
 * for (let i = 0; i < MAX_SCHEMA_DEPTH; i++) schema = { type: "object", properties: { a: schema } };
 * assert.throws(
 *   () => defaultRegistry().convert({ name: "deep", inputSchema: schema }, "mcp", "gemini"),
 *   (e) => e instanceof SchemaShapeError && e.problem === "depth",
 * );
 * ```
 */
export const MAX_SCHEMA_DEPTH: number = DEFAULT_MAX_SCHEMA_DEPTH;

/**
 * Deepest nesting of objects and arrays (1,024) in any value a conversion
 * copies (the schemas, `default`, `const`, `examples`, `x-` extensions,
 * provider fields), counting a tool's schema as level 1 (or, where a schema
 * is rewritten, from the value itself). A schema {@linkcode MAX_SCHEMA_DEPTH}
 * levels deep through `properties` is about 257 levels. A deeper value is
 * refused with a {@linkcode SchemaShapeError} (`problem` `depth`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MAX_VALUE_DEPTH, mcpAdapter } from "@toolfoundation/core/adapter";
 * import { SchemaShapeError } from "@toolfoundation/core/model";
 *
 * let value: unknown = 1;
 * for (let i = 0; i < MAX_VALUE_DEPTH; i++) value = [value];
 * const tool = { name: "t", inputSchema: { type: "object" as const, default: value } };
 * assert.throws(() => mcpAdapter.toCanonical(tool), SchemaShapeError);
 * ```
 */
export const MAX_VALUE_DEPTH: number = DEFAULT_MAX_SCHEMA_JSON_DEPTH;
