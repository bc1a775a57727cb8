// Private: where an object held as JSON text (see _json_text.ts) is ambiguous.
// Inside an `anyOf`, the input normalizer reads a string that holds JSON
// object text as the object whenever a branch has JSON text at that place;
// when another branch can take a plain string at the same place, such a string
// no longer reaches the handler as a string. Those JSON-text nodes are found
// here, conservatively: an object branch without the property counts as taking
// a string there unless it is closed (every Gemini OBJECT takes unknown keys).

import { isObj, type Obj } from "./_json.ts";
import { jsonType } from "./_keywords.ts";

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

class Finder {
  readonly found = new Set<Obj>();
  readonly #seen = new Set<Obj>();
  constructor(readonly text: Set<Obj>, readonly d: TextDialect) {}

  /** The JSON-text nodes below `node` (through properties, items, anyOf, $ref) and their paths. */
  paths(node: unknown, path: Path, out: [Obj, Path][], stack: Set<Obj>): void {
    const n = this.d.deref(node);
    if (!isObj(n) || stack.has(n)) return;
    if (this.text.has(n)) {
      out.push([n, path]);
      return;
    }
    stack.add(n);
    if (isObj(n.properties)) {
      for (const [name, v] of Object.entries(n.properties)) {
        this.paths(v, [...path, name], out, stack);
      }
    }
    if (n.items !== undefined) this.paths(n.items, [...path, null], out, stack);
    if (Array.isArray(n.anyOf)) { for (const b of n.anyOf) this.paths(b, path, out, stack); }
    stack.delete(n);
  }

  /** Whether a plain string (not JSON text) can sit at `path[i..]` of a value `node` accepts. */
  takesString(node: unknown, path: Path, i: number, depth = 0): boolean {
    const n = this.d.deref(node);
    if (!isObj(n)) return n !== false;
    if (depth > 64) return true;
    if (Array.isArray(n.anyOf) && n.anyOf.some((b) => this.takesString(b, path, i, depth + 1))) {
      return true;
    }
    const types = this.d.types(n);
    if (types === undefined) return !Array.isArray(n.anyOf);
    if (i === path.length) return types.includes("string") && !this.text.has(n);
    const token = path[i];
    if (types.includes("object") && token !== null) {
      const props = isObj(n.properties) ? n.properties : {};
      if (!Object.hasOwn(props, token)) return n.additionalProperties !== false;
      return this.takesString(props[token], path, i + 1, depth + 1);
    }
    if (types.includes("array") && token === null) {
      return n.items === undefined || this.takesString(n.items, path, i + 1, depth + 1);
    }
    return false;
  }

  visit(node: unknown): void {
    if (!isObj(node) || this.#seen.has(node)) return;
    this.#seen.add(node);
    for (const key of ["properties", "$defs"]) {
      const map = node[key];
      if (isObj(map)) { for (const v of Object.values(map)) this.visit(v); }
    }
    this.visit(node.items);
    if (!Array.isArray(node.anyOf)) return;
    const branches: unknown[] = node.anyOf;
    for (const branch of branches) {
      this.visit(branch);
      const places: [Obj, Path][] = [];
      this.paths(branch, [], places, new Set());
      for (const [t, path] of places) {
        if (branches.some((o) => o !== branch && this.takesString(o, path, 0))) this.found.add(t);
      }
    }
  }
}

/** The JSON-text nodes of `schema` that another `anyOf` branch makes ambiguous. */
export function ambiguousText(schema: Obj, text: Set<Obj>, dialect: TextDialect): Set<Obj> {
  if (text.size === 0) return new Set();
  const finder = new Finder(text, dialect);
  finder.visit(schema);
  return finder.found;
}
