// Private: Hyperjump 1.18.0's DETAILED output, computed without Hyperjump by
// closures compiled once per schema (no walk of the schema per call). Each
// keyword's evaluation (_detailed_keywords.ts, _detailed_collections.ts)
// mirrors the Hyperjump keyword of the same name: which subschemas it
// evaluates, in which order, and when it fails; a failing
// keyword adds one output unit holding the units of the subschemas it
// evaluated, as Hyperjump's DetailedOutputPlugin does. The failures are then
// the units through the same `toFailures` as Hyperjump's output. Anything
// unexpected throws Unsupported: the failures of that schema stay with
// Hyperjump.

import { BUDGET_START } from "../_dialect.ts";
import { escapePointerToken, pointerFromTokens } from "../_json_pointer.ts";
import { FastPathBail, MAX_REF_NESTING, Unsupported } from "./_compile.ts";
import { EVALUATED, IGNORED } from "./_keywords.ts";
import { distinctFailures } from "../_distinct_failures.ts";
import { keywordSite } from "../_output_unit.ts";
import { toFailures } from "../_messages.ts";
import type { ValidationFailure } from "../errors.ts";
import { keywordEvaluation } from "./_detailed_keywords.ts";
import { compileFailures } from "./_detailed_code.ts";
import {
  type Dialect,
  type Evaluate,
  FastUnit,
  isObject,
  type KeywordContext,
  type OutputUnit,
  type Schema,
  type Site,
} from "./_detailed_unit.ts";

const KEYWORD = "https://json-schema.org/keyword/";
const VALIDATE = "https://json-schema.org/evaluation/validate";
const DRAFT_04_IDS = new Set(["items", "additionalItems", "dependencies"]);

const valid: Evaluate = () => true;

/** The failures read at which their code is generated (the earlier ones take the units). */
const GENERATE_AT = 2;

// Schema evaluations in one pass up to which Hyperjump's evaluation budget
// (for schemas whose references fan out) never stops an evaluation; beyond
// it, the value is handed to Hyperjump.
export { BUDGET_START };

/** The DETAILED units of a value, and whether the schema's evaluation can never bail. */
export interface CompiledDetailed {
  /** The units of a failing value (empty when valid). May throw {@linkcode FastPathBail}. */
  units: (instance: unknown) => OutputUnit[];
  /**
   * Whether the value is valid, by the same evaluation (every subschema
   * Hyperjump evaluates). May throw {@linkcode FastPathBail}.
   */
  valid: (instance: unknown) => boolean;
  /** The base URI of the schema's locations. */
  base: string;
  /** The documents the failures quote keyword values from (the root only). */
  lookup: (uri: string) => unknown;
  /** Whether no value can make `$ref`s nest beyond MAX_REF_NESTING (no cycle, no long chain). */
  bounded: boolean;
  /**
   * The failures of a failing value (empty when valid): `toFailures` of its
   * units, made without them by `generated`'s code (from the second read on,
   * or once `generated` was called). May throw {@linkcode FastPathBail}.
   */
  failures: (instance: unknown) => ValidationFailure[];
  /**
   * The generated code of the failures (before repeats are dropped), made on
   * first call; undefined where code cannot be generated.
   */
  generated: () => ((instance: unknown) => ValidationFailure[]) | undefined;
}

/** The base URI Hyperjump gives the root (its `$id`, else `rootUri`), or Unsupported. */
function baseOf(root: Schema, rootUri: string): string {
  if (!isObject(root) || root.$id === undefined) return rootUri;
  const id = root.$id;
  if (typeof id !== "string") throw new Unsupported("a $id that is not a string");
  let href: string;
  try {
    href = new URL(id).href;
  } catch {
    throw new Unsupported("a $id that is not an absolute URI");
  }
  const bare = id.endsWith("#") ? id.slice(0, -1) : id;
  // Only a $id the URL parser leaves as written: Hyperjump's normalization is its own.
  if (href !== bare || bare.includes("#")) throw new Unsupported("a $id not in normal form");
  return bare;
}

/** Compiles the DETAILED output of a schema Hyperjump accepted (one the fast path supports). */
export function compileDetailed(
  root: Schema,
  dialect: Dialect,
  rootUri: string,
  budget = false,
): CompiledDetailed {
  const base = baseOf(root, rootUri);
  const lookup = (uri: string): unknown => uri === base || uri === rootUri ? root : undefined;
  const site = (url: string) => ({
    ...keywordSite(url, lookup, rootUri),
    absoluteKeywordLocation: url,
  });
  const compiler = new DetailedCompiler(root, dialect, base, site, budget);
  const entry = compiler.schema(root, []);
  const state = compiler.state;
  const units = (instance: unknown): OutputUnit[] => {
    state.n = 0;
    state.evaluations = 0;
    const units: OutputUnit[] = [];
    entry(instance, "", units);
    return units;
  };
  const slow = (instance: unknown) => toFailures(units(instance), instance, lookup, rootUri);
  // The failures' generated code, made on first use; where code cannot be
  // generated, the units give the failures.
  let code: ((instance: unknown) => ValidationFailure[]) | null | undefined;
  let reads = 0;
  const generated = () => {
    if (code === undefined) {
      try {
        code = compileFailures(root, compiler, budget);
      } catch {
        code = null; // Unsupported, or code generation disallowed by the host
      }
    }
    return code ?? undefined;
  };
  return {
    base,
    lookup,
    bounded: compiler.bounded(),
    units,
    valid: (instance) => {
      state.n = 0;
      state.evaluations = 0;
      const units: OutputUnit[] = [];
      return entry(instance, "", units);
    },
    generated,
    failures: (instance) => {
      // The first read takes the units (making the code costs several of
      // them: a schema whose failures are read once never pays it).
      if (code === undefined && ++reads < GENERATE_AT) return slow(instance);
      const made = generated();
      return made === undefined ? slow(instance) : distinctFailures(made(instance));
    },
  };
}

/** One keyword of a schema object that can fail: its name, unit id and location. */
export interface KeywordAt {
  keyword: string;
  id: string;
  url: string;
}

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
    let fragment: string;
    try {
      fragment = decodeURIComponent(ref.slice(1));
    } catch {
      throw new Unsupported(`a $ref that is not a valid URI fragment: ${ref}`);
    }
    if (fragment !== "" && !fragment.startsWith("/")) {
      throw new Unsupported(`a $ref to an anchor: ${ref}`);
    }
    const tokens = fragment === ""
      ? []
      : fragment.slice(1).split("/").map((raw) => raw.replaceAll("~1", "/").replaceAll("~0", "~"));
    let current: unknown = this.#root;
    for (const token of tokens) {
      if (this.#dialect === "draft-07" && isObject(current) && Object.hasOwn(current, "$ref")) {
        throw new Unsupported(`a $ref through a reference: ${ref}`);
      }
      if (Array.isArray(current) && /^(0|[1-9][0-9]*)$/.test(token) && +token < current.length) {
        current = current[+token];
      } else if (isObject(current) && Object.hasOwn(current, token)) {
        current = current[token];
      } else {
        throw new Unsupported(`a $ref that does not resolve: ${ref}`);
      }
    }
    if (typeof current !== "boolean" && !isObject(current)) {
      throw new Unsupported(`a $ref to something that is not a schema: ${ref}`);
    }
    return [current, tokens];
  }

  /** The keywords of a schema object that can fail, in order: name, unit id and location. */
  keywords(schema: Record<string, unknown>, url: string): KeywordAt[] {
    const evaluated = EVALUATED[this.#dialect];
    const ignored = IGNORED[this.#dialect];
    const out: KeywordAt[] = [];
    for (const keyword of Object.keys(schema)) {
      if (!evaluated.has(keyword)) {
        if (!ignored.has(keyword) && keyword.startsWith("$")) {
          throw new Unsupported(`the keyword ${keyword}`);
        }
        continue; // an annotation: never fails
      }
      const prefix = this.#dialect === "draft-07"
        ? (DRAFT_04_IDS.has(keyword) ? "draft-04/" : keyword === "contains" ? "draft-06/" : "")
        : "";
      out.push({
        keyword,
        id: KEYWORD + prefix + (keyword === "$ref" ? "ref" : keyword),
        url: url + "/" + escapePointerToken(keyword),
      });
    }
    return out;
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
