// Private: the schema transform shared by every target. One walk over a source
// schema, driven by a SchemaProfile (data), producing the target schema, the
// warnings (with JSON Pointers into the source tool) and the null markers the
// strict input normalizer needs. This file holds the walk's state and its
// dispatch; the parts of the transform live in the other files of this folder
// (see context.ts for how they depend on one another).

import {
  ANY_TYPES,
  clone,
  cycleError,
  depthError,
  type Obj,
  put,
  RefResolver,
  WarningSink,
} from "../_schema/mod.ts";
import { escapePointerToken } from "../../model/json_pointer.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";
import { MAX_SCHEMA_DEPTH } from "../limits.ts";
import type { Merged } from "./merge.ts";
import { mergeAllOf, mergeRoot } from "./combinators.ts";
import { convertKeywords } from "./keywords.ts";
import { settleJsonText } from "./json_text.ts";
import { RefRewriter } from "./refs.ts";
import type { SchemaProfile } from "../profile.ts";
import type { FeatureLossAction, FeatureLossEffect, FeatureLossWarning } from "../warning.ts";
import type { WalkContext, WalkOptions, WalkResult } from "./context.ts";

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;

/** Runs one walk. */
export function walkSchema(root: Obj, options: WalkOptions): WalkResult {
  return new Walker(root, options).run();
}

/** The state of one walk, shared by the parts of the transform. */
class Walker implements WalkContext {
  /** Local reference resolution over the source schema. */
  readonly refs: RefResolver;
  /** What becomes of each `$ref` (kept, inlined or passed through). */
  readonly rewriter: RefRewriter;
  readonly sink: WarningSink;
  readonly nullable = new Map<Obj, Set<string>>();
  readonly origin = new WeakMap<object, string>();
  /** The output nodes that hold a map as JSON text, and their warnings. */
  readonly jsonText = new Set<Obj>();
  readonly textWarnings = new Map<Obj, FeatureLossWarning>();
  readonly profile: SchemaProfile;
  readonly options: WalkOptions;
  /** Keywords kept (the profile's and the extra ones); `undefined` keeps every keyword. */
  readonly keep: Set<string> | undefined;
  /** Allowed `format` values; `undefined` allows any. */
  readonly formats: Set<string> | undefined;
  /** Whether the source declares draft-07 and is rewritten as 2020-12. */
  readonly draft07: boolean;
  /** Whether draft-07 forms are rewritten (the schema is not passed through as it is). */
  readonly normalize: boolean;
  /** Schema levels entered and not yet left (each `$ref` followed counts as one). */
  #depth = 0;

  constructor(readonly root: Obj, options: WalkOptions) {
    this.options = options;
    this.profile = options.profile;
    this.refs = new RefResolver(root);
    this.rewriter = new RefRewriter(this);
    this.sink = new WarningSink(options.from, options.to);
    this.keep = this.profile.keywords === "any"
      ? undefined
      : new Set([...this.profile.keywords, ...(options.extra ?? [])]);
    this.formats = this.profile.formats === undefined ? undefined : new Set(this.profile.formats);
    this.normalize = this.keep !== undefined || options.dropSchema === true;
    this.draft07 = this.normalize && typeof root.$schema === "string" &&
      DRAFT_07.test(root.$schema);
  }

  run(): WalkResult {
    const loop = this.refs.cycleFrom("");
    if (loop !== undefined) throw cycleError(this.toolPointer(loop));
    const out = this.convertSchema(this.root, "", true);
    const schema: Obj = isNonArrayObject(out) ? out : {};
    this.rewriter.finish(schema);
    settleJsonText(this, schema);
    const { nullable, origin, jsonText } = this;
    const overBudget = this.rewriter.overBudget;
    return { schema, warnings: this.sink.list, nullable, origin, jsonText, overBudget };
  }

  /** The pointer inside the source tool of a pointer relative to the root schema. */
  toolPointer(pointer: string): string {
    return this.options.base + pointer;
  }

  /** Whether the target keeps a keyword. */
  allowed(key: string): boolean {
    return this.keep === undefined || this.keep.has(key);
  }

  warn(
    pointer: string,
    feature: string,
    action: FeatureLossAction,
    effect: FeatureLossEffect,
    message: string,
  ): FeatureLossWarning | undefined {
    return this.sink.add(this.toolPointer(pointer), feature, action, effect, message);
  }

  /**
   * Converts one schema (object or boolean) found at `pointer` (relative to
   * the root), one level below the schema that holds it.
   */
  convertSchema(schema: unknown, pointer: string, isRoot: boolean): unknown {
    if (typeof schema === "boolean") return this.#bool(schema, pointer);
    if (!isNonArrayObject(schema)) return clone(schema, this.toolPointer(pointer));
    if (++this.#depth > MAX_SCHEMA_DEPTH) {
      throw depthError(this.toolPointer(pointer), MAX_SCHEMA_DEPTH, "schema levels");
    }
    const out = this.#object(schema, pointer, isRoot);
    this.#depth--;
    return out;
  }

  #object(schema: Obj, pointer: string, isRoot: boolean): unknown {
    if (typeof schema.$ref === "string") return this.rewriter.rewrite(schema, pointer);
    let merged: Merged | undefined;
    if (this.profile.allOf === "merge" && Array.isArray(schema.allOf)) {
      merged = mergeAllOf(this, schema, pointer);
    }
    if (isRoot && !this.profile.rootCombinators) merged = mergeRoot(this, merged, schema, pointer);
    return merged === undefined
      ? this.convertObject(schema, pointer, isRoot, undefined)
      : this.convertObject(merged.schema, pointer, isRoot, merged.origins);
  }

  /**
   * Converts the keywords of one schema object; `origins` gives the source
   * pointer of keys that came from elsewhere (merged schemas).
   */
  convertObject(
    schema: Obj,
    pointer: string,
    isRoot: boolean,
    origins: Map<string, string> | undefined,
  ): unknown {
    return convertKeywords(this, schema, pointer, isRoot, origins);
  }

  /** Converts each subschema of a name-to-schema map. */
  convertSchemaMap(value: unknown, pointer: string): unknown {
    if (!isNonArrayObject(value)) return clone(value, this.toolPointer(pointer));
    const out: Obj = {};
    for (const [name, propertySchema] of Object.entries(value)) {
      put(
        out,
        name,
        this.convertSchema(propertySchema, `${pointer}/${escapePointerToken(name)}`, false),
      );
    }
    return out;
  }

  /** A schema that accepts anything the target lets a schema accept. */
  anySchema(): Obj {
    return this.profile.typeRequired ? { type: [...ANY_TYPES] } : {};
  }

  #bool(value: boolean, pointer: string): unknown {
    if (this.keep === undefined) return value;
    if (value) {
      if (this.profile.typeRequired) {
        this.warn(
          pointer,
          "true",
          "rewritten",
          "narrows",
          "an unconstrained schema needs a type here; only scalars are accepted now",
        );
      }
      return this.anySchema();
    }
    this.warn(
      pointer,
      "false",
      "rewritten",
      "widens",
      "a schema that accepts nothing cannot be expressed; it accepts null instead",
    );
    return { type: "null" };
  }
}
