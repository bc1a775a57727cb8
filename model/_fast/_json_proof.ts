// Private: whether a schema's generated check, with strict type tests (a
// "number" finite, an "object" plain), proves by itself that a value it
// accepts is a JSON value within a known nesting: then the validator need not
// walk a valid value to check that it is JSON (model/_instance_check.ts).
//
// A schema proves it when one of the keywords the value must pass leaves
// nothing unchecked: a type of primitives, an enum or const of primitives,
// a plain object whose every property is checked by a proving subschema
// (additionalProperties false or proving), an array whose every item is,
// a proving allOf branch, or anyOf/oneOf branches that all prove. Other
// keywords only restrict the values accepted further.

import type { Dialect } from "./_detailed_unit.ts";

const PRIMITIVES = new Set(["string", "boolean", "null", "integer", "number"]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isPrimitive(value: unknown): boolean {
  return value === null || typeof value === "string" || typeof value === "boolean" ||
    (typeof value === "number" && Number.isFinite(value));
}

/**
 * The nesting of containers (0 for a primitive) of every value the strict
 * check of `schema` accepts, or undefined when the check does not prove
 * that a value it accepts is JSON.
 */
export function jsonLevels(schema: unknown, dialect: Dialect, depth = 0): number | undefined {
  if (schema === false) return 0;
  if (!isObject(schema) || depth > 32) return undefined;
  if (dialect === "draft-07" && Object.hasOwn(schema, "$ref")) return undefined;
  const has = (keyword: string) => Object.hasOwn(schema, keyword);
  const sub = (node: unknown) => jsonLevels(node, dialect, depth + 1);
  let best: number | undefined;
  const consider = (levels: number | undefined) => {
    if (levels !== undefined && (best === undefined || levels < best)) best = levels;
  };
  if (has("enum") && Array.isArray(schema.enum) && schema.enum.every(isPrimitive)) consider(0);
  if (has("const") && isPrimitive(schema.const)) consider(0);
  if (has("type")) {
    const types = typeof schema.type === "string" ? [schema.type] : schema.type;
    if (Array.isArray(types) && types.length > 0) {
      let most: number | undefined = 0;
      for (const type of types) {
        const levels = PRIMITIVES.has(type)
          ? 0
          : type === "object"
          ? objectLevels(schema, sub)
          : type === "array"
          ? arrayLevels(schema, dialect, sub)
          : undefined;
        most = levels === undefined || most === undefined ? undefined : Math.max(most, levels);
      }
      consider(most);
    }
  }
  if (has("allOf") && Array.isArray(schema.allOf)) {
    for (const branch of schema.allOf) consider(sub(branch));
  }
  for (const keyword of ["anyOf", "oneOf"]) {
    const branches = schema[keyword];
    if (has(keyword) && Array.isArray(branches) && branches.length > 0) {
      const levels = branches.map(sub);
      if (levels.every((l) => l !== undefined)) consider(Math.max(...levels as number[]));
    }
  }
  return best;
}

type Sub = (node: unknown) => number | undefined;

/** Levels of a plain object whose every property a proving subschema checks. */
function objectLevels(schema: Record<string, unknown>, sub: Sub): number | undefined {
  const parts: unknown[] = [];
  if (!Object.hasOwn(schema, "additionalProperties")) return undefined;
  parts.push(schema.additionalProperties);
  for (const keyword of ["properties", "patternProperties"]) {
    if (!Object.hasOwn(schema, keyword)) continue;
    const map = schema[keyword];
    if (!isObject(map)) return undefined;
    parts.push(...Object.values(map));
  }
  return containerLevels(parts, sub);
}

/** Levels of an array whose every item a proving subschema checks. */
function arrayLevels(
  schema: Record<string, unknown>,
  dialect: Dialect,
  sub: Sub,
): number | undefined {
  const parts: unknown[] = [];
  if (dialect === "2020-12") {
    if (!Object.hasOwn(schema, "items")) return undefined;
    parts.push(schema.items);
    if (Object.hasOwn(schema, "prefixItems")) {
      if (!Array.isArray(schema.prefixItems)) return undefined;
      parts.push(...schema.prefixItems);
    }
  } else {
    if (!Object.hasOwn(schema, "items")) return undefined;
    if (Array.isArray(schema.items)) {
      if (!Object.hasOwn(schema, "additionalItems")) return undefined;
      parts.push(...schema.items, schema.additionalItems);
    } else {
      parts.push(schema.items);
    }
  }
  return containerLevels(parts, sub);
}

function containerLevels(parts: unknown[], sub: Sub): number | undefined {
  let most = 0;
  for (const part of parts) {
    const levels = sub(part);
    if (levels === undefined) return undefined;
    most = Math.max(most, levels);
  }
  return most + 1;
}
