// Private: the input normalizer of a converted JSON Schema (OpenAI and
// Anthropic strict mode): null <-> absent for originally optional fields
// (null markers), maps held as JSON text <-> the object, local `$ref`s followed.

import { jsonType, type Obj, put } from "../_schema/mod.ts";
import { unescapePointerToken } from "../../model/json_pointer.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";
import { textFits } from "../_json_text/mod.ts";
import { MAX_NORMALIZER_DEPTH, SchemaNormalizer } from "./base.ts";

/** Follows local `$ref`s (`#`, `#/$defs/...`) of a converted schema. */
export function resolve(schema: unknown, root: Obj): unknown {
  for (let i = 0; i < 32 && isNonArrayObject(schema) && typeof schema.$ref === "string"; i++) {
    const ref = schema.$ref;
    if (ref === "#") schema = root;
    else if (ref.startsWith("#/$defs/") && isNonArrayObject(root.$defs)) {
      const name = unescapePointerToken(ref.slice(8));
      schema = Object.hasOwn(root.$defs, name) ? root.$defs[name] : undefined;
    } else return undefined;
  }
  return schema;
}

function typeFits(value: unknown, schema: Obj): boolean {
  const t = schema.type;
  if (t === undefined) return true;
  const types = typeof t === "string" ? [t] : Array.isArray(t) ? t : [];
  const vt = jsonType(value);
  return types.includes(vt) || (vt === "integer" && types.includes("number"));
}

/** The normalizer of a converted JSON Schema, its null markers and its JSON-text nodes. */
export class JsonSchemaNormalizer extends SchemaNormalizer {
  constructor(root: Obj, readonly marks: Map<Obj, Set<string>>, text: Set<Obj>) {
    super(root, text);
  }

  /**
   * `#matches` results of the current call, by value and schema: branches
   * that share a subschema would otherwise check the same part of the
   * arguments again at every level (exponential in their depth).
   */
  #memo = new WeakMap<object, Map<Obj, boolean>>();

  protected override start(): void {
    this.#memo = new WeakMap();
  }

  deref(schema: unknown): unknown {
    return resolve(schema, this.root);
  }

  #matches(value: unknown, schema: unknown, filling: boolean, depth: number): boolean {
    const s = resolve(schema, this.root);
    if (!isNonArrayObject(s)) return s !== false;
    if (depth > MAX_NORMALIZER_DEPTH) return true;
    if (typeof value !== "object" || value === null) return this.#check(value, s, filling, depth);
    let bySchema = this.#memo.get(value);
    if (bySchema === undefined) this.#memo.set(value, bySchema = new Map());
    let found = bySchema.get(s);
    if (found === undefined) {
      found = this.#check(value, s, filling, depth);
      bySchema.set(s, found);
    }
    return found;
  }

  /** Whether a value is valid under a (resolved) node, as far as the branch choice needs to know. */
  #check(value: unknown, s: Obj, filling: boolean, depth: number): boolean {
    if (this.text.has(s)) return (value === null && typeFits(value, s)) || textFits(value, filling);
    if (Array.isArray(s.anyOf)) {
      return s.anyOf.some((b) => this.#matches(value, b, filling, depth + 1));
    }
    if (!typeFits(value, s)) return false;
    if (
      Array.isArray(s.enum) &&
      !s.enum.some((e) => e === value || (isNonArrayObject(e) || Array.isArray(e)))
    ) {
      return false;
    }
    const scalar = s.const === null || typeof s.const !== "object";
    if (Object.hasOwn(s, "const") && scalar && s.const !== value) return false;
    if (isNonArrayObject(value) && isNonArrayObject(s.properties)) {
      const props = s.properties;
      const marks = this.marks.get(s);
      if (s.additionalProperties === false) {
        for (const key of Object.keys(value)) if (!Object.hasOwn(props, key)) return false;
      }
      const required = Array.isArray(s.required) ? s.required : [];
      for (const name of required) {
        if (!Object.hasOwn(value, name) && !(filling && marks?.has(name))) return false;
      }
      for (const [key, v] of Object.entries(value)) {
        if (Object.hasOwn(props, key) && !this.#matches(v, props[key], filling, depth + 1)) {
          return false;
        }
      }
    }
    return true;
  }

  /** Walks a value by the first branch it matches, those holding JSON text first. */
  #branch(value: unknown, branches: unknown[], filling: boolean, depth: number): unknown {
    const branch = this.textFirst(branches, depth)
      .find((b) => this.#matches(value, b, filling, depth + 1));
    return branch === undefined ? value : this.walk(value, branch, filling, depth + 1);
  }

  walk(value: unknown, schema: unknown, filling: boolean, depth: number): unknown {
    const s = resolve(schema, this.root);
    if (isNonArrayObject(s) && this.text.has(s)) return this.textValue(value, filling);
    if (!isNonArrayObject(s) || depth > MAX_NORMALIZER_DEPTH) return value;
    const scalar = value === null || typeof value !== "object";
    if (Array.isArray(s.anyOf) && (!scalar || (this.text.size > 0 && typeof value === "string"))) {
      return this.#branch(value, s.anyOf, filling, depth);
    }
    if (scalar) return value;
    if (Array.isArray(value)) {
      const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
      return value.map((item, i) =>
        this.walk(item, i < prefix.length ? prefix[i] : s.items, filling, depth + 1)
      );
    }
    if (!isNonArrayObject(value)) return value;
    const props = isNonArrayObject(s.properties) ? s.properties : {};
    const marks = this.marks.get(s);
    const out: Obj = {};
    for (const [key, v] of Object.entries(value)) {
      if (!filling && v === null && marks?.has(key)) continue;
      put(out, key, Object.hasOwn(props, key) ? this.walk(v, props[key], filling, depth + 1) : v);
    }
    if (filling && marks !== undefined) {
      for (const name of Object.keys(props)) {
        if (marks.has(name) && !Object.hasOwn(value, name)) put(out, name, null);
      }
    }
    return out;
  }
}
