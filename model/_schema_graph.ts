// Private: the graph of a schema document for checkSchemaStructure. One
// iterative walk (no recursion: any depth is safe) records every subschema,
// its base URI, anchors, `$ref`s, and the subschemas it applies to the same
// instance location ("in place"); `$ref`s are then resolved statically.

import { escapePointerToken, unescapePointerToken } from "./json_pointer.ts";
import { isPlainObject } from "./plain_object.ts";

/** The walk's limits. */
interface Limits {
  maxDepth: number;
  maxJsonDepth: number;
  maxNodes: number;
}

/** A limit was exceeded at `location` (a pointer, or `uri#pointer` in another document). */
export class LimitExceeded extends Error {
  constructor(
    readonly problem: "depth" | "size",
    readonly location: string,
    readonly limit: number,
    readonly what: string,
  ) {
    super(what);
  }
}

/** One subschema (an object; boolean schemas have no edges). */
interface SchemaNode {
  key: string;
  /** Pointer to the subschema, `uri#pointer` outside the root document. */
  location: string;
  base: string;
  /** Subschemas applied in place (keys), as written. */
  inPlace: string[];
  /** Subschemas applied to parts of the value (keys): `properties`, `items`, ... */
  progress: string[];
  /** `$ref`/`$dynamicRef` values with where they are written. */
  refs: { value: string; dynamic: boolean; location: string }[];
  /** Resolved in-place edges: target key and the location of the `$ref` (if one). */
  edges: { to: string; via?: string }[];
}

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;

// Keywords whose value is a subschema, a list or a map of subschemas.
const IN_PLACE_ONE = new Set(["not", "if"]);
// `then` and `else` apply only beside an `if`.
const BRANCHES = new Set(["then", "else"]);
const IN_PLACE_LIST = new Set(["allOf", "anyOf", "oneOf"]);
const ONE = new Set(["additionalProperties", "propertyNames", "contains"]);
// Keywords of one dialect only; in the other they are unknown, their values data.
const ONE_2020 = new Set(["unevaluatedProperties", "unevaluatedItems", "contentSchema"]);
const ONE_07 = new Set(["additionalItems"]);
const MAP = new Set(["properties", "patternProperties"]);
const CONTAINERS = new Set(["$defs", "definitions"]);

interface Task {
  value: unknown;
  pointer: string;
  json: number;
  schema: number;
  /** Set when the value is a subschema. */
  asSchema: boolean;
  base: string;
  draft07: boolean;
  /** The in-place parent's key, when this subschema is applied in place. */
  parent?: string;
  /** The parent's key, when this subschema applies to a part of the parent's value. */
  progress?: string;
}

/** The graph of one or more documents. */
export class SchemaGraph {
  readonly nodes = new Map<string, SchemaNode>();
  /** Base URI (no fragment) → document URI and pointer of the resource root. */
  readonly resources = new Map<string, { doc: string; pointer: string; draft07: boolean }>();
  readonly anchors = new Map<string, string>();
  readonly dynamicAnchors = new Map<string, string[]>();
  readonly documents = new Map<string, unknown>();
  /** Trusted documents not walked yet, by URI. */
  readonly pending = new Map<string, unknown>();
  #count = 0;

  constructor(readonly limits: Limits, readonly rootUri: string) {}

  /** Where a pointer of a document is, for messages. */
  location(doc: string, pointer: string): string {
    return doc === this.rootUri ? pointer : `${doc}#${pointer}`;
  }

  /** Walks a value as a subschema of document `doc` at `pointer`. */
  walk(doc: string, value: unknown, pointer: string, base: string, draft07: boolean): void {
    const stack: Task[] = [{ value, pointer, json: 0, schema: 0, asSchema: true, base, draft07 }];
    while (stack.length > 0) {
      const task = stack.pop()!;
      if (typeof task.value !== "object" || task.value === null) continue;
      const where = this.location(doc, task.pointer);
      if (++this.#count > this.limits.maxNodes) {
        throw new LimitExceeded("size", where, this.limits.maxNodes, "objects and arrays");
      }
      if (task.json >= this.limits.maxJsonDepth) {
        throw new LimitExceeded("depth", where, this.limits.maxJsonDepth, "JSON levels");
      }
      if (task.asSchema && task.schema >= this.limits.maxDepth) {
        throw new LimitExceeded("depth", where, this.limits.maxDepth, "schema levels");
      }
      if (Array.isArray(task.value)) {
        for (let i = task.value.length - 1; i >= 0; i--) {
          stack.push({
            ...task,
            value: task.value[i],
            pointer: `${task.pointer}/${i}`,
            json: task.json + 1,
            asSchema: false,
            parent: undefined,
            progress: undefined,
          });
        }
        continue;
      }
      if (!isPlainObject(task.value)) continue;
      if (!task.asSchema) {
        for (const [k, v] of Object.entries(task.value)) {
          stack.push({
            ...task,
            value: v,
            pointer: `${task.pointer}/${escapePointerToken(k)}`,
            json: task.json + 1,
            parent: undefined,
            progress: undefined,
          });
        }
        continue;
      }
      this.#schema(doc, task, stack);
    }
  }

  #schema(doc: string, task: Task, stack: Task[]): void {
    const obj = task.value as Record<string, unknown>;
    const key = `${doc}#${task.pointer}`;
    if (task.parent !== undefined) this.nodes.get(task.parent)?.inPlace.push(key);
    if (task.progress !== undefined) this.nodes.get(task.progress)?.progress.push(key);
    if (this.nodes.has(key)) return;
    let { base, draft07 } = task;
    let alias: string | undefined;
    if (typeof obj.$schema === "string") {
      draft07 = DRAFT_07.test(obj.$schema) || (draft07 && !obj.$schema.includes("2020-12"));
    }
    if (typeof obj.$id === "string") {
      const id = resolve(obj.$id, base);
      if (id !== undefined) {
        const [idBase, fragment] = split(id);
        if (obj.$id.startsWith("#") && draft07) this.anchors.set(`${base}#${fragment}`, key);
        else if (!draft07 && idBase === base && task.pointer !== "" && this.resources.has(base)) {
          // Hyperjump turns a subschema whose `$id` names the enclosing
          // resource (`"#frag"`, `""`) into a reference to that resource.
          const resource = this.resources.get(base)!;
          alias = `${resource.doc}#${resource.pointer}`;
        } else {
          base = idBase;
          this.resources.set(idBase, { doc, pointer: task.pointer, draft07 });
          if (fragment !== "" && !fragment.startsWith("/")) {
            this.anchors.set(`${idBase}#${fragment}`, key);
          }
        }
      }
    }
    if (!draft07 && typeof obj.$anchor === "string") {
      this.anchors.set(`${base}#${obj.$anchor}`, key);
    }
    if (!draft07 && typeof obj.$dynamicAnchor === "string") {
      this.anchors.set(`${base}#${obj.$dynamicAnchor}`, key);
      const list = this.dynamicAnchors.get(obj.$dynamicAnchor) ?? [];
      list.push(key);
      this.dynamicAnchors.set(obj.$dynamicAnchor, list);
    }
    const node: SchemaNode = {
      key,
      location: this.location(doc, task.pointer),
      base,
      inPlace: [],
      progress: [],
      refs: [],
      edges: [],
    };
    this.nodes.set(key, node);
    if (alias !== undefined) node.edges.push({ to: alias, via: `${node.location}/$id` });
    // draft-07 ignores every keyword beside `$ref`: nothing else applies in place.
    const refOnly = draft07 && typeof obj.$ref === "string";
    if (typeof obj.$ref === "string") {
      node.refs.push({ value: obj.$ref, dynamic: false, location: `${node.location}/$ref` });
    }
    if (!draft07 && typeof obj.$dynamicRef === "string") {
      node.refs.push({
        value: obj.$dynamicRef,
        dynamic: true,
        location: `${node.location}/$dynamicRef`,
      });
    }
    const next = { json: task.json + 1, base, draft07 };
    for (const [k, v] of Object.entries(obj)) {
      const pointer = `${task.pointer}/${escapePointerToken(k)}`;
      const sub = { ...next, pointer, value: v, schema: task.schema + 1, asSchema: true };
      const inPlaceParent = refOnly ? undefined : key;
      const progress = refOnly ? undefined : key;
      if (IN_PLACE_ONE.has(k)) stack.push({ ...sub, parent: inPlaceParent });
      else if (BRANCHES.has(k)) {
        stack.push({ ...sub, parent: "if" in obj ? inPlaceParent : undefined });
      } else if (IN_PLACE_LIST.has(k) && Array.isArray(v)) {
        this.#each(stack, v.map((item, i) => [String(i), item]), sub, task.json, inPlaceParent);
      } else if (
        (k === "dependentSchemas" && !draft07 || k === "dependencies" && draft07) &&
        isPlainObject(v)
      ) {
        this.#each(stack, Object.entries(v), sub, task.json, inPlaceParent);
      } else if (
        ONE.has(k) || (draft07 ? ONE_07 : ONE_2020).has(k) ||
        (k === "items" && (!draft07 || !Array.isArray(v)))
      ) {
        stack.push({ ...sub, progress });
      } else if (((k === "prefixItems" && !draft07) || k === "items") && Array.isArray(v)) {
        const items: [string, unknown][] = v.map((item, i) => [String(i), item]);
        this.#each(stack, items, sub, task.json, undefined, progress);
      } else if (MAP.has(k) && isPlainObject(v)) {
        this.#each(stack, Object.entries(v), sub, task.json, undefined, progress);
      } else if (CONTAINERS.has(k) && isPlainObject(v)) {
        this.#each(stack, Object.entries(v), sub, task.json, undefined);
      } else {
        stack.push({ ...sub, schema: task.schema, asSchema: false, parent: undefined });
      }
    }
  }

  /** Pushes the members of a list or map of subschemas (the container is one JSON level). */
  #each(
    stack: Task[],
    entries: [string, unknown][],
    sub: Task,
    json: number,
    parent: string | undefined,
    progress?: string,
  ): void {
    for (let i = entries.length - 1; i >= 0; i--) {
      const [name, value] = entries[i];
      const pointer = `${sub.pointer}/${escapePointerToken(name)}`;
      stack.push({ ...sub, value, pointer, json: json + 2, parent, progress });
    }
  }

  /** Walks a pending trusted document. */
  open(uri: string): void {
    const value = this.pending.get(uri);
    this.pending.delete(uri);
    this.documents.set(uri, value);
    const draft07 = isPlainObject(value) && typeof value.$schema === "string" &&
      DRAFT_07.test(value.$schema);
    this.resources.set(uri, { doc: uri, pointer: "", draft07 });
    this.walk(uri, value, "", uri, draft07);
  }

  /** The key of the subschema a reference resolves to, walking it if needed. */
  target(ref: string, base: string): string | undefined {
    const uri = resolve(ref, base);
    if (uri === undefined) return undefined;
    const [docBase, fragment] = split(uri);
    if (fragment !== "" && !fragment.startsWith("/")) {
      return this.anchors.get(`${docBase}#${fragment}`);
    }
    let resource = this.resources.get(docBase);
    if (resource === undefined && this.pending.size > 0) {
      const direct = this.pending.has(docBase) ? [docBase] : [...this.pending.keys()];
      for (const uri of direct) this.open(uri);
      resource = this.resources.get(docBase);
    }
    if (resource === undefined) return undefined;
    const pointer = resource.pointer + normalizePointer(fragment);
    const key = `${resource.doc}#${pointer}`;
    if (this.nodes.has(key)) return key;
    const value = at(this.documents.get(resource.doc), pointer);
    if (value === undefined || (typeof value !== "object" && typeof value !== "boolean")) {
      return undefined;
    }
    if (typeof value === "boolean") return undefined;
    this.walk(resource.doc, value, pointer, docBase, resource.draft07);
    return key;
  }
}

/** Resolves a reference against a base, or undefined when it is not a URI reference. */
export function resolve(ref: string, base: string): string | undefined {
  try {
    return new URL(ref, base).href;
  } catch {
    return undefined;
  }
}

function split(uri: string): [string, string] {
  const hash = uri.indexOf("#");
  if (hash < 0) return [uri, ""];
  let fragment = uri.slice(hash + 1);
  try {
    fragment = decodeURIComponent(fragment);
  } catch { /* keep it as written */ }
  return [uri.slice(0, hash), fragment];
}

function normalizePointer(pointer: string): string {
  if (pointer === "") return "";
  return pointer.slice(1).split("/").map((t) => "/" + t).join("");
}

function at(document: unknown, pointer: string): unknown {
  if (pointer === "") return document;
  let current = document;
  for (const raw of pointer.slice(1).split("/")) {
    const token = unescapePointerToken(raw);
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, token)) {
      return undefined;
    }
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}
