// Private: the keyword pass of the schema walk over one schema object. Each
// keyword is either handled by a rule (draft-07 forms, the target's subset),
// dropped when the target does not keep it (or moved into the description),
// or kept, its subschemas walked in turn.

import { clone, esc, isObj, type Obj, put, show } from "./_json.ts";
import { DESCRIBABLE, dropEffect, LIST, MAP, SINGLE } from "./_keywords.ts";
import type { Walker } from "./_walk.ts";
import { DIALECT_RULES } from "./_walk_dialect.ts";
import { finishNode } from "./_walk_finish.ts";
import { isTextMap } from "./_walk_json_text.ts";
import { SUBSET_RULES } from "./_walk_subset.ts";
import type { FeatureLossEffect } from "./warning.ts";

/**
 * Handles one keyword (`kp` is its source pointer) with special needs; `true`
 * when done with it, `false` to give it the ordinary treatment.
 */
export type KeywordRule = (c: NodeScope, key: string, value: unknown, kp: string) => boolean;

const RULES = new Map<string, KeywordRule>(
  Object.entries({ ...DIALECT_RULES, ...SUBSET_RULES }),
);

/** One schema object being converted: its source, its output and what is said about it. */
export class NodeScope {
  /** The output schema. */
  readonly out: Obj = {};
  /** Dropped constraints stated in the description. */
  readonly notes: string[] = [];
  /** Whether a tuple keyword (`prefixItems`, array-form `items`) was dropped. */
  tupleDropped = false;
  /** Whether the node is a map declared as JSON text. */
  readonly jsonText: boolean;

  constructor(
    readonly w: Walker,
    readonly s: Obj,
    readonly pointer: string,
    readonly isRoot: boolean,
    readonly origins: Map<string, string> | undefined,
  ) {
    this.jsonText = isTextMap(w, s, isRoot);
  }

  /** The source pointer of a keyword. */
  at(key: string): string {
    return `${this.origins?.get(key) ?? this.pointer}/${esc(key)}`;
  }

  /** The source pointer of a property's schema. */
  propPointer(name: string): string {
    return this.origins?.get(`properties/${name}`) ??
      `${this.origins?.get("properties") ?? this.pointer}/properties/${esc(name)}`;
  }

  /** Converts a subschema. */
  sub(value: unknown, pointer: string): unknown {
    return this.w.node(value, pointer, false);
  }

  /** Converts an array of subschemas. */
  list(value: unknown[], pointer: string): unknown[] {
    return value.map((v, i) => this.w.node(v, `${pointer}/${i}`, false));
  }

  /** Drops a keyword, stating it in the description when it is a short scalar constraint. */
  drop(key: string, value: unknown, effect: FeatureLossEffect, why: string): void {
    const w = this.w;
    if (
      w.options.describe && DESCRIBABLE.has(key) &&
      (typeof value !== "object" || value === null || Array.isArray(value)) &&
      show(value).length <= 200
    ) {
      this.notes.push(`${key}: ${show(value, 200)}`);
      w.warn(
        this.at(key),
        key,
        "moved-to-description",
        effect,
        `${why}; it is stated in the description instead`,
      );
    } else {
      w.warn(this.at(key), key, "dropped", effect, why);
    }
  }

  /** Why a keyword the target does not keep is dropped. */
  unsupported(key: string): string {
    const w = this.w;
    return `${key} is not supported by ${w.options.to}${
      w.keep !== undefined && w.profile.closeObjects ? " in strict mode" : ""
    }`;
  }
}

/** Converts the keywords of one schema object found at `pointer`. */
export function convertKeywords(
  w: Walker,
  s: Obj,
  pointer: string,
  isRoot: boolean,
  origins: Map<string, string> | undefined,
): unknown {
  const c = new NodeScope(w, s, pointer, isRoot, origins);
  const out = c.out;
  for (const [key, value] of Object.entries(s)) {
    const kp = c.at(key);
    const rule = RULES.get(key);
    if (rule !== undefined && rule(c, key, value, kp)) continue;
    if (!w.allowed(key)) {
      let effect = dropEffect(key, value);
      if (key === "patternProperties" && w.profile.closeObjects && !c.jsonText) effect = "narrows";
      c.drop(key, value, effect, c.unsupported(key));
      continue;
    }
    if (SINGLE.has(key) || key === "items") out[key] = c.sub(value, kp);
    else if (LIST.has(key) && Array.isArray(value)) out[key] = c.list(value, kp);
    else if (MAP.has(key)) {
      out[key] = key === "properties" ? properties(c, value) : w.map(value, kp);
    } else {
      put(out, key, typeof value === "object" && value !== null ? clone(value, w.path(kp)) : value);
    }
  }
  finishNode(c);
  if (c.notes.length > 0) {
    const text = `(${c.notes.join("; ")})`;
    out.description = typeof out.description === "string" && out.description !== ""
      ? `${out.description} ${text}`
      : text;
  }
  w.origin.set(out, w.path(pointer));
  return out;
}

function properties(c: NodeScope, value: unknown): unknown {
  if (!isObj(value)) return clone(value, c.w.path(c.at("properties")));
  const out: Obj = {};
  for (const [name, v] of Object.entries(value)) {
    const p = c.propPointer(name);
    if (v === false && c.w.keep !== undefined) {
      c.w.warn(
        p,
        "false",
        "dropped",
        "none",
        `property ${JSON.stringify(name)} may never be present; it is removed`,
      );
      continue;
    }
    put(out, name, c.sub(v, p));
  }
  return out;
}
