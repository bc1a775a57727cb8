// Private: where an object held as JSON text (see text.ts) is ambiguous.
// Inside an `anyOf`, the input normalizer reads a string that holds JSON
// object text as the object whenever a branch has JSON text at that place;
// when another branch can take a plain string at the same place, such a string
// no longer reaches the handler as a string. Those JSON-text nodes are found
// here, conservatively: an object branch without the property counts as taking
// a string there unless it is closed (every Gemini OBJECT takes unknown keys).

import { jsonType, type Obj } from "../_schema/mod.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";
import { MAX_SCHEMA_DEPTH } from "../limits.ts";

/** How a schema dialect is read: a node's JSON types (`undefined`: any) and `$ref`s. */
export interface TextDialect {
  types(node: Obj): string[] | undefined;
  deref(node: unknown): unknown;
}

/** Gemini's OpenAPI subset: one upper-case type, no references. */
export const OPENAPI_DIALECT: TextDialect = {
  types: (node) => typeof node.type === "string" ? [node.type.toLowerCase()] : undefined,
  deref: (node) => node,
};

/** JSON Schema with local references resolved by `deref`. */
export function jsonSchemaDialect(deref: (node: unknown) => unknown): TextDialect {
  return {
    types(node) {
      if (typeof node.type === "string") return [node.type];
      if (Array.isArray(node.type)) return node.type;
      if (Object.hasOwn(node, "const")) return [jsonType(node.const)];
      return Array.isArray(node.enum) ? node.enum.map(jsonType) : undefined;
    },
    deref,
  };
}

/** A place below an `anyOf` branch: property names, `null` for array items. */
type Path = (string | null)[];

/**
 * Steps (schema nodes looked at) one search may take; beyond them it stops
 * and every JSON-text node counts as ambiguous. Schemas that share references
 * under `anyOf`s can have exponentially many routes; this bounds the time.
 */
const MAX_STEPS = 200_000;

function pathKey(path: Path): string {
  return path.map((p) => p === null ? "\u0001" : p).join("\u0000");
}

class Finder {
  readonly found = new Set<Obj>();
  /** Set when a search went deeper than `MAX_SCHEMA_DEPTH` or beyond `MAX_STEPS` and stopped. */
  truncated = false;
  readonly #seen = new Set<Obj>();
  #steps = 0;
  /** `takesString` results for the current path, by node and position. */
  #memo = new Map<Obj, Map<number, boolean>>();
  constructor(readonly text: Set<Obj>, readonly d: TextDialect) {}

  #step(): boolean {
    if (++this.#steps <= MAX_STEPS) return true;
    this.truncated = true;
    return false;
  }

  /**
   * The JSON-text nodes below `node` (through properties, items, anyOf, $ref)
   * and their paths; `done` holds the (node, path) pairs already searched.
   */
  paths(
    node: unknown,
    path: Path,
    out: [Obj, Path][],
    stack: Set<Obj>,
    done: Map<Obj, Set<string>>,
  ): void {
    const n = this.d.deref(node);
    if (!isNonArrayObject(n) || stack.has(n) || this.truncated || !this.#step()) return;
    if (stack.size >= MAX_SCHEMA_DEPTH) {
      this.truncated = true;
      return;
    }
    const key = pathKey(path);
    let keys = done.get(n);
    if (keys === undefined) done.set(n, keys = new Set());
    if (keys.has(key)) return;
    keys.add(key);
    if (this.text.has(n)) {
      out.push([n, path]);
      return;
    }
    stack.add(n);
    if (isNonArrayObject(n.properties)) {
      for (const [name, v] of Object.entries(n.properties)) {
        this.paths(v, [...path, name], out, stack, done);
      }
    }
    if (n.items !== undefined) this.paths(n.items, [...path, null], out, stack, done);
    if (Array.isArray(n.anyOf)) {
      for (const b of n.anyOf) this.paths(b, path, out, stack, done);
    }
    stack.delete(n);
  }

  /** Whether a plain string (not JSON text) can sit at `path[i..]` of a value `node` accepts. */
  takesString(node: unknown, path: Path, i: number, depth = 0): boolean {
    const n = this.d.deref(node);
    if (!isNonArrayObject(n)) return n !== false;
    if (depth > 64 || !this.#step()) return true;
    let byPosition = this.#memo.get(n);
    if (byPosition === undefined) this.#memo.set(n, byPosition = new Map());
    let found = byPosition.get(i);
    if (found === undefined) {
      byPosition.set(i, true); // a loop back here may take a string, as far as this search knows
      found = this.#takesString(n, path, i, depth);
      byPosition.set(i, found);
    }
    return found;
  }

  #takesString(n: Obj, path: Path, i: number, depth: number): boolean {
    if (Array.isArray(n.anyOf) && n.anyOf.some((b) => this.takesString(b, path, i, depth + 1))) {
      return true;
    }
    const types = this.d.types(n);
    if (types === undefined) return !Array.isArray(n.anyOf);
    if (i === path.length) return types.includes("string") && !this.text.has(n);
    const token = path[i];
    if (types.includes("object") && token !== null) {
      const props = isNonArrayObject(n.properties) ? n.properties : {};
      if (!Object.hasOwn(props, token)) return n.additionalProperties !== false;
      return this.takesString(props[token], path, i + 1, depth + 1);
    }
    if (types.includes("array") && token === null) {
      return n.items === undefined || this.takesString(n.items, path, i + 1, depth + 1);
    }
    return false;
  }

  visit(node: unknown): void {
    if (!isNonArrayObject(node) || this.#seen.has(node) || this.truncated) return;
    this.#seen.add(node);
    for (const key of ["properties", "$defs"]) {
      const map = node[key];
      if (isNonArrayObject(map)) { for (const v of Object.values(map)) this.visit(v); }
    }
    this.visit(node.items);
    if (!Array.isArray(node.anyOf)) return;
    const branches: unknown[] = node.anyOf;
    for (const branch of branches) {
      this.visit(branch);
      const places: [Obj, Path][] = [];
      this.paths(branch, [], places, new Set(), new Map());
      for (const [t, path] of places) {
        if (this.found.has(t)) continue;
        this.#memo = new Map();
        if (branches.some((o) => o !== branch && this.takesString(o, path, 0))) this.found.add(t);
      }
    }
  }
}

/**
 * The JSON-text nodes of `schema` that another `anyOf` branch makes
 * ambiguous. When a branch nests (through `$ref`s) deeper than
 * `MAX_SCHEMA_DEPTH`, or the search would take more than `MAX_STEPS`,
 * every JSON-text node is counted as ambiguous: the warnings may overstate,
 * never understate.
 */
export function ambiguousText(schema: Obj, text: Set<Obj>, dialect: TextDialect): Set<Obj> {
  if (text.size === 0) return new Set();
  const finder = new Finder(text, dialect);
  finder.visit(schema);
  return finder.truncated ? new Set(text) : finder.found;
}
