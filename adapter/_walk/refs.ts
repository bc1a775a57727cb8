// Private: `$ref` handling of the schema walk. Depending on the profile a
// reference is passed through, kept (its target hoisted to the root `$defs`
// under a fresh name) or inlined (with recursion cut); at the end the hoisted
// definitions are written and unused or inlined definitions are reported.

import { cycleError, depthError, dropEffect, type Obj, put } from "../_schema/mod.ts";
import { escapePointerToken, unescapePointerToken } from "../../model/json_pointer.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";
import { MAX_SCHEMA_DEPTH } from "../limits.ts";
import { DEFAULT_MAX_INLINED_NODES, InlineBudget } from "./inline_budget.ts";
import { mergeInto, mergeStart } from "./merge.ts";
import type { WalkContext } from "./context.ts";

/** The `$ref` state of one walk: which targets are used, hoisted, inlined. */
export class RefRewriter {
  readonly #walker: WalkContext;
  readonly #defNames = new Map<string, string>();
  readonly #defOrder: string[] = [];
  readonly #usedNames = new Set<string>();
  readonly #targets = new Set<string>();
  readonly #stack: string[] = [];
  readonly #inlined = new Set<string>();
  readonly #budget: InlineBudget;
  /** Source pointers (relative to the tool) of references not inlined for the budget. */
  readonly overBudget = new Set<string>();

  constructor(walker: WalkContext) {
    this.#walker = walker;
    this.#budget = new InlineBudget(
      walker.profile.limits?.maxInlinedNodes ?? DEFAULT_MAX_INLINED_NODES,
    );
  }

  /** Converts a schema with a `$ref` found at `pointer`. */
  rewrite(schema: Obj, pointer: string): unknown {
    const walker = this.#walker;
    const ref = schema.$ref as string;
    const refPointer = `${pointer}/$ref`;
    let siblings: Obj = {};
    for (const [key, value] of Object.entries(schema)) {
      if (key === "$ref") continue;
      if (walker.draft07 && key !== "$defs" && key !== "definitions") {
        walker.warn(
          `${pointer}/${escapePointerToken(key)}`,
          key,
          "dropped",
          "none",
          "draft-07 ignores keywords beside $ref",
        );
      } else put(siblings, key, value);
    }
    if (walker.draft07) siblings = {};
    const hasSiblings = Object.keys(siblings).some((k) => k !== "$defs" && k !== "definitions");
    const target = walker.refs.resolve(ref);
    if (target === undefined) {
      walker.warn(
        refPointer,
        "$ref",
        "dropped",
        "widens",
        `${JSON.stringify(ref)} does not resolve inside the schema; it accepts any value now`,
      );
      const rest = walker.convertObject(siblings, pointer, false, undefined) as Obj;
      return Object.keys(rest).length === 0 ? walker.anySchema() : rest;
    }
    const loop = walker.refs.cycleFrom(target);
    if (loop !== undefined) throw cycleError(walker.toolPointer(loop));
    this.#targets.add(target);
    if (walker.profile.refs === "pass") {
      const rest = walker.convertObject(siblings, pointer, false, undefined) as Obj;
      let newRef = ref;
      if (walker.draft07 && ref.startsWith("#/definitions/")) {
        newRef = `#/$defs/${ref.slice(14)}`;
        this.#repointed(refPointer, ref, newRef);
      }
      return { $ref: newRef, ...rest };
    }
    let mode = walker.profile.refs;
    const recursive = walker.refs.isRecursive(target);
    if (mode === "keep" && recursive && !walker.profile.recursion) {
      mode = "inline";
      this.#inlined.add(target);
    }
    if (mode === "keep") {
      const name = this.#defName(target);
      const newRef = target === "" ? "#" : `#/$defs/${escapePointerToken(name)}`;
      if (newRef !== ref) this.#repointed(refPointer, ref, newRef);
      if (!hasSiblings) return { $ref: newRef };
      if (walker.profile.refSiblings) {
        return {
          $ref: newRef,
          ...(walker.convertObject(siblings, pointer, false, undefined) as Obj),
        };
      }
      if (recursive) {
        this.#dropSiblings(siblings, pointer, "keywords beside a recursive $ref are not allowed");
        return { $ref: newRef };
      }
    }
    if (this.#cycle(target, pointer)) return this.#cut(ref, pointer, target, false);
    if (!this.#budget.take(target, walker.refs.at(target))) {
      return this.#cut(ref, pointer, target, true);
    }
    walker.warn(refPointer, "$ref", "rewritten", "none", `${JSON.stringify(ref)} is inlined`);
    this.#stack.push(pointer);
    try {
      const targetSchema = walker.refs.at(target);
      if (!hasSiblings) return walker.convertSchema(targetSchema, target, false);
      const sib = mergeStart(siblings, pointer);
      const merged = isNonArrayObject(targetSchema)
        ? mergeInto(sib, targetSchema, target)
        : undefined;
      if (merged !== undefined && typeof merged.schema.$ref !== "string") {
        return walker.convertObject(merged.schema, pointer, false, merged.origins);
      }
      this.#dropSiblings(
        siblings,
        pointer,
        "keywords beside $ref conflict with the referenced schema and are dropped",
      );
      return walker.convertSchema(targetSchema, target, false);
    } finally {
      this.#stack.pop();
    }
  }

  /**
   * Follows a pure `$ref` chain (marking its targets used): the schema it
   * ends at and, when a reference was followed, the pointer of that schema.
   * `undefined` when the chain has siblings, leaves the document or recurses.
   */
  resolved(schema: unknown, depth = 0): { schema: Obj; pointer?: string } | undefined {
    if (schema === true) return { schema: {} };
    if (!isNonArrayObject(schema)) return undefined;
    if (typeof schema.$ref !== "string") return { schema };
    if (Object.keys(schema).length !== 1 || depth > 16) return undefined;
    const walker = this.#walker;
    const target = walker.refs.resolve(schema.$ref);
    if (target === undefined || walker.refs.isRecursive(target)) return undefined;
    this.#targets.add(target);
    const inner = this.resolved(walker.refs.at(target), depth + 1);
    return inner && { schema: inner.schema, pointer: inner.pointer ?? target };
  }

  /**
   * Ends the walk: writes the hoisted definitions into the output root and
   * reports the definitions that were inlined for their recursion or never used.
   */
  finish(schema: Obj): void {
    const walker = this.#walker;
    if (walker.profile.refs === "keep" && this.#defOrder.length > 0) {
      const defs: Obj = {};
      for (let i = 0; i < this.#defOrder.length; i++) {
        const pointer = this.#defOrder[i];
        put(
          defs,
          this.#defNames.get(pointer)!,
          walker.convertSchema(walker.refs.at(pointer), pointer, false),
        );
      }
      schema.$defs = defs;
    }
    for (const target of this.#inlined) {
      if (this.#defNames.has(target)) continue;
      const key = /^\/(\$defs|definitions)\//.exec(target)?.[1] ?? "$ref";
      walker.warn(
        target,
        key,
        "rewritten",
        "none",
        "a recursive definition is inlined where it is referenced, with the recursion cut",
      );
    }
    if (walker.profile.refs !== "pass") this.#reportUnusedDefs(walker.root, "");
  }

  #repointed(refPointer: string, ref: string, newRef: string): void {
    this.#walker.warn(
      refPointer,
      "$ref",
      "rewritten",
      "none",
      `${JSON.stringify(ref)} now points to ${JSON.stringify(newRef)}`,
    );
  }

  #dropSiblings(siblings: Obj, pointer: string, why: string): void {
    for (const [key, value] of Object.entries(siblings)) {
      this.#walker.warn(
        `${pointer}/${escapePointerToken(key)}`,
        key,
        "dropped",
        dropEffect(key, value),
        why,
      );
    }
  }

  /**
   * The stand-in for a reference (at `pointer`) back into a schema being
   * inlined, or (`large`) one whose inlining would exceed the size budget.
   */
  #cut(ref: string, pointer: string, target: string, large: boolean): unknown {
    const walker = this.#walker;
    const refPointer = `${pointer}/$ref`;
    const cutType = this.#stubType(target);
    const what = large
      ? `reference ${JSON.stringify(ref)} is not inlined: the inlined schema would exceed ${
        walker.profile.limits?.maxInlinedNodes ?? DEFAULT_MAX_INLINED_NODES
      } schema nodes; it is cut here`
      : `recursive reference ${JSON.stringify(ref)} cannot be kept; the recursion is cut here`;
    if (large) this.overBudget.add(walker.toolPointer(pointer));
    if (cutType === "object" && walker.profile.closeObjects) {
      walker.warn(
        refPointer,
        "$ref",
        "dropped",
        "narrows",
        `${what} and accepts only an empty object`,
      );
      return { type: "object", properties: {}, additionalProperties: false };
    }
    walker.warn(
      refPointer,
      "$ref",
      "dropped",
      "widens",
      `${what} and accepts any ${cutType ?? "value"}`,
    );
    const stub = cutType === undefined ? walker.anySchema() : { type: cutType };
    walker.origin.set(stub, walker.toolPointer(pointer));
    return stub;
  }

  #stubType(target: string): string | undefined {
    const targetSchema = this.#walker.refs.at(target);
    return isNonArrayObject(targetSchema) && typeof targetSchema.type === "string"
      ? targetSchema.type
      : undefined;
  }

  #cycle(target: string, pointer: string): boolean {
    const under = (p: string) => target === "" || p === target || p.startsWith(`${target}/`);
    return under(pointer) || this.#stack.some(under);
  }

  #defName(target: string): string {
    let name = this.#defNames.get(target);
    if (name !== undefined) return name;
    const defsMatch = /^\/(?:\$defs|definitions)\/([^/]+)$/.exec(target);
    const base = defsMatch
      ? unescapePointerToken(defsMatch[1])
      : target.slice(1).replace(/[^A-Za-z0-9_.-]/g, "_") || "root";
    name = base;
    for (let i = 2; this.#usedNames.has(name); i++) name = `${base}_${i}`;
    this.#usedNames.add(name);
    this.#defNames.set(target, name);
    if (target !== "") this.#defOrder.push(target);
    return name;
  }

  /**
   * Reports unused definitions, nested ones after their parent (iteratively);
   * definitions nested deeper than `MAX_SCHEMA_DEPTH` are refused.
   */
  #reportUnusedDefs(root: unknown, base: string): void {
    const stack: [unknown, string, string, string, number][] = [];
    const push = (node: unknown, pointer: string, level: number): void => {
      if (!isNonArrayObject(node)) return;
      const entries: [unknown, string, string, string, number][] = [];
      for (const key of ["$defs", "definitions"]) {
        const defs = node[key];
        if (!isNonArrayObject(defs)) continue;
        for (const name of Object.keys(defs)) {
          const definitionPointer = `${pointer}/${key}/${escapePointerToken(name)}`;
          if (level >= MAX_SCHEMA_DEPTH) {
            throw depthError(
              this.#walker.toolPointer(definitionPointer),
              MAX_SCHEMA_DEPTH,
              "schema levels",
            );
          }
          entries.push([defs[name], key, name, definitionPointer, level + 1]);
        }
      }
      for (let i = entries.length - 1; i >= 0; i--) stack.push(entries[i]);
    };
    push(root, base, 1);
    while (stack.length > 0) {
      const [value, key, name, p, level] = stack.pop()!;
      if (!this.#targets.has(p)) {
        this.#walker.warn(
          p,
          key,
          "dropped",
          "none",
          `definition ${JSON.stringify(name)} is never referenced`,
        );
      }
      push(value, p, level);
    }
  }
}
