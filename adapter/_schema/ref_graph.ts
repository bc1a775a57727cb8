// Private: questions about the graph of local `$ref`s of one schema document,
// answered without recursion (any depth) and in time linear in the document:
// which schemas are recursive, and which loop without progress.

import { escapePointerToken } from "../../model/json_pointer.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";
import { MAP } from "./keywords.ts";
import { MAX_SCHEMA_DEPTH } from "../limits.ts";

/** Keywords whose values are not schemas, never searched for references or anchors. */
const VALUES = new Set(["enum", "const", "default", "examples"]);
/** Keywords whose value maps names to schemas (their keys are names, not keywords). */
const NAMES = new Set([...MAP, "dependencies"]);
/** Keywords that apply a subschema (or a list of them) to the same value. */
const IN_PLACE_ONE = ["not", "if", "then", "else"];
const IN_PLACE_LIST = ["allOf", "anyOf", "oneOf"];
const IN_PLACE_MAP = ["dependentSchemas", "dependencies"];

/**
 * Calls `visit` for every object in schema position inside `root` (found at
 * `pointer`; with `undefined`, no pointers are built and `visit` gets `""`),
 * in document order, parents first. Values of `enum`, `const`,
 * `default` and `examples` are skipped; the keys of name maps (`properties`,
 * `$defs`, ...) are names, so a property called `default` is searched too.
 */
export function eachSchemaObject(
  root: unknown,
  pointer: string | undefined,
  visit: (node: Record<string, unknown>, pointer: string) => void,
): void {
  // Pointers are built only when asked for (`pointer` not undefined).
  const at = pointer !== undefined;
  const stack: [unknown, string, boolean][] = [[root, pointer ?? "", false]];
  while (stack.length > 0) {
    const [node, p, names] = stack.pop()!;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], at ? `${p}/${i}` : p, false]);
    } else if (isNonArrayObject(node)) {
      if (!names) visit(node, p);
      const keys = Object.keys(node);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i];
        if (!names && VALUES.has(key)) continue;
        stack.push([
          node[key],
          at ? `${p}/${escapePointerToken(key)}` : p,
          !names && NAMES.has(key),
        ]);
      }
    }
  }
}

/** What the graph questions need of a resolver. */
export interface RefSource {
  /** The schema at a pointer. */
  at(pointer: string): unknown;
  /** The pointer a `$ref` resolves to, `undefined` when it does not. */
  resolve(ref: string): string | undefined;
  /** The targets of the references anywhere inside the schema at `pointer`. */
  refsUnder(pointer: string): readonly string[];
}

/**
 * Which schemas can reach themselves again through references: a schema at
 * `T` is recursive when a reference inside it leads (in one or more steps) to
 * `T` or to a schema that contains `T`. Answered with the strongly connected
 * components of the reference graph (Tarjan, iterative), computed once.
 */
export class Recursion {
  readonly #src: RefSource;
  readonly #component = new Map<string, number>();
  readonly #index = new Map<string, number>();
  readonly #low = new Map<string, number>();
  #counter = 0;
  #components = 0;
  readonly #edges = new Map<string, Set<string>>();
  readonly #known = new Map<string, boolean>();

  constructor(src: RefSource) {
    this.#src = src;
  }

  /** Whether following references from the schema at `pointer` can lead back into it. */
  isRecursive(pointer: string): boolean {
    let found = this.#known.get(pointer);
    if (found !== undefined) return found;
    this.#tarjan(pointer);
    const ancestors: string[] = [""];
    for (let i = pointer.indexOf("/", 1); i > 0; i = pointer.indexOf("/", i + 1)) {
      ancestors.push(pointer.slice(0, i));
    }
    if (pointer !== "") ancestors.push(pointer);
    found = false;
    for (const x of this.#src.refsUnder(pointer)) {
      if (x === "" || x === pointer || pointer.startsWith(`${x}/`)) found = true;
      else found = ancestors.some((p) => this.#reaches(x, p));
      if (found) break;
    }
    this.#known.set(pointer, found);
    return found;
  }

  /** Whether `x` (a target of a reference inside `p`'s subtree) reaches `p`. */
  #reaches(x: string, p: string): boolean {
    const cp = this.#component.get(p);
    if (cp === undefined) return false; // nothing reachable from the query reaches p
    if (cp === this.#component.get(x)) return true;
    // p → x is an edge when x is referenced inside p: then x reaches p only within one component.
    if (this.#edgesOf(p).has(x)) return false;
    return this.#search(x, p);
  }

  #edgesOf(p: string): Set<string> {
    let set = this.#edges.get(p);
    if (set === undefined) this.#edges.set(p, set = new Set(this.#src.refsUnder(p)));
    return set;
  }

  /** Plain reachability (rare: a reference target inside a value keyword). */
  #search(from: string, to: string): boolean {
    const seen = new Set<string>([from]);
    const stack = [from];
    while (stack.length > 0) {
      for (const next of this.#src.refsUnder(stack.pop()!)) {
        if (next === to) return true;
        if (!seen.has(next)) {
          seen.add(next);
          stack.push(next);
        }
      }
    }
    return false;
  }

  #tarjan(start: string): void {
    if (this.#index.has(start)) return;
    const index = this.#index;
    const low = this.#low;
    const onStack = new Set<string>();
    const stack: string[] = [];
    const work: { v: string; edges: readonly string[]; i: number }[] = [];
    const enter = (v: string): void => {
      index.set(v, this.#counter);
      low.set(v, this.#counter++);
      stack.push(v);
      onStack.add(v);
      work.push({ v, edges: this.#src.refsUnder(v), i: 0 });
    };
    enter(start);
    while (work.length > 0) {
      const top = work[work.length - 1];
      if (top.i < top.edges.length) {
        const w = top.edges[top.i++];
        if (!index.has(w)) enter(w);
        else if (onStack.has(w)) low.set(top.v, Math.min(low.get(top.v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].v;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.v)!));
      }
      if (low.get(top.v) === index.get(top.v)) {
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          this.#component.set(w, this.#components);
        } while (w !== top.v);
        this.#components++;
      }
    }
  }
}

/**
 * Loops without progress: references and keywords that apply to the same
 * value (`allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`,
 * `dependentSchemas`) leading back to a schema on the way, so that evaluating
 * it would never end.
 */
export class Progress {
  readonly #src: RefSource;
  readonly #refOnly: boolean;
  /** `true` while on the search path, `false` once known to be safe. */
  readonly #state = new Map<string, boolean>();

  /**
   * @param src The resolver.
   * @param refOnly Whether keywords beside `$ref` are ignored (draft-07).
   */
  constructor(src: RefSource, refOnly: boolean) {
    this.#src = src;
    this.#refOnly = refOnly;
  }

  /**
   * The pointer of the `$ref` closing a loop without progress reachable from
   * the schema at `pointer`, else `undefined`. Each schema is searched once.
   * Beyond `MAX_SCHEMA_DEPTH` the search stops (the walk refuses such depth
   * itself); what was not searched to the end is not remembered as safe.
   */
  cycleFrom(pointer: string): string | undefined {
    if (this.#state.get(pointer) === false) return undefined;
    const stack: { p: string; edges: [string, string | undefined][]; i: number }[] = [];
    const enter = (p: string): void => {
      this.#state.set(p, true);
      stack.push({ p, edges: this.#inPlace(p), i: 0 });
    };
    let truncated = false;
    enter(pointer);
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (top.i >= top.edges.length) {
        if (truncated) this.#state.delete(top.p);
        else this.#state.set(top.p, false);
        stack.pop();
        continue;
      }
      const [next, via] = top.edges[top.i++];
      const state = this.#state.get(next);
      if (state === false) continue;
      if (state === true) {
        // The loop closes here; name a `$ref` on it (the closing edge may be a subschema).
        let at = via;
        for (let k = stack.length - 1; at === undefined && k > 0; k--) {
          if (stack[k].p === next) break;
          at = stack[k - 1].edges[stack[k - 1].i - 1][1];
        }
        for (const frame of stack) this.#state.delete(frame.p);
        return at ?? `${next}/$ref`;
      }
      if (stack.length >= MAX_SCHEMA_DEPTH) truncated = true;
      else enter(next);
    }
    return undefined;
  }

  /** The in-place edges of the schema at `pointer`: [target, pointer of the `$ref` or undefined]. */
  #inPlace(pointer: string): [string, string | undefined][] {
    const node = this.#src.at(pointer);
    const edges: [string, string | undefined][] = [];
    if (!isNonArrayObject(node)) return edges;
    if (typeof node.$ref === "string") {
      const target = this.#src.resolve(node.$ref);
      if (target !== undefined) edges.push([target, `${pointer}/$ref`]);
      if (this.#refOnly) return edges;
    }
    for (const key of IN_PLACE_LIST) {
      const list = node[key];
      if (Array.isArray(list)) {
        for (let i = 0; i < list.length; i++) edges.push([`${pointer}/${key}/${i}`, undefined]);
      }
    }
    for (const key of IN_PLACE_ONE) {
      // `then` and `else` apply only beside an `if`.
      if (node[key] === undefined || (key !== "not" && node.if === undefined)) continue;
      edges.push([`${pointer}/${key}`, undefined]);
    }
    for (const key of IN_PLACE_MAP) {
      const map = node[key];
      if (!isNonArrayObject(map)) continue;
      for (const [name, value] of Object.entries(map)) {
        if (!Array.isArray(value)) {
          edges.push([`${pointer}/${key}/${escapePointerToken(name)}`, undefined]);
        }
      }
    }
    return edges;
  }
}
