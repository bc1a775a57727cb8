// Private: the keyword rules of the schema walk for the dialect: `$schema`,
// definitions, tuples and `dependencies`, whose draft-07 forms are written as
// JSON Schema 2020-12 whenever the schema is normalized for a target.

import { clone, esc, isObj, type Obj, put } from "./_json.ts";
import { dropEffect } from "./_keywords.ts";
import type { KeywordRule, NodeScope } from "./_walk_keywords.ts";

function schemaKeyword(c: NodeScope, key: string, value: unknown, kp: string): boolean {
  const w = c.w;
  if (c.isRoot && w.keep === undefined && !w.options.dropSchema) c.out.$schema = value;
  else {
    w.warn(
      kp,
      key,
      "dropped",
      "none",
      c.isRoot
        ? `${w.options.to} takes no $schema; the schema is written as JSON Schema 2020-12`
        : "$schema inside a subschema is dropped",
    );
  }
  return true;
}

/** `$defs` and `definitions`: hoisted, inlined or passed through with the references. */
function definitions(c: NodeScope, key: string, value: unknown, kp: string): boolean {
  const w = c.w;
  if (w.profile.refs === "inline") {
    w.warn(kp, key, "rewritten", "none", "definitions are inlined where they are referenced");
  } else if (w.profile.refs === "keep" && key === "definitions") {
    w.warn(kp, key, "rewritten", "none", "draft-07 definitions are written as $defs");
  } else if (w.profile.refs === "pass") {
    if (!w.allowed(key)) c.drop(key, value, "none", c.unsupported(key));
    else if (key === "definitions" && w.draft07 && c.s.$defs === undefined) {
      w.warn(kp, key, "rewritten", "none", "draft-07 definitions is $defs in 2020-12");
      c.out.$defs = w.map(value, kp);
    } else c.out[key] = w.map(value, kp);
  }
  return true;
}

/** Array-form `items` (a draft-07 tuple) is `prefixItems` in 2020-12. */
function items(c: NodeScope, key: string, value: unknown, kp: string): boolean {
  if (!Array.isArray(value)) return false;
  const w = c.w;
  if (w.allowed("prefixItems") && (w.normalize || w.allowed("items"))) {
    if (w.normalize) {
      w.warn(kp, key, "rewritten", "none", "draft-07 array-form items is prefixItems in 2020-12");
      c.out.prefixItems = c.list(value, kp);
    } else c.out.items = c.list(value, kp);
  } else {
    c.tupleDropped = true;
    c.drop(
      key,
      value,
      "widens",
      `tuple validation (array-form items) is not supported by ${w.options.to}`,
    );
  }
  return true;
}

/** `additionalItems` beside a draft-07 tuple is `items` in 2020-12. */
function additionalItems(c: NodeScope, key: string, value: unknown, kp: string): boolean {
  const w = c.w;
  if (!w.normalize) return false;
  if (Array.isArray(c.s.items)) {
    if (!c.tupleDropped && w.allowed("items")) {
      w.warn(kp, key, "rewritten", "none", "draft-07 additionalItems is items in 2020-12");
      c.out.items = c.sub(value, kp);
    } else c.drop(key, value, dropEffect(key, value), c.unsupported(key));
  } else {
    w.warn(kp, key, "dropped", "none", "additionalItems without array-form items has no effect");
  }
  return true;
}

function prefixItems(c: NodeScope, key: string, value: unknown): boolean {
  if (c.w.allowed(key)) return false;
  c.tupleDropped = true;
  c.drop(key, value, "widens", c.unsupported(key));
  return true;
}

/** `dependencies` is `dependentRequired` and `dependentSchemas` in 2020-12. */
function dependencies(c: NodeScope, key: string, value: unknown, kp: string): boolean {
  if (!isObj(value)) return false;
  const w = c.w;
  if (!w.normalize) {
    const deps: Obj = {};
    for (const [name, v] of Object.entries(value)) {
      const p = `${kp}/${esc(name)}`;
      put(deps, name, Array.isArray(v) ? clone(v, w.path(p)) : c.sub(v, p));
    }
    c.out[key] = deps;
    return true;
  }
  const req: Obj = {};
  const sch: Obj = {};
  for (const [name, v] of Object.entries(value)) {
    put(Array.isArray(v) ? req : sch, name, v);
  }
  for (const [k2, v2] of [["dependentRequired", req], ["dependentSchemas", sch]] as const) {
    if (Object.keys(v2).length === 0) continue;
    if (w.allowed(k2)) {
      w.warn(kp, key, "rewritten", "none", `draft-07 dependencies is ${k2} in 2020-12`);
      c.out[k2] = k2 === "dependentRequired" ? clone(v2, w.path(kp)) : w.map(v2, kp);
    } else w.warn(kp, key, "dropped", "widens", c.unsupported(key));
  }
  return true;
}

/** The dialect rules by keyword. */
export const DIALECT_RULES: Record<string, KeywordRule> = {
  $schema: schemaKeyword,
  $defs: definitions,
  definitions,
  items,
  additionalItems,
  prefixItems,
  dependencies,
};
