// Private: the compiler of the fast DETAILED evaluation (see _detailed.ts):
// one closure per schema location, compiled once, that evaluates each
// keyword (_detailed_keywords.ts, _detailed_collections.ts) in order and adds
// a failing keyword's unit, holding the units of the subschemas it
// evaluated; local `$ref`s count their nesting, and the graph of the
// locations tells whether that nesting is bounded.

import { BUDGET_START } from "../_dialect.ts";
import { pointerFromTokens } from "../json_pointer.ts";
import { FastPathBail, MAX_REF_NESTING, Unsupported } from "./_compile.ts";
import { keywordEvaluation } from "./_detailed_keywords.ts";
import { failingKeywords, type KeywordAt, resolveLocal } from "./_detailed_locations.ts";
import {
  type Dialect,
  type Evaluate,
  FastUnit,
  isObject,
  type KeywordContext,
  type Schema,
  type Site,
} from "./_detailed_unit.ts";

const VALIDATE = "https://json-schema.org/evaluation/validate";

const valid: Evaluate = () => true;

interface Cell {
  run?: Evaluate;
  /** Schemas this one applies: [url, whether through a `$ref`]. */
  edges: [string, boolean][];
}

export class DetailedCompiler {
  readonly state: { n: number; evaluations: number };
  readonly #budget: boolean;

  readonly base: string;
  readonly #root: Schema;
  readonly #dialect: Dialect;
  readonly #site: (url: string) => Site;
  readonly #cells = new Map<string, Cell>();
  #current: Cell | undefined;
  readonly #context: KeywordContext;

  /** What the keyword evaluations of this compiler ask of it. */
  get context(): KeywordContext {
    return this.#context;
  }

  /** The dialect. */
  get dialect(): Dialect {
    return this.#dialect;
  }

  /** The site of a keyword (or false schema) location. */
  site(url: string): Site {
    return this.#site(url);
  }

  constructor(
    root: Schema,
    dialect: Dialect,
    base: string,
    site: (url: string) => Site,
    budget: boolean,
  ) {
    this.#budget = budget;
    this.state = { n: 0, evaluations: 0 };
    this.#context = {
      dialect,
      schema: (node, tokens) => this.schema(node, tokens),
      ref: (ref) => this.#ref(ref),
    };
    this.#site = site;
    this.#root = root;
    this.#dialect = dialect;
    this.base = base;
  }

  /** The absolute location of the schema at `tokens`. */
  url(tokens: readonly string[]): string {
    return this.base + "#" + encodeURI(pointerFromTokens(tokens));
  }

  /** Whether `$ref` nesting stays within MAX_REF_NESTING for every value. */
  bounded(): boolean {
    const depth = new Map<string, number>();
    const visiting = new Set<string>();
    const walk = (url: string): number => {
      const known = depth.get(url);
      if (known !== undefined) return known;
      if (visiting.has(url)) return Infinity;
      visiting.add(url);
      let most = 0;
      for (const [to, ref] of this.#cells.get(url)?.edges ?? []) {
        most = Math.max(most, walk(to) + (ref ? 1 : 0));
      }
      visiting.delete(url);
      depth.set(url, most);
      return most;
    };
    for (const url of this.#cells.keys()) if (walk(url) > MAX_REF_NESTING) return false;
    return true;
  }

  /** The evaluation of the schema at `tokens` (compiled once per location). */
  schema(node: unknown, tokens: readonly string[], ref = false): Evaluate {
    const run = this.#schema(node, tokens, ref);
    if (!this.#budget || (this.#dialect === "draft-07" && isObject(node) && "$ref" in node)) {
      return run; // a draft-07 reference is its target's evaluation, counted there
    }
    // Hyperjump counts each schema it evaluates with its budget plugin on, which
    // `then` and `else` leave out when they evaluate `if` (units null here).
    const state = this.state;
    return (value, pointer, units) => {
      if (units !== null && ++state.evaluations > BUDGET_START) throw new FastPathBail();
      return run(value, pointer, units);
    };
  }

  #schema(node: unknown, tokens: readonly string[], ref: boolean): Evaluate {
    if (this.#dialect === "draft-07" && isObject(node) && Object.hasOwn(node, "$ref")) {
      // Draft-07: the object is a reference, its siblings invisible.
      return this.#ref(node.$ref);
    }
    const url = this.url(tokens);
    this.#current?.edges.push([url, ref]);
    if (node === true) return valid;
    if (node === false) {
      let site: Site | undefined;
      return (value, pointer, units) => {
        units?.push(new FastUnit(VALIDATE, site ??= this.#site(url), value, pointer));
        return false;
      };
    }
    if (!isObject(node)) throw new Unsupported("a subschema that is not an object or a boolean");
    let cell = this.#cells.get(url);
    if (cell === undefined) {
      this.#cells.set(url, cell = { edges: [] });
      const outer = this.#current;
      this.#current = cell;
      try {
        cell.run = this.#object(node, tokens, url);
      } finally {
        this.#current = outer;
      }
    }
    const found = cell;
    return found.run ?? ((value, pointer, units) => found.run!(value, pointer, units));
  }

  /** A local `$ref`, counting nesting as the fast check does. */
  #ref(ref: unknown): Evaluate {
    if (typeof ref !== "string" || !ref.startsWith("#")) {
      throw new Unsupported(`a $ref outside the document: ${String(ref)}`);
    }
    const [target, tokens] = this.resolve(ref);
    const run = this.schema(target, tokens, true);
    const state = this.state;
    return (value, pointer, units) => {
      if (++state.n > MAX_REF_NESTING) throw new FastPathBail();
      const result = run(value, pointer, units);
      state.n--;
      return result;
    };
  }

  /** The schema a local `$ref` names, and its tokens (Unsupported when it does not resolve). */
  resolve(ref: string): [unknown, string[]] {
    return resolveLocal(this.#root, this.#dialect, ref);
  }

  /** The keywords of a schema object that can fail, in order: name, unit id and location. */
  keywords(schema: Record<string, unknown>, url: string): KeywordAt[] {
    return failingKeywords(schema, url, this.#dialect);
  }

  #object(schema: Record<string, unknown>, tokens: readonly string[], url: string): Evaluate {
    const ids: string[] = [];
    const urls: string[] = [];
    const sites: (Site | undefined)[] = [];
    const runs: Evaluate[] = [];
    for (const { keyword, id, url: at } of this.keywords(schema, url)) {
      const run = keywordEvaluation(keyword, schema, [...tokens, keyword], this.#context);
      if (run === undefined) continue;
      ids.push(id);
      urls.push(at);
      sites.push(undefined); // computed on first failure
      runs.push(run);
    }
    const count = runs.length;
    return (value, pointer, units) => {
      let ok = true;
      if (units === null) {
        for (let i = 0; i < count; i++) if (!runs[i](value, pointer, null)) ok = false;
        return ok;
      }
      for (let i = 0; i < count; i++) {
        // The units of the subschemas a keyword applies go on the same list;
        // a failing keyword takes them as its own, a passing one drops them.
        const mark = units.length;
        if (runs[i](value, pointer, units)) {
          if (units.length > mark) units.length = mark;
          continue;
        }
        ok = false;
        const unit = new FastUnit(ids[i], sites[i] ??= this.#site(urls[i]), value, pointer);
        if (units.length > mark) unit.errors = units.splice(mark);
        units.push(unit);
      }
      return ok;
    };
  }
}
