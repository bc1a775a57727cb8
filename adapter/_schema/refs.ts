// Private: local `$ref` resolution inside one schema document (never any I/O).

import { atPointer } from "./json.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";
import { eachSchemaObject, Progress, Recursion, type RefSource } from "./ref_graph.ts";

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;

/** Resolves local references of one schema document to JSON Pointers. */
export class RefResolver implements RefSource {
  readonly root: unknown;
  #anchors?: Map<string, string>;
  readonly #refsIn = new Map<string, string[]>();
  #recursion?: Recursion;
  #progress?: Progress;

  constructor(root: unknown) {
    this.root = root;
  }

  /** The pointer a `$ref` resolves to, or `undefined` when it leaves the document or dangles. */
  resolve(ref: string): string | undefined {
    let fragment: string;
    const hash = ref.indexOf("#");
    const base = hash < 0 ? ref : ref.slice(0, hash);
    if (base !== "") {
      const id = isNonArrayObject(this.root) && typeof this.root.$id === "string"
        ? this.root.$id
        : undefined;
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
      return target === undefined || (typeof target !== "boolean" && !isNonArrayObject(target))
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
    while (isNonArrayObject(schema) && typeof schema.$ref === "string") {
      const target = this.resolve(schema.$ref);
      if (target === undefined || seen.has(target)) return schema;
      seen.add(target);
      schema = this.at(target);
    }
    return schema;
  }

  /**
   * The pointer of the `$ref` closing a loop of references and in-place
   * keywords (`allOf`, `anyOf`, `not`, ...) reachable from the schema at
   * `pointer`, which no evaluation could finish; else `undefined`.
   */
  cycleFrom(pointer: string): string | undefined {
    if (this.#progress === undefined) {
      const refOnly = isNonArrayObject(this.root) && typeof this.root.$schema === "string" &&
        DRAFT_07.test(this.root.$schema);
      this.#progress = new Progress(this, refOnly);
    }
    return this.#progress.cycleFrom(pointer);
  }

  /** Whether following references from the schema at `pointer` can lead back into it. */
  isRecursive(pointer: string): boolean {
    this.#recursion ??= new Recursion(this);
    return this.#recursion.isRecursive(pointer);
  }

  /** The targets of the references inside the schema at `pointer`, in document order. */
  refsUnder(pointer: string): readonly string[] {
    let found = this.#refsIn.get(pointer);
    if (found === undefined) {
      const list: string[] = [];
      eachSchemaObject(this.at(pointer), undefined, (node) => {
        if (typeof node.$ref !== "string") return;
        const target = this.resolve(node.$ref);
        if (target !== undefined) list.push(target);
      });
      this.#refsIn.set(pointer, found = list);
    }
    return found;
  }

  #anchorIndex(): Map<string, string> {
    if (this.#anchors === undefined) {
      const anchors = new Map<string, string>();
      eachSchemaObject(this.root, "", (node, pointer) => {
        if (typeof node.$anchor === "string" && !anchors.has(node.$anchor)) {
          anchors.set(node.$anchor, pointer);
        }
        if (typeof node.$id === "string" && node.$id.startsWith("#")) {
          anchors.set(node.$id.slice(1), pointer);
        }
      });
      this.#anchors = anchors;
    }
    return this.#anchors;
  }
}

/** Per resolver: whether the schema at a reference target accepts `null` (`false` while open). */
const NULL_TARGETS = new WeakMap<RefResolver, Map<string, boolean>>();

/** Whether the schema at a reference target accepts `null`, each target computed once. */
function targetAcceptsNull(target: string, refs: RefResolver, depth: number): boolean {
  let known = NULL_TARGETS.get(refs);
  if (known === undefined) NULL_TARGETS.set(refs, known = new Map());
  let found = known.get(target);
  if (found === undefined) {
    known.set(target, false);
    found = acceptsNull(refs.at(target), refs, depth + 1);
    known.set(target, found);
  }
  return found;
}

/**
 * Whether a (source) schema accepts `null`, following local references
 * (each target once, so shared references cost no more than one).
 */
export function acceptsNull(schema: unknown, refs: RefResolver, depth = 0): boolean {
  if (schema === true) return true;
  if (!isNonArrayObject(schema) || depth > 32) return false;
  if (typeof schema.$ref === "string") {
    const target = refs.resolve(schema.$ref);
    if (target !== undefined && !targetAcceptsNull(target, refs, depth)) return false;
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
