// Private: JSON Schema keyword tables (2020-12 and draft-07) used by the transforms.

import type { Obj } from "./json.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";
import type { FeatureLossEffect } from "../warning.ts";

/** The types written where a schema must name one but accepted anything: every scalar. */
export const ANY_TYPES: readonly string[] = ["string", "number", "boolean", "null"];

/** Keywords whose value is one subschema. */
export const SINGLE = new Set([
  "additionalProperties",
  "additionalItems",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
]);

/** Keywords whose value is an array of subschemas. */
export const LIST = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);

/** Keywords whose value maps names to subschemas. */
export const MAP = new Set([
  "properties",
  "patternProperties",
  "dependentSchemas",
  "$defs",
  "definitions",
]);

/** Keywords that do not change which values are accepted. */
export const ANNOTATIONS = new Set([
  "title",
  "description",
  "default",
  "examples",
  "example",
  "$comment",
  "deprecated",
  "readOnly",
  "writeOnly",
  "contentMediaType",
  "contentEncoding",
  "contentSchema",
  "$schema",
  "$id",
  "$anchor",
  "$dynamicAnchor",
  "$vocabulary",
  "format",
  "propertyOrdering",
  "nullable",
  "$defs",
  "definitions",
]);

/** Assertion and applicator keywords (dropping one of them widens the accepted values). */
const ASSERTIONS = new Set([
  "type",
  "enum",
  "const",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxContains",
  "minContains",
  "maxProperties",
  "minProperties",
  "required",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "allOf",
  "anyOf",
  "oneOf",
  "items",
  "prefixItems",
  "additionalItems",
  "properties",
  "patternProperties",
  "additionalProperties",
  "unevaluatedItems",
  "unevaluatedProperties",
  "$ref",
  "$dynamicRef",
  "$recursiveRef",
]);

/** Keywords whose (scalar) value can be written into a description as a hint. */
export const DESCRIBABLE = new Set([
  "pattern",
  "format",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "minContains",
  "maxContains",
  "default",
  "examples",
  "const",
  "enum",
]);

/** The effect on accepted values of dropping `key` (with value `value`) from a schema. */
export function dropEffect(key: string, value: unknown): FeatureLossEffect {
  if (ANNOTATIONS.has(key) || key.startsWith("x-")) return "none";
  if (!ASSERTIONS.has(key)) return "none"; // unknown keywords are annotations
  if (value === true && (key === "additionalProperties" || key.startsWith("unevaluated"))) {
    return "none";
  }
  if (Array.isArray(value) && value.length === 0 && key === "required") return "none";
  if (key === "uniqueItems" && value === false) return "none";
  return "widens";
}

/** The JSON types a schema's `type` keyword names (empty when absent or malformed). */
export function typesOf(schema: Obj): string[] {
  const t = schema.type;
  if (typeof t === "string") return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === "string");
  return [];
}

/** Whether a schema describes objects (by `type` or by object keywords without a type). */
export function isObjectSchema(schema: Obj): boolean {
  const types = typesOf(schema);
  if (types.length > 0) return types.includes("object");
  return schema.properties !== undefined && schema.anyOf === undefined &&
    schema.$ref === undefined && schema.enum === undefined && schema.const === undefined;
}

/** The JSON type of a value, `integer` for whole numbers. */
export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  if (isNonArrayObject(value)) return "object";
  return typeof value;
}

const INFER: [string, string[]][] = [
  ["object", [
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "minProperties",
    "maxProperties",
    "propertyNames",
    "dependentRequired",
  ]],
  ["array", ["items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains"]],
  ["string", ["pattern", "minLength", "maxLength", "format"]],
  ["number", ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]],
];

/** The type implied by a schema's type-specific keywords, when exactly one type is implied. */
export function inferType(schema: Obj): string | undefined {
  const found = INFER.filter(([, keys]) => keys.some((k) => schema[k] !== undefined));
  return found.length === 1 ? found[0][0] : undefined;
}

const UNSIMPLE = /\\[1-9]|\\k<|\(\?[=!]|\(\?<[=!]|\\[bB]/;

/** Whether a regular expression avoids backreferences, lookaround and word boundaries. */
export function isSimplePattern(pattern: unknown): boolean {
  return typeof pattern === "string" && !UNSIMPLE.test(pattern);
}
