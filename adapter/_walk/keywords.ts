// Private: the keyword pass of the schema walk over one schema object. Each
// keyword is either handled by a rule (draft-07 forms, the target's subset),
// dropped when the target does not keep it (or moved into the description),
// or kept, its subschemas walked in turn.

import {
  clone,
  DESCRIBABLE,
  dropEffect,
  LIST,
  MAP,
  type Obj,
  put,
  show,
  SINGLE,
} from "../_schema/mod.ts";
import { escapePointerToken } from "../../model/json_pointer.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";
import type { KeywordRule, NodeScope, WalkContext } from "./context.ts";
import { DIALECT_RULES } from "./dialect.ts";
import { finishNode } from "./finish.ts";
import { isTextMap } from "./json_text.ts";
import { SUBSET_RULES } from "./subset.ts";
import type { FeatureLossEffect } from "../warning.ts";

const RULES = new Map<string, KeywordRule>(
  Object.entries({ ...DIALECT_RULES, ...SUBSET_RULES }),
);

/** One schema object being converted: its source, its output and what is said about it. */
class SchemaNodeScope implements NodeScope {
  /** The output schema. */
  readonly out: Obj = {};
  /** Dropped constraints stated in the description. */
  readonly notes: string[] = [];
  /** Whether a tuple keyword (`prefixItems`, array-form `items`) was dropped. */
  tupleDropped = false;
  /** Whether the node is a map declared as JSON text. */
  readonly jsonText: boolean;

  constructor(
    readonly walker: WalkContext,
    readonly sourceSchema: Obj,
    readonly pointer: string,
    readonly isRoot: boolean,
    readonly origins: Map<string, string> | undefined,
  ) {
    this.jsonText = isTextMap(walker, sourceSchema, isRoot);
  }

  /** The source pointer of a keyword. */
  keywordPointer(key: string): string {
    return `${this.origins?.get(key) ?? this.pointer}/${escapePointerToken(key)}`;
  }

  /** The source pointer of a property's schema. */
  propertyPointer(name: string): string {
    return this.origins?.get(`properties/${name}`) ??
      `${this.origins?.get("properties") ?? this.pointer}/properties/${escapePointerToken(name)}`;
  }

  /** Converts a subschema. */
  convertSubschema(value: unknown, pointer: string): unknown {
    return this.walker.convertSchema(value, pointer, false);
  }

  /** Converts an array of subschemas. */
  convertSubschemas(value: unknown[], pointer: string): unknown[] {
    return value.map((v, i) => this.walker.convertSchema(v, `${pointer}/${i}`, false));
  }

  /** Drops a keyword, stating it in the description when it is a short scalar constraint. */
  drop(key: string, value: unknown, effect: FeatureLossEffect, why: string): void {
    const walker = this.walker;
    if (
      walker.options.describe && DESCRIBABLE.has(key) &&
      (typeof value !== "object" || value === null || Array.isArray(value)) &&
      show(value).length <= 200
    ) {
      this.notes.push(`${key}: ${show(value, 200)}`);
      walker.warn(
        this.keywordPointer(key),
        key,
        "moved-to-description",
        effect,
        `${why}; it is stated in the description instead`,
      );
    } else {
      walker.warn(this.keywordPointer(key), key, "dropped", effect, why);
    }
  }

  /** Why a keyword the target does not keep is dropped. */
  unsupported(key: string): string {
    const walker = this.walker;
    return `${key} is not supported by ${walker.options.to}${
      walker.keep !== undefined && walker.profile.closeObjects ? " in strict mode" : ""
    }`;
  }
}

/** Converts the keywords of one schema object found at `pointer`. */
export function convertKeywords(
  walker: WalkContext,
  sourceSchema: Obj,
  pointer: string,
  isRoot: boolean,
  origins: Map<string, string> | undefined,
): unknown {
  const scope = new SchemaNodeScope(walker, sourceSchema, pointer, isRoot, origins);
  const out = scope.out;
  for (const [key, value] of Object.entries(sourceSchema)) {
    const keywordPointer = scope.keywordPointer(key);
    const rule = RULES.get(key);
    if (rule !== undefined && rule(scope, key, value, keywordPointer)) continue;
    if (!walker.allowed(key)) {
      let effect = dropEffect(key, value);
      if (key === "patternProperties" && walker.profile.closeObjects && !scope.jsonText) {
        effect = "narrows";
      }
      scope.drop(key, value, effect, scope.unsupported(key));
      continue;
    }
    if (SINGLE.has(key) || key === "items") {
      out[key] = scope.convertSubschema(value, keywordPointer);
    } else if (LIST.has(key) && Array.isArray(value)) {
      out[key] = scope.convertSubschemas(value, keywordPointer);
    } else if (MAP.has(key)) {
      out[key] = key === "properties"
        ? properties(scope, value)
        : walker.convertSchemaMap(value, keywordPointer);
    } else {
      put(
        out,
        key,
        typeof value === "object" && value !== null
          ? clone(value, walker.toolPointer(keywordPointer))
          : value,
      );
    }
  }
  finishNode(scope);
  if (scope.notes.length > 0) {
    const text = `(${scope.notes.join("; ")})`;
    out.description = typeof out.description === "string" && out.description !== ""
      ? `${out.description} ${text}`
      : text;
  }
  walker.origin.set(out, walker.toolPointer(pointer));
  return out;
}

function properties(scope: NodeScope, value: unknown): unknown {
  if (!isNonArrayObject(value)) {
    return clone(value, scope.walker.toolPointer(scope.keywordPointer("properties")));
  }
  const out: Obj = {};
  for (const [name, propertySchema] of Object.entries(value)) {
    const propertyPointer = scope.propertyPointer(name);
    if (propertySchema === false && scope.walker.keep !== undefined) {
      scope.walker.warn(
        propertyPointer,
        "false",
        "dropped",
        "none",
        `property ${JSON.stringify(name)} may never be present; it is removed`,
      );
      continue;
    }
    put(out, name, scope.convertSubschema(propertySchema, propertyPointer));
  }
  return out;
}
