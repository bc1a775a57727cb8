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
import { escapePointerToken, isNonArrayObject } from "../../model/_json_pointer.ts";
import { MAX_SCHEMA_DEPTH } from "../limits.ts";

/** A merged schema and, per top-level key (and `properties/<name>`), the pointer it came from. */
export interface Merged {
  schema: Obj;
  origins: Map<string, string>;
}

const MIN = new Set(["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"]);
const MAX = new Set(["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"]);
const CLOSERS = ["additionalProperties", "patternProperties", "unevaluatedProperties"];

function intersectTypes(a: string[], b: string[]): string[] {
  const out: string[] = [];
  for (const t of a) {
    if (b.includes(t)) out.push(t);
    else if (t === "integer" && b.includes("number")) out.push("integer");
    else if (t === "number" && b.includes("integer")) out.push("integer");
  }
  return [...new Set(out)];
}

function closes(side: Obj, other: Obj): boolean {
  if (!CLOSERS.some((k) => side[k] !== undefined && side[k] !== true)) return false;
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
 * Merges `b` (found at `bPointer`) into `acc` so that the result accepts
 * exactly the values both accept; `undefined` when that cannot be expressed
 * without `allOf`. Annotations already in `acc` win.
 */
export function mergeInto(acc: Merged, b: Obj, bPointer: string, depth = 0): Merged | undefined {
  const a = acc.schema;
  if (closes(a, b) || closes(b, a)) return undefined;
  const out: Obj = { ...a };
  const origins = new Map(acc.origins);
  for (const [key, value] of Object.entries(b)) {
    if (!Object.hasOwn(out, key)) {
      put(out, key, value);
      origins.set(key, bPointer);
      if (key === "properties" && isNonArrayObject(value)) {
        for (const name of Object.keys(value)) {
          origins.set(`properties/${name}`, `${bPointer}/properties/${escapePointerToken(name)}`);
        }
      }
      continue;
    }
    const mine = out[key];
    if (deepEqual(mine, value)) continue;
    if (ANNOTATIONS.has(key) || key.startsWith("x-")) continue;
    if (key === "type") {
      const t = intersectTypes(typesOf(out), typesOf(b));
      if (t.length === 0) return undefined;
      out.type = t.length === 1 ? t[0] : t;
    } else if (key === "required" && Array.isArray(mine) && Array.isArray(value)) {
      out.required = [...new Set([...mine, ...value])];
    } else if (MIN.has(key) && typeof mine === "number" && typeof value === "number") {
      out[key] = Math.max(mine, value);
    } else if (MAX.has(key) && typeof mine === "number" && typeof value === "number") {
      out[key] = Math.min(mine, value);
    } else if (key === "enum" && Array.isArray(mine) && Array.isArray(value)) {
      out.enum = mine.filter((x) => value.some((y) => deepEqual(x, y)));
    } else if (key === "properties" && isNonArrayObject(mine) && isNonArrayObject(value)) {
      const props: Obj = { ...mine };
      for (const [name, sub] of Object.entries(value)) {
        if (!Object.hasOwn(props, name)) {
          put(props, name, sub);
          origins.set(`properties/${name}`, `${bPointer}/properties/${escapePointerToken(name)}`);
          continue;
        }
        const p = `${bPointer}/properties/${escapePointerToken(name)}`;
        const merged = mergeSchemas(props[name], sub, p, depth + 1);
        if (merged === undefined) return undefined;
        put(props, name, merged);
      }
      out.properties = props;
    } else if (key === "items") {
      const merged = mergeSchemas(mine, value, `${bPointer}/items`, depth + 1);
      if (merged === undefined) return undefined;
      out.items = merged;
    } else {
      return undefined;
    }
  }
  return { schema: out, origins };
}

function mergeSchemas(a: unknown, b: unknown, bPointer: string, depth: number): unknown {
  if (a === true || deepEqual(a, {})) return b;
  if (b === true || deepEqual(b, {})) return a;
  if (a === false || b === false) return false;
  if (!isNonArrayObject(a) || !isNonArrayObject(b) || depth > MAX_SCHEMA_DEPTH) return undefined;
  return mergeInto(mergeStart(a, ""), b, bPointer, depth)?.schema;
}

interface Shape {
  types: Set<string> | undefined;
  values: unknown[] | undefined;
  schema: Obj;
}

function shapeOf(schema: unknown, refs: RefResolver): Shape | undefined {
  const s = refs.deref(schema);
  if (!isNonArrayObject(s)) return undefined;
  const values = Object.hasOwn(s, "const") ? [s.const] : Array.isArray(s.enum) ? s.enum : undefined;
  const t = typesOf(s);
  return { types: t.length > 0 ? new Set(t) : undefined, values, schema: s };
}

function typesOverlap(a: Set<string>, b: Set<string>): boolean {
  for (const t of a) {
    if (b.has(t)) return true;
    if ((t === "integer" && b.has("number")) || (t === "number" && b.has("integer"))) return true;
  }
  return false;
}

function valueFits(value: unknown, types: Set<string> | undefined): boolean {
  if (types === undefined) return true;
  const t = jsonType(value);
  return types.has(t) || (t === "integer" && types.has("number"));
}

function discriminated(a: Obj, b: Obj, refs: RefResolver): boolean {
  const pa = isNonArrayObject(a.properties) ? a.properties : {};
  const pb = isNonArrayObject(b.properties) ? b.properties : {};
  const ra = Array.isArray(a.required) ? a.required : [];
  const rb = Array.isArray(b.required) ? b.required : [];
  for (const name of Object.keys(pa)) {
    if (!ra.includes(name) || !rb.includes(name) || !Object.hasOwn(pb, name)) continue;
    const sa = shapeOf(pa[name], refs);
    const sb = shapeOf(pb[name], refs);
    if (sa !== undefined && sb !== undefined && disjointShapes(sa, sb, refs, false)) return true;
  }
  return false;
}

function disjointShapes(a: Shape, b: Shape, refs: RefResolver, deep: boolean): boolean {
  if (a.types !== undefined && b.types !== undefined && !typesOverlap(a.types, b.types)) {
    return true;
  }
  if (a.values !== undefined && b.values !== undefined) {
    return !a.values.some((x) => b.values!.some((y) => deepEqual(x, y)));
  }
  if (a.values !== undefined && a.values.every((v) => !valueFits(v, b.types))) return true;
  if (b.values !== undefined && b.values.every((v) => !valueFits(v, a.types))) return true;
  return deep && discriminated(a.schema, b.schema, refs);
}

/** Whether no value can match two of the branches (so `oneOf` equals `anyOf`). */
export function branchesDisjoint(branches: readonly unknown[], refs: RefResolver): boolean {
  const shapes = branches.map((b) => shapeOf(b, refs));
  if (shapes.some((s) => s === undefined)) return false;
  for (let i = 0; i < shapes.length; i++) {
    for (let j = i + 1; j < shapes.length; j++) {
      if (!disjointShapes(shapes[i]!, shapes[j]!, refs, true)) return false;
    }
  }
  return true;
}
