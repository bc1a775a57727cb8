// Private: exact merging of schemas (allOf, $ref with siblings) and overlap checks (oneOf).

import {
  ANNOTATIONS,
  deepEqual,
  jsonType,
  type Obj,
  put,
  type RefResolver,
  typesOf,
} from "../_schema/mod.ts";
import { escapePointerToken } from "../../model/json_pointer.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";
import { MAX_SCHEMA_DEPTH } from "../limits.ts";

/** A merged schema and, per top-level key (and `properties/<name>`), the pointer it came from. */
export interface Merged {
  schema: Obj;
  origins: Map<string, string>;
}

const MIN = new Set(["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"]);
const MAX = new Set(["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"]);
const CLOSERS = ["additionalProperties", "patternProperties", "unevaluatedProperties"];

function intersectTypes(first: string[], second: string[]): string[] {
  const out: string[] = [];
  for (const type of first) {
    if (second.includes(type)) out.push(type);
    else if (type === "integer" && second.includes("number")) out.push("integer");
    else if (type === "number" && second.includes("integer")) out.push("integer");
  }
  return [...new Set(out)];
}

function closes(side: Obj, other: Obj): boolean {
  if (!CLOSERS.some((key) => side[key] !== undefined && side[key] !== true)) return false;
  const mine = isNonArrayObject(side.properties) ? side.properties : {};
  const theirs = isNonArrayObject(other.properties) ? Object.keys(other.properties) : [];
  return theirs.some((name) => !Object.hasOwn(mine, name));
}

/** Starts a merge from one schema at a pointer. */
export function mergeStart(schema: Obj, pointer: string): Merged {
  const origins = new Map<string, string>();
  for (const key of Object.keys(schema)) origins.set(key, pointer);
  if (isNonArrayObject(schema.properties)) {
    for (const name of Object.keys(schema.properties)) {
      origins.set(`properties/${name}`, `${pointer}/properties/${escapePointerToken(name)}`);
    }
  }
  return { schema: { ...schema }, origins };
}

/**
 * Merges `addition` (found at `additionPointer`) into `merged` so that the
 * result accepts exactly the values both accept; `undefined` when that cannot
 * be expressed without `allOf`. Annotations already in `merged` win.
 */
export function mergeInto(
  merged: Merged,
  addition: Obj,
  additionPointer: string,
  depth = 0,
): Merged | undefined {
  const base = merged.schema;
  if (closes(base, addition) || closes(addition, base)) return undefined;
  const out: Obj = { ...base };
  const origins = new Map(merged.origins);
  for (const [key, value] of Object.entries(addition)) {
    if (!Object.hasOwn(out, key)) {
      put(out, key, value);
      origins.set(key, additionPointer);
      if (key === "properties" && isNonArrayObject(value)) {
        for (const name of Object.keys(value)) {
          origins.set(
            `properties/${name}`,
            `${additionPointer}/properties/${escapePointerToken(name)}`,
          );
        }
      }
      continue;
    }
    const mine = out[key];
    if (deepEqual(mine, value)) continue;
    if (ANNOTATIONS.has(key) || key.startsWith("x-")) continue;
    if (key === "type") {
      const types = intersectTypes(typesOf(out), typesOf(addition));
      if (types.length === 0) return undefined;
      out.type = types.length === 1 ? types[0] : types;
    } else if (key === "required" && Array.isArray(mine) && Array.isArray(value)) {
      out.required = [...new Set([...mine, ...value])];
    } else if (MIN.has(key) && typeof mine === "number" && typeof value === "number") {
      out[key] = Math.max(mine, value);
    } else if (MAX.has(key) && typeof mine === "number" && typeof value === "number") {
      out[key] = Math.min(mine, value);
    } else if (key === "enum" && Array.isArray(mine) && Array.isArray(value)) {
      out.enum = mine.filter((kept) => value.some((other) => deepEqual(kept, other)));
    } else if (key === "properties" && isNonArrayObject(mine) && isNonArrayObject(value)) {
      const props: Obj = { ...mine };
      for (const [name, propertySchema] of Object.entries(value)) {
        if (!Object.hasOwn(props, name)) {
          put(props, name, propertySchema);
          origins.set(
            `properties/${name}`,
            `${additionPointer}/properties/${escapePointerToken(name)}`,
          );
          continue;
        }
        const propertyPointer = `${additionPointer}/properties/${escapePointerToken(name)}`;
        const mergedProperty = mergeSchemas(
          props[name],
          propertySchema,
          propertyPointer,
          depth + 1,
        );
        if (mergedProperty === undefined) return undefined;
        put(props, name, mergedProperty);
      }
      out.properties = props;
    } else if (key === "items") {
      const mergedItems = mergeSchemas(mine, value, `${additionPointer}/items`, depth + 1);
      if (mergedItems === undefined) return undefined;
      out.items = mergedItems;
    } else {
      return undefined;
    }
  }
  return { schema: out, origins };
}

function mergeSchemas(
  base: unknown,
  addition: unknown,
  additionPointer: string,
  depth: number,
): unknown {
  if (base === true || deepEqual(base, {})) return addition;
  if (addition === true || deepEqual(addition, {})) return base;
  if (base === false || addition === false) return false;
  if (!isNonArrayObject(base) || !isNonArrayObject(addition) || depth > MAX_SCHEMA_DEPTH) {
    return undefined;
  }
  return mergeInto(mergeStart(base, ""), addition, additionPointer, depth)?.schema;
}

interface Shape {
  types: Set<string> | undefined;
  values: unknown[] | undefined;
  schema: Obj;
}

function shapeOf(schema: unknown, refs: RefResolver): Shape | undefined {
  const target = refs.deref(schema);
  if (!isNonArrayObject(target)) return undefined;
  const values = Object.hasOwn(target, "const")
    ? [target.const]
    : Array.isArray(target.enum)
    ? target.enum
    : undefined;
  const types = typesOf(target);
  return { types: types.length > 0 ? new Set(types) : undefined, values, schema: target };
}

function typesOverlap(first: Set<string>, second: Set<string>): boolean {
  for (const type of first) {
    if (second.has(type)) return true;
    if (
      (type === "integer" && second.has("number")) || (type === "number" && second.has("integer"))
    ) return true;
  }
  return false;
}

function valueFits(value: unknown, types: Set<string> | undefined): boolean {
  if (types === undefined) return true;
  const type = jsonType(value);
  return types.has(type) || (type === "integer" && types.has("number"));
}

function discriminated(first: Obj, second: Obj, refs: RefResolver): boolean {
  const firstProperties = isNonArrayObject(first.properties) ? first.properties : {};
  const secondProperties = isNonArrayObject(second.properties) ? second.properties : {};
  const firstRequired = Array.isArray(first.required) ? first.required : [];
  const secondRequired = Array.isArray(second.required) ? second.required : [];
  for (const name of Object.keys(firstProperties)) {
    if (
      !firstRequired.includes(name) || !secondRequired.includes(name) ||
      !Object.hasOwn(secondProperties, name)
    ) continue;
    const firstShape = shapeOf(firstProperties[name], refs);
    const secondShape = shapeOf(secondProperties[name], refs);
    if (
      firstShape !== undefined && secondShape !== undefined &&
      disjointShapes(firstShape, secondShape, refs, false)
    ) return true;
  }
  return false;
}

function disjointShapes(first: Shape, second: Shape, refs: RefResolver, deep: boolean): boolean {
  if (
    first.types !== undefined && second.types !== undefined &&
    !typesOverlap(first.types, second.types)
  ) {
    return true;
  }
  const firstValues = first.values;
  const secondValues = second.values;
  if (firstValues !== undefined && secondValues !== undefined) {
    return !firstValues.some((value) => secondValues.some((other) => deepEqual(value, other)));
  }
  if (firstValues !== undefined && firstValues.every((v) => !valueFits(v, second.types))) {
    return true;
  }
  if (secondValues !== undefined && secondValues.every((v) => !valueFits(v, first.types))) {
    return true;
  }
  return deep && discriminated(first.schema, second.schema, refs);
}

/** Whether no value can match two of the branches (so `oneOf` equals `anyOf`). */
export function branchesDisjoint(branches: readonly unknown[], refs: RefResolver): boolean {
  const shapes = branches.map((branch) => shapeOf(branch, refs));
  if (shapes.some((shape) => shape === undefined)) return false;
  for (let index = 0; index < shapes.length; index++) {
    for (let other = index + 1; other < shapes.length; other++) {
      if (!disjointShapes(shapes[index]!, shapes[other]!, refs, true)) return false;
    }
  }
  return true;
}
