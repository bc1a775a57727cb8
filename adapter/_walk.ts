// Private: the schema transform shared by every target. One walk over a source
// schema, driven by a SchemaProfile (data), producing the target schema, the
// warnings (with JSON Pointers into the source tool) and the null markers the
// strict input normalizer needs.

import { clone, deepEqual, esc, isObj, type Obj, show } from "./_json.ts";
import {
  DESCRIBABLE,
  dropEffect,
  inferType,
  isObjectSchema,
  isSimplePattern,
  LIST,
  MAP,
  SINGLE,
} from "./_keywords.ts";
import { branchesDisjoint, type Merged, mergeInto, mergeStart } from "./_merge.ts";
import { acceptsNull, RefResolver } from "./_refs.ts";
import type { SchemaProfile } from "./profile.ts";
import type { FeatureLossAction, FeatureLossEffect, FeatureLossWarning } from "./warning.ts";
import { WarningSink } from "./_sink.ts";
import { makeNullable } from "./_nullable.ts";

export { WarningSink };

/** Options of one schema walk. */
export interface WalkOptions {
  profile: SchemaProfile;
  from: string;
  to: string;
  /** Pointer of the schema inside the source tool, e.g. `/inputSchema`. */
  base: string;
  /** Move dropped scalar constraints into descriptions. */
  describe: boolean;
  /** Keywords kept in addition to the profile's (mapped later by the target). */
  extra?: readonly string[];
  /** Drop the root `$schema` even when every keyword is kept. */
  dropSchema?: boolean;
}

/** The outcome of a walk. */
export interface WalkResult {
  schema: Obj;
  warnings: FeatureLossWarning[];
  /** Object nodes of the output whose listed properties were optional and made nullable. */
  nullable: Map<Obj, Set<string>>;
  /** Source pointer (relative to the tool) of each output node. */
  origin: WeakMap<object, string>;
}

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
const ANY_TYPES = ["string", "number", "boolean", "null"];

/** Runs one walk. */
export function walkSchema(root: Obj, options: WalkOptions): WalkResult {
  return new Walker(root, options).run();
}

class Walker {
  readonly refs: RefResolver;
  readonly sink: WarningSink;
  readonly nullable = new Map<Obj, Set<string>>();
  readonly origin = new WeakMap<object, string>();
  readonly #p: SchemaProfile;
  readonly #o: WalkOptions;
  readonly #keep: Set<string> | undefined;
  readonly #formats: Set<string> | undefined;
  readonly #draft07: boolean;
  readonly #normalize: boolean;
  readonly #defNames = new Map<string, string>();
  readonly #defOrder: string[] = [];
  readonly #usedNames = new Set<string>();
  readonly #targets = new Set<string>();
  readonly #stack: string[] = [];
  readonly #inlined = new Set<string>();

  constructor(readonly root: Obj, options: WalkOptions) {
    this.#o = options;
    this.#p = options.profile;
    this.refs = new RefResolver(root);
    this.sink = new WarningSink(options.from, options.to);
    this.#keep = this.#p.keywords === "any"
      ? undefined
      : new Set([...this.#p.keywords, ...(options.extra ?? [])]);
    this.#formats = this.#p.formats === undefined ? undefined : new Set(this.#p.formats);
    this.#normalize = this.#keep !== undefined || options.dropSchema === true;
    this.#draft07 = this.#normalize && typeof root.$schema === "string" &&
      DRAFT_07.test(root.$schema);
  }

  run(): WalkResult {
    const out = this.node(this.root, "", true);
    const schema: Obj = isObj(out) ? out : {};
    if (this.#p.refs === "keep" && this.#defOrder.length > 0) {
      const defs: Obj = {};
      for (let i = 0; i < this.#defOrder.length; i++) {
        const pointer = this.#defOrder[i];
        defs[this.#defNames.get(pointer)!] = this.node(this.refs.at(pointer), pointer, false);
      }
      schema.$defs = defs;
    }
    for (const target of this.#inlined) {
      if (this.#defNames.has(target)) continue;
      const key = /^\/(\$defs|definitions)\//.exec(target)?.[1] ?? "$ref";
      this.#warn(
        target,
        key,
        "rewritten",
        "none",
        "a recursive definition is inlined where it is referenced, with the recursion cut",
      );
    }
    if (this.#p.refs !== "pass") this.#reportUnusedDefs(this.root, "");
    return { schema, warnings: this.sink.list, nullable: this.nullable, origin: this.origin };
  }

  #path(pointer: string): string {
    return this.#o.base + pointer;
  }

  #allowed(key: string): boolean {
    return this.#keep === undefined || this.#keep.has(key);
  }

  #warn(
    pointer: string,
    feature: string,
    action: FeatureLossAction,
    effect: FeatureLossEffect,
    message: string,
  ): void {
    this.sink.add(this.#path(pointer), feature, action, effect, message);
  }

  #reportUnusedDefs(node: unknown, pointer: string): void {
    if (!isObj(node)) return;
    for (const key of ["$defs", "definitions"]) {
      const defs = node[key];
      if (!isObj(defs)) continue;
      for (const name of Object.keys(defs)) {
        const p = `${pointer}/${key}/${esc(name)}`;
        if (!this.#targets.has(p)) {
          this.#warn(
            p,
            key,
            "dropped",
            "none",
            `definition ${JSON.stringify(name)} is never referenced`,
          );
        }
        this.#reportUnusedDefs(defs[name], p);
      }
    }
  }

  /** Converts one schema (object or boolean) found at `pointer` (relative to the root). */
  node(schema: unknown, pointer: string, isRoot: boolean): unknown {
    if (typeof schema === "boolean") return this.#bool(schema, pointer);
    if (!isObj(schema)) return clone(schema);
    if (typeof schema.$ref === "string") return this.#ref(schema, pointer);
    let merged: Merged | undefined;
    if (this.#p.allOf === "merge" && Array.isArray(schema.allOf)) {
      merged = this.#mergeAllOf(schema, pointer);
    }
    if (isRoot && !this.#p.rootCombinators) merged = this.#mergeRoot(merged, schema, pointer);
    return merged === undefined
      ? this.#keywords(schema, pointer, isRoot, undefined)
      : this.#keywords(merged.schema, pointer, isRoot, merged.origins);
  }

  #bool(value: boolean, pointer: string): unknown {
    if (this.#keep === undefined) return value;
    if (value) {
      if (this.#p.typeRequired) {
        this.#warn(
          pointer,
          "true",
          "rewritten",
          "narrows",
          "an unconstrained schema needs a type here; only scalars are accepted now",
        );
        return { type: [...ANY_TYPES] };
      }
      return {};
    }
    this.#warn(
      pointer,
      "false",
      "rewritten",
      "widens",
      "a schema that accepts nothing cannot be expressed; it accepts null instead",
    );
    return { type: "null" };
  }

  #anyStub(): Obj {
    return this.#p.typeRequired ? { type: [...ANY_TYPES] } : {};
  }

  #ref(schema: Obj, pointer: string): unknown {
    const ref = schema.$ref as string;
    const refPointer = `${pointer}/$ref`;
    let siblings: Obj = {};
    for (const [key, value] of Object.entries(schema)) {
      if (key === "$ref") continue;
      if (this.#draft07 && key !== "$defs" && key !== "definitions") {
        this.#warn(
          `${pointer}/${esc(key)}`,
          key,
          "dropped",
          "none",
          "draft-07 ignores keywords beside $ref",
        );
      } else siblings[key] = value;
    }
    if (this.#draft07) siblings = {};
    const hasSiblings = Object.keys(siblings).some((k) => k !== "$defs" && k !== "definitions");
    const target = this.refs.resolve(ref);
    if (target === undefined) {
      this.#warn(
        refPointer,
        "$ref",
        "dropped",
        "widens",
        `${JSON.stringify(ref)} does not resolve inside the schema; it accepts any value now`,
      );
      const rest = this.#keywords(siblings, pointer, false, undefined) as Obj;
      return Object.keys(rest).length === 0 ? this.#anyStub() : rest;
    }
    this.#targets.add(target);
    if (this.#p.refs === "pass") {
      const rest = this.#keywords(siblings, pointer, false, undefined) as Obj;
      let newRef = ref;
      if (this.#draft07 && ref.startsWith("#/definitions/")) {
        newRef = `#/$defs/${ref.slice(14)}`;
        this.#warn(
          refPointer,
          "$ref",
          "rewritten",
          "none",
          `${JSON.stringify(ref)} now points to ${JSON.stringify(newRef)}`,
        );
      }
      return { $ref: newRef, ...rest };
    }
    let mode = this.#p.refs;
    const recursive = this.refs.isRecursive(target);
    if (mode === "keep" && recursive && !this.#p.recursion) {
      mode = "inline";
      this.#inlined.add(target);
    }
    if (mode === "keep") {
      const name = this.#defName(target);
      const newRef = target === "" ? "#" : `#/$defs/${esc(name)}`;
      if (newRef !== ref) {
        this.#warn(
          refPointer,
          "$ref",
          "rewritten",
          "none",
          `${JSON.stringify(ref)} now points to ${JSON.stringify(newRef)}`,
        );
      }
      if (!hasSiblings) return { $ref: newRef };
      if (this.#p.refSiblings) {
        return { $ref: newRef, ...(this.#keywords(siblings, pointer, false, undefined) as Obj) };
      }
      if (recursive) {
        for (const [key, value] of Object.entries(siblings)) {
          this.#warn(
            `${pointer}/${esc(key)}`,
            key,
            "dropped",
            dropEffect(key, value),
            "keywords beside a recursive $ref are not allowed",
          );
        }
        return { $ref: newRef };
      }
    }
    if (this.#cycle(target, pointer)) {
      const t = this.#stubType(target);
      if (t === "object" && this.#p.closeObjects) {
        this.#warn(
          refPointer,
          "$ref",
          "dropped",
          "narrows",
          `recursive reference ${
            JSON.stringify(ref)
          } cannot be kept; the recursion is cut here and accepts only an empty object`,
        );
        return { type: "object", properties: {}, additionalProperties: false };
      }
      this.#warn(
        refPointer,
        "$ref",
        "dropped",
        "widens",
        `recursive reference ${
          JSON.stringify(ref)
        } cannot be kept; the recursion is cut here and accepts any ${t ?? "value"}`,
      );
      return t === undefined ? this.#anyStub() : { type: t };
    }
    this.#warn(refPointer, "$ref", "rewritten", "none", `${JSON.stringify(ref)} is inlined`);
    this.#stack.push(pointer);
    try {
      const targetSchema = this.refs.at(target);
      if (!hasSiblings) return this.node(targetSchema, target, false);
      const sib = mergeStart(siblings, pointer);
      const merged = isObj(targetSchema) ? mergeInto(sib, targetSchema, target) : undefined;
      if (merged !== undefined && typeof merged.schema.$ref !== "string") {
        return this.#keywords(merged.schema, pointer, false, merged.origins);
      }
      for (const [key, value] of Object.entries(siblings)) {
        this.#warn(
          `${pointer}/${esc(key)}`,
          key,
          "dropped",
          dropEffect(key, value),
          "keywords beside $ref conflict with the referenced schema and are dropped",
        );
      }
      return this.node(targetSchema, target, false);
    } finally {
      this.#stack.pop();
    }
  }

  #stubType(target: string): string | undefined {
    const t = this.refs.at(target);
    return isObj(t) && typeof t.type === "string" ? t.type : undefined;
  }

  #cycle(target: string, pointer: string): boolean {
    const under = (p: string) => target === "" || p === target || p.startsWith(`${target}/`);
    return under(pointer) || this.#stack.some(under);
  }

  #defName(target: string): string {
    let name = this.#defNames.get(target);
    if (name !== undefined) return name;
    const m = /^\/(?:\$defs|definitions)\/([^/]+)$/.exec(target);
    const base = m
      ? m[1].replaceAll("~1", "/").replaceAll("~0", "~")
      : target.slice(1).replace(/[^A-Za-z0-9_.-]/g, "_") || "root";
    name = base;
    for (let i = 2; this.#usedNames.has(name); i++) name = `${base}_${i}`;
    this.#usedNames.add(name);
    this.#defNames.set(target, name);
    if (target !== "") this.#defOrder.push(target);
    return name;
  }

  #resolved(schema: unknown, depth = 0): { schema: Obj; pointer?: string } | undefined {
    if (schema === true) return { schema: {} };
    if (!isObj(schema)) return undefined;
    if (typeof schema.$ref !== "string") return { schema };
    if (Object.keys(schema).length !== 1 || depth > 16) return undefined;
    const target = this.refs.resolve(schema.$ref);
    if (target === undefined || this.refs.isRecursive(target)) return undefined;
    this.#targets.add(target);
    const inner = this.#resolved(this.refs.at(target), depth + 1);
    return inner && { schema: inner.schema, pointer: inner.pointer ?? target };
  }

  #mergeAllOf(schema: Obj, pointer: string): Merged | undefined {
    const base: Obj = { ...schema };
    delete base.allOf;
    let acc: Merged | undefined = mergeStart(base, pointer);
    const list = schema.allOf as unknown[];
    for (let i = 0; i < list.length && acc !== undefined; i++) {
      const r = this.#resolved(list[i]);
      if (r === undefined || typeof r.schema.$ref === "string" || r.schema.allOf !== undefined) {
        acc = undefined;
        break;
      }
      acc = mergeInto(acc, r.schema, r.pointer ?? `${pointer}/allOf/${i}`);
    }
    if (acc === undefined) return undefined;
    this.#warn(
      `${pointer}/allOf`,
      "allOf",
      "rewritten",
      "none",
      "the allOf branches are merged into one schema",
    );
    return acc;
  }

  #mergeRoot(merged: Merged | undefined, schema: Obj, pointer: string): Merged | undefined {
    let acc = merged ?? mergeStart(schema, pointer);
    for (const key of ["anyOf", "oneOf"]) {
      const list = acc.schema[key];
      if (!Array.isArray(list)) continue;
      const out: Obj = { ...acc.schema };
      delete out[key];
      const origins = new Map(acc.origins);
      const props: Obj = isObj(out.properties) ? { ...out.properties } : {};
      let required: string[] | undefined;
      let closed = true;
      list.forEach((branch, i) => {
        const r = this.#resolved(branch);
        const b = r?.schema ?? {};
        const bp = r?.pointer ?? `${pointer}/${key}/${i}`;
        if (isObj(b.properties)) {
          for (const [name, sub] of Object.entries(b.properties)) {
            if (!Object.hasOwn(props, name)) {
              props[name] = sub;
              origins.set(`properties/${name}`, `${bp}/properties/${esc(name)}`);
            } else if (!deepEqual(props[name], sub)) {
              props[name] = { anyOf: [props[name], sub] };
            }
          }
        }
        const req = Array.isArray(b.required) ? b.required as string[] : [];
        required = required === undefined ? req : required.filter((n) => req.includes(n));
        if (b.additionalProperties !== false) closed = false;
      });
      out.properties = props;
      const own = Array.isArray(out.required) ? out.required as string[] : [];
      const all = [...new Set([...own, ...(required ?? [])])];
      if (all.length > 0) out.required = all;
      if (closed && out.additionalProperties === undefined) out.additionalProperties = false;
      if (out.type === undefined) out.type = "object";
      this.#warn(
        `${pointer}/${key}`,
        key,
        "rewritten",
        "widens",
        `a ${key} at the root is not allowed; its branches' properties are merged into one object, which also accepts mixtures of the branches`,
      );
      acc = { schema: out, origins };
    }
    if (Array.isArray(acc.schema.allOf)) {
      this.#warn(
        `${pointer}/allOf`,
        "allOf",
        "dropped",
        "widens",
        "an allOf at the root is not allowed and its branches could not be merged",
      );
      const out: Obj = { ...acc.schema };
      delete out.allOf;
      acc = { schema: out, origins: acc.origins };
    }
    return acc === merged || acc.schema === schema ? merged : acc;
  }

  #keywords(
    s: Obj,
    pointer: string,
    isRoot: boolean,
    origins: Map<string, string> | undefined,
  ): unknown {
    const out: Obj = {};
    const notes: string[] = [];
    const at = (key: string) => `${origins?.get(key) ?? pointer}/${esc(key)}`;
    const drop = (key: string, value: unknown, effect: FeatureLossEffect, why: string) => {
      if (
        this.#o.describe && DESCRIBABLE.has(key) &&
        (typeof value !== "object" || value === null || Array.isArray(value)) &&
        show(value).length <= 200
      ) {
        notes.push(`${key}: ${show(value, 200)}`);
        this.#warn(
          at(key),
          key,
          "moved-to-description",
          effect,
          `${why}; it is stated in the description instead`,
        );
      } else {
        this.#warn(at(key), key, "dropped", effect, why);
      }
    };
    const unsupported = (key: string) =>
      `${key} is not supported by ${this.#o.to}${
        this.#keep !== undefined && this.#p.closeObjects ? " in strict mode" : ""
      }`;
    const arrayItems = Array.isArray(s.items);
    let droppedTuple = false;
    for (const [key, value] of Object.entries(s)) {
      const kp = at(key);
      const sub = (v: unknown, p: string) => this.node(v, p, false);
      switch (key) {
        case "$schema":
          if (isRoot && this.#keep === undefined && !this.#o.dropSchema) out.$schema = value;
          else {this.#warn(
              kp,
              key,
              "dropped",
              "none",
              isRoot
                ? `${this.#o.to} takes no $schema; the schema is written as JSON Schema 2020-12`
                : "$schema inside a subschema is dropped",
            );}
          continue;
        case "$defs":
        case "definitions":
          if (this.#p.refs === "inline") {
            this.#warn(
              kp,
              key,
              "rewritten",
              "none",
              "definitions are inlined where they are referenced",
            );
          } else if (this.#p.refs === "keep" && key === "definitions") {
            this.#warn(kp, key, "rewritten", "none", "draft-07 definitions are written as $defs");
          } else if (this.#p.refs === "pass") {
            if (!this.#allowed(key)) drop(key, value, "none", unsupported(key));
            else if (key === "definitions" && this.#draft07 && s.$defs === undefined) {
              this.#warn(kp, key, "rewritten", "none", "draft-07 definitions is $defs in 2020-12");
              out.$defs = this.#map(value, kp);
            } else out[key] = this.#map(value, kp);
          }
          continue;
        case "items":
          if (arrayItems) {
            if (this.#allowed("prefixItems") && (this.#normalize || this.#allowed("items"))) {
              if (this.#normalize) {
                this.#warn(
                  kp,
                  key,
                  "rewritten",
                  "none",
                  "draft-07 array-form items is prefixItems in 2020-12",
                );
                out.prefixItems = (value as unknown[]).map((v, i) => sub(v, `${kp}/${i}`));
              } else out.items = (value as unknown[]).map((v, i) => sub(v, `${kp}/${i}`));
            } else {
              droppedTuple = true;
              drop(
                key,
                value,
                "widens",
                `tuple validation (array-form items) is not supported by ${this.#o.to}`,
              );
            }
            continue;
          }
          break;
        case "additionalItems":
          if (arrayItems && this.#normalize) {
            if (!droppedTuple && this.#allowed("items")) {
              this.#warn(
                kp,
                key,
                "rewritten",
                "none",
                "draft-07 additionalItems is items in 2020-12",
              );
              out.items = sub(value, kp);
            } else drop(key, value, dropEffect(key, value), unsupported(key));
            continue;
          }
          if (!arrayItems && this.#normalize) {
            this.#warn(
              kp,
              key,
              "dropped",
              "none",
              "additionalItems without array-form items has no effect",
            );
            continue;
          }
          break;
        case "prefixItems":
          if (!this.#allowed(key)) {
            droppedTuple = true;
            drop(key, value, "widens", unsupported(key));
            continue;
          }
          break;
        case "dependencies":
          if (this.#normalize && isObj(value)) {
            const req: Obj = {};
            const sch: Obj = {};
            for (const [name, v] of Object.entries(value)) {
              if (Array.isArray(v)) req[name] = v;
              else sch[name] = v;
            }
            for (
              const [k2, v2] of [["dependentRequired", req], ["dependentSchemas", sch]] as const
            ) {
              if (Object.keys(v2).length === 0) continue;
              if (this.#allowed(k2)) {
                this.#warn(
                  kp,
                  key,
                  "rewritten",
                  "none",
                  `draft-07 dependencies is ${k2} in 2020-12`,
                );
                out[k2] = k2 === "dependentRequired" ? clone(v2) : this.#map(v2, kp);
              } else this.#warn(kp, key, "dropped", "widens", unsupported(key));
            }
            continue;
          }
          break;
        case "oneOf":
          if (!this.#allowed(key) && this.#p.oneOf === "anyOf" && Array.isArray(value)) {
            if (s.anyOf !== undefined) {
              drop(
                key,
                value,
                "widens",
                "oneOf cannot be rewritten to anyOf beside an existing anyOf",
              );
              continue;
            }
            const disjoint = branchesDisjoint(value, this.refs);
            out.anyOf = value.map((v, i) => sub(v, `${kp}/${i}`));
            this.#warn(
              kp,
              key,
              "rewritten",
              disjoint ? "none" : "widens",
              disjoint
                ? "oneOf is written as anyOf; its branches cannot overlap, so nothing changes"
                : "oneOf is written as anyOf; values matching several branches are accepted now",
            );
            continue;
          }
          break;
        case "format":
          if (
            this.#allowed(key) && this.#formats !== undefined && !this.#formats.has(value as string)
          ) {
            drop(
              key,
              value,
              "none",
              `format ${JSON.stringify(value)} is not supported by ${this.#o.to}`,
            );
            continue;
          }
          break;
        case "pattern":
          if (this.#allowed(key) && this.#p.simplePatterns && !isSimplePattern(value)) {
            drop(
              key,
              value,
              "widens",
              "patterns with backreferences, lookaround or word boundaries are not supported",
            );
            continue;
          }
          break;
        case "minItems":
          if (
            this.#allowed(key) && this.#p.maxMinItems !== undefined && typeof value === "number" &&
            value > this.#p.maxMinItems
          ) {
            out.minItems = this.#p.maxMinItems;
            notes.push(`minItems: ${value}`);
            this.#warn(
              kp,
              key,
              "rewritten",
              "widens",
              `minItems above ${this.#p.maxMinItems} is not supported; it is lowered to ${this.#p.maxMinItems} and stated in the description`,
            );
            continue;
          }
          break;
        case "additionalProperties":
          if (this.#p.closeObjects) continue;
          break;
      }
      if (!this.#allowed(key)) {
        let effect = dropEffect(key, value);
        if (key === "patternProperties" && this.#p.closeObjects) effect = "narrows";
        drop(key, value, effect, unsupported(key));
        continue;
      }
      if (SINGLE.has(key) || key === "items") out[key] = sub(value, kp);
      else if (LIST.has(key) && Array.isArray(value)) {
        out[key] = value.map((v, i) => sub(v, `${kp}/${i}`));
      } else if (MAP.has(key)) {
        out[key] = key === "properties"
          ? this.#props(value, pointer, origins)
          : this.#map(value, kp);
      } else if (key === "dependencies" && isObj(value)) {
        const deps: Obj = {};
        for (const [name, v] of Object.entries(value)) {
          deps[name] = Array.isArray(v) ? clone(v) : sub(v, `${kp}/${esc(name)}`);
        }
        out[key] = deps;
      } else out[key] = clone(value);
    }
    this.#post(s, out, pointer, origins);
    if (notes.length > 0) {
      const text = `(${notes.join("; ")})`;
      out.description = typeof out.description === "string" && out.description !== ""
        ? `${out.description} ${text}`
        : text;
    }
    this.origin.set(out, this.#path(pointer));
    return out;
  }

  #map(value: unknown, pointer: string): unknown {
    if (!isObj(value)) return clone(value);
    const out: Obj = {};
    for (const [name, v] of Object.entries(value)) {
      out[name] = this.node(v, `${pointer}/${esc(name)}`, false);
    }
    return out;
  }

  #props(value: unknown, pointer: string, origins: Map<string, string> | undefined): unknown {
    if (!isObj(value)) return clone(value);
    const out: Obj = {};
    const base = `${origins?.get("properties") ?? pointer}/properties`;
    for (const [name, v] of Object.entries(value)) {
      const p = origins?.get(`properties/${name}`) ?? `${base}/${esc(name)}`;
      if (v === false && this.#keep !== undefined) {
        this.#warn(
          p,
          "false",
          "dropped",
          "none",
          `property ${JSON.stringify(name)} may never be present; it is removed`,
        );
        continue;
      }
      out[name] = this.node(v, p, false);
    }
    return out;
  }

  #post(s: Obj, out: Obj, pointer: string, origins: Map<string, string> | undefined): void {
    const at = (key: string) => `${origins?.get(key) ?? pointer}/${esc(key)}`;
    if (
      this.#p.typeRequired && out.type === undefined && out.anyOf === undefined &&
      out.enum === undefined && !Object.hasOwn(out, "const") && out.$ref === undefined
    ) {
      const inferred = inferType(s);
      if (inferred !== undefined) {
        out.type = inferred;
        this.#warn(
          at("type"),
          "type",
          "rewritten",
          "narrows",
          `every schema needs a type; "${inferred}" is inferred from its keywords and other types are rejected now`,
        );
      } else {
        out.type = [...ANY_TYPES];
        this.#warn(
          at("type"),
          "type",
          "rewritten",
          "narrows",
          "every schema needs a type; only scalars (string, number, boolean, null) are accepted now",
        );
      }
    }
    if (!isObjectSchema(out)) {
      if (this.#p.closeObjects && s.additionalProperties !== undefined) {
        this.#warn(
          at("additionalProperties"),
          "additionalProperties",
          "dropped",
          dropEffect("additionalProperties", s.additionalProperties),
          "additionalProperties outside an object schema is dropped",
        );
      }
      return;
    }
    if (this.#p.closeObjects) {
      const ap = s.additionalProperties;
      if (ap !== false) {
        const same = s.unevaluatedProperties === false;
        this.#warn(
          at("additionalProperties"),
          "additionalProperties",
          "rewritten",
          same ? "none" : "narrows",
          ap === undefined || ap === true
            ? "objects must be closed (additionalProperties: false); properties not listed are rejected now"
            : "objects must be closed (additionalProperties: false); the values of unlisted keys that the schema allowed are rejected now",
        );
      }
      if (out.properties === undefined) out.properties = {};
      out.additionalProperties = false;
    }
    const props = isObj(out.properties) ? out.properties : undefined;
    const required = Array.isArray(s.required)
      ? s.required.filter((n): n is string => typeof n === "string")
      : [];
    if (this.#keep !== undefined && Array.isArray(out.required)) {
      const missing = (out.required as unknown[]).filter((n) =>
        typeof n !== "string" || props === undefined || !Object.hasOwn(props, n)
      );
      if (missing.length > 0) {
        out.required = (out.required as unknown[]).filter((n) => !missing.includes(n));
        if ((out.required as unknown[]).length === 0) delete out.required;
        this.#warn(
          at("required"),
          "required",
          "rewritten",
          "widens",
          `required names without a property schema (${
            missing.map((n) => show(n)).join(", ")
          }) are removed`,
        );
      }
    }
    if (!this.#p.requireAll || props === undefined) return;
    const srcProps = this.#sourceProps(s, pointer, origins);
    for (const name of Object.keys(props)) {
      const propPointer = srcProps.get(name)?.pointer ?? `${pointer}/properties/${esc(name)}`;
      if (required.includes(name)) continue;
      if (acceptsNull(srcProps.get(name)?.schema, this.refs)) {
        this.#warn(
          propPointer,
          "required",
          "rewritten",
          "narrows",
          `optional property ${
            JSON.stringify(name)
          } already accepts null, so it is made required as it is: the model can no longer omit it`,
        );
        continue;
      }
      props[name] = makeNullable(props[name]);
      let set = this.nullable.get(out);
      if (set === undefined) this.nullable.set(out, set = new Set());
      set.add(name);
      this.#warn(
        propPointer,
        "required",
        "rewritten",
        "none",
        `optional property ${
          JSON.stringify(name)
        } is required and nullable; the input normalizer turns null back into absent`,
      );
    }
    out.required = Object.keys(props);
  }

  #sourceProps(
    s: Obj,
    pointer: string,
    origins: Map<string, string> | undefined,
  ): Map<string, { schema: unknown; pointer: string }> {
    const found = new Map<string, { schema: unknown; pointer: string }>();
    if (!isObj(s.properties)) return found;
    const base = `${origins?.get("properties") ?? pointer}/properties`;
    for (const [name, v] of Object.entries(s.properties)) {
      found.set(name, {
        schema: v,
        pointer: origins?.get(`properties/${name}`) ?? `${base}/${esc(name)}`,
      });
    }
    return found;
  }
}
