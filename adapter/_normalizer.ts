// Private: the strict-mode input normalizer (null <-> absent for originally optional fields).

import { isObj, type Obj } from "./_json.ts";
import { jsonType } from "./_keywords.ts";
import type { InputNormalizer } from "./normalizer.ts";

const MAX_DEPTH = 256;

function resolve(schema: unknown, root: Obj): unknown {
  for (let i = 0; i < 32 && isObj(schema) && typeof schema.$ref === "string"; i++) {
    const ref = schema.$ref;
    if (ref === "#") schema = root;
    else if (ref.startsWith("#/$defs/") && isObj(root.$defs)) {
      schema = root.$defs[ref.slice(8).replaceAll("~1", "/").replaceAll("~0", "~")];
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

class Normalizer implements InputNormalizer {
  readonly identity = false;
  constructor(readonly root: Obj, readonly marks: Map<Obj, Set<string>>) {}

  normalize(args: unknown): unknown {
    return this.#walk(args, this.root, false, 0);
  }

  denormalize(args: unknown): unknown {
    return this.#walk(args, this.root, true, 0);
  }

  #matches(value: unknown, schema: unknown, filling: boolean, depth: number): boolean {
    const s = resolve(schema, this.root);
    if (!isObj(s)) return s !== false;
    if (depth > MAX_DEPTH) return true;
    if (Array.isArray(s.anyOf)) {
      return s.anyOf.some((b) => this.#matches(value, b, filling, depth + 1));
    }
    if (!typeFits(value, s)) return false;
    if (
      Array.isArray(s.enum) && !s.enum.some((e) => e === value || (isObj(e) || Array.isArray(e)))
    ) {
      return false;
    }
    const scalar = s.const === null || typeof s.const !== "object";
    if (Object.hasOwn(s, "const") && scalar && s.const !== value) return false;
    if (isObj(value) && isObj(s.properties)) {
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

  #walk(value: unknown, schema: unknown, filling: boolean, depth: number): unknown {
    const s = resolve(schema, this.root);
    if (!isObj(s) || depth > MAX_DEPTH || value === null || typeof value !== "object") return value;
    if (Array.isArray(s.anyOf)) {
      const branch = s.anyOf.find((b) => this.#matches(value, b, filling, depth + 1));
      return branch === undefined ? value : this.#walk(value, branch, filling, depth + 1);
    }
    if (Array.isArray(value)) {
      const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
      return value.map((item, i) =>
        this.#walk(item, i < prefix.length ? prefix[i] : s.items, filling, depth + 1)
      );
    }
    if (!isObj(value)) return value;
    const props = isObj(s.properties) ? s.properties : {};
    const marks = this.marks.get(s);
    const out: Obj = {};
    for (const [key, v] of Object.entries(value)) {
      if (!filling && v === null && marks?.has(key)) continue;
      out[key] = Object.hasOwn(props, key) ? this.#walk(v, props[key], filling, depth + 1) : v;
    }
    if (filling && marks !== undefined) {
      for (const name of Object.keys(props)) {
        if (marks.has(name) && !Object.hasOwn(value, name)) out[name] = null;
      }
    }
    return out;
  }
}

/** A normalizer for a converted schema and its null markers (identity when there are none). */
export function createNormalizer(
  root: Obj,
  marks: Map<Obj, Set<string>>,
): InputNormalizer | undefined {
  return marks.size === 0 ? undefined : new Normalizer(root, marks);
}
