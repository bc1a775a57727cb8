// Private: local `$ref` resolution inside one schema document (never any I/O).

import { atPointer, esc, isObj, type Obj } from "./_json.ts";

/** Resolves local references of one schema document to JSON Pointers. */
export class RefResolver {
  readonly root: unknown;
  #anchors?: Map<string, string>;
  readonly #recursive = new Map<string, boolean>();
  readonly #refsIn = new Map<string, string[]>();

  constructor(root: unknown) {
    this.root = root;
  }

  /** The pointer a `$ref` resolves to, or `undefined` when it leaves the document or dangles. */
  resolve(ref: string): string | undefined {
    let fragment: string;
    const hash = ref.indexOf("#");
    const base = hash < 0 ? ref : ref.slice(0, hash);
    if (base !== "") {
      const id = isObj(this.root) && typeof this.root.$id === "string" ? this.root.$id : undefined;
      if (id === undefined || id.split("#")[0] !== base) return undefined;
    }
    fragment = hash < 0 ? "" : ref.slice(hash + 1);
    try {
      fragment = decodeURIComponent(fragment);
    } catch {
      return undefined;
    }
    if (fragment === "" || fragment.startsWith("/")) {
      const target = atPointer(this.root, fragment);
      return target === undefined || (typeof target !== "boolean" && !isObj(target))
        ? undefined
        : fragment;
    }
    return this.#anchorIndex().get(fragment);
  }

  /** The schema at a pointer. */
  at(pointer: string): unknown {
    return atPointer(this.root, pointer);
  }

  /** Follows a chain of pure `$ref`s; the schema itself when it is not a reference. */
  deref(schema: unknown, seen: Set<string> = new Set()): unknown {
    if (!isObj(schema) || typeof schema.$ref !== "string") return schema;
    const target = this.resolve(schema.$ref);
    if (target === undefined || seen.has(target)) return schema;
    seen.add(target);
    return this.deref(this.at(target), seen);
  }

  /** Whether following references from the schema at `pointer` can lead back into it. */
  isRecursive(pointer: string): boolean {
    let found = this.#recursive.get(pointer);
    if (found !== undefined) return found;
    found = false;
    const seen = new Set<string>();
    const stack = [pointer];
    while (stack.length > 0 && !found) {
      const current = stack.pop()!;
      for (const target of this.#refsUnder(current)) {
        if (target === "" || target === pointer || pointer.startsWith(`${target}/`)) {
          found = true;
          break;
        }
        if (!seen.has(target)) {
          seen.add(target);
          stack.push(target);
        }
      }
    }
    this.#recursive.set(pointer, found);
    return found;
  }

  #refsUnder(pointer: string): string[] {
    let found = this.#refsIn.get(pointer);
    if (found === undefined) {
      found = [];
      const visit = (node: unknown): void => {
        if (Array.isArray(node)) { for (const item of node) visit(item); }
        else if (isObj(node)) {
          for (const [key, value] of Object.entries(node)) {
            if (key === "$ref" && typeof value === "string") {
              const target = this.resolve(value);
              if (target !== undefined) found!.push(target);
            } else if (
              key !== "enum" && key !== "const" && key !== "default" && key !== "examples"
            ) {
              visit(value);
            }
          }
        }
      };
      visit(this.at(pointer));
      this.#refsIn.set(pointer, found);
    }
    return found;
  }

  #anchorIndex(): Map<string, string> {
    if (this.#anchors === undefined) {
      const anchors = new Map<string, string>();
      const visit = (node: unknown, pointer: string): void => {
        if (Array.isArray(node)) node.forEach((item, i) => visit(item, `${pointer}/${i}`));
        else if (isObj(node)) {
          if (typeof node.$anchor === "string" && !anchors.has(node.$anchor)) {
            anchors.set(node.$anchor, pointer);
          }
          if (typeof node.$id === "string" && node.$id.startsWith("#")) {
            anchors.set(node.$id.slice(1), pointer);
          }
          for (const [key, value] of Object.entries(node)) {
            if (key !== "enum" && key !== "const" && key !== "default" && key !== "examples") {
              visit(value, `${pointer}/${esc(key)}`);
            }
          }
        }
      };
      visit(this.root, "");
      this.#anchors = anchors;
    }
    return this.#anchors;
  }
}

/** Whether a (source) schema accepts `null`, following local references. */
export function acceptsNull(schema: unknown, refs: RefResolver, depth = 0): boolean {
  if (schema === true) return true;
  if (!isObj(schema) || depth > 32) return false;
  if (typeof schema.$ref === "string") {
    const target = refs.resolve(schema.$ref);
    if (target !== undefined && !acceptsNull(refs.at(target), refs, depth + 1)) return false;
  }
  if (schema.nullable === true) return true;
  if (schema.type !== undefined) {
    const types = typeof schema.type === "string" ? [schema.type] : schema.type;
    if (!Array.isArray(types) || !types.includes("null")) return false;
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) return false;
  if (Object.hasOwn(schema, "const") && schema.const !== null) return false;
  for (const key of ["anyOf", "oneOf"]) {
    const list = schema[key];
    if (Array.isArray(list) && !list.some((b) => acceptsNull(b, refs, depth + 1))) return false;
  }
  if (Array.isArray(schema.allOf) && !schema.allOf.every((b) => acceptsNull(b, refs, depth + 1))) {
    return false;
  }
  if (schema.not !== undefined) return false;
  return true;
}

/** Reads a schema object's keys as a plain object (booleans become `{}`/`{not:{}}`). */
export function asObj(schema: unknown): Obj | undefined {
  if (schema === true) return {};
  if (schema === false) return { not: {} };
  return isObj(schema) ? schema : undefined;
}
