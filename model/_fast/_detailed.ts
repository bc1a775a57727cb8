// Private: Hyperjump 1.18.0's DETAILED output, computed without Hyperjump by
// closures compiled once per schema (no walk of the schema per call). Each
// keyword below mirrors the Hyperjump keyword of the same name: which
// subschemas it evaluates, in which order, and when it fails; a failing
// keyword adds one output unit holding the units of the subschemas it
// evaluated, as Hyperjump's DetailedOutputPlugin does. The failures are then
// the units through the same `toFailures` as Hyperjump's output. Anything
// unexpected throws Unsupported: the failures of that schema stay with
// Hyperjump.

import { compilePattern, type Matcher } from "../_regex.ts";
import { testPattern } from "../_pattern_record.ts";
import { escapePointerToken, pointerFromTokens } from "../_json_pointer.ts";
import { allDistinct, jsonMembership } from "./_json_equal.ts";
import { codePoints, FastPathBail, MAX_REF_NESTING, Unsupported } from "./_compile.ts";
import { EVALUATED, IGNORED } from "./_keywords.ts";
import { type KeywordSite, keywordSite, type OutputUnit as Unit } from "../_messages.ts";

/** One unit of Hyperjump's DETAILED output, as this module builds it. */
interface OutputUnit extends Unit {
  errors?: OutputUnit[];
}

type Schema = Record<string, unknown> | boolean;
type Dialect = "2020-12" | "draft-07";
/** Where a failing keyword puts its unit; `null` when nothing is recorded (`if` under `then`). */
type Units = OutputUnit[] | null;
/** Evaluates a schema or a keyword against the value at `pointer` (unencoded JSON Pointer). */
type Evaluate = (value: unknown, pointer: string, units: Units) => boolean;

const KEYWORD = "https://json-schema.org/keyword/";
const VALIDATE = "https://json-schema.org/evaluation/validate";
const DRAFT_04_IDS = new Set(["items", "additionalItems", "dependencies"]);

const valid: Evaluate = () => true;

/**
 * Schema evaluations in one pass up to which Hyperjump's evaluation budget
 * (BUDGET_START in _hyperjump.ts, for schemas whose references fan out) never
 * stops an evaluation; beyond it, the value is handed to Hyperjump.
 */
export const BUDGET_START = 100_000;

/**
 * A failing unit as Hyperjump's DetailedOutputPlugin makes it, with what
 * toFailures reads: its keyword site, and the value and its pointer.
 */
class FastUnit implements OutputUnit {
  errors?: OutputUnit[];
  readonly keyword: string;
  readonly site: Site;
  readonly pointer: string | undefined;
  readonly instance: unknown;
  readonly #pointer: string;

  constructor(keyword: string, site: Site, value: unknown, pointer: string) {
    this.keyword = keyword;
    this.site = site;
    // A pointer starting with "*" names a property name: toFailures reads
    // such a unit from its instanceLocation, as it reads Hyperjump's.
    const named = pointer.charCodeAt(0) === 42;
    this.pointer = named ? undefined : pointer;
    this.instance = named ? undefined : value;
    this.#pointer = pointer;
    // Hyperjump's instanceLocation URI-encodes the pointer, which throws
    // URIError on a lone surrogate: so does this unit, when it is made.
    if (!pointer.isWellFormed()) encodeURI(pointer);
  }

  /** The keyword's absolute URI. */
  get absoluteKeywordLocation(): string {
    return this.site.absoluteKeywordLocation;
  }

  /** `#` and the URI-encoded pointer, as Hyperjump writes it. */
  get instanceLocation(): string {
    return "#" + encodeURI(this.#pointer);
  }
}

function unitOf(id: string, site: Site, value: unknown, pointer: string): OutputUnit {
  return new FastUnit(id, site, value, pointer);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function num(value: unknown, keyword: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new Unsupported(`${keyword} that is not a number`);
  }
  return value;
}

function strings(value: unknown, keyword: string): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
    throw new Unsupported(`${keyword} that is not an array of strings`);
  }
  return value as string[];
}

function list(value: unknown, keyword: string): unknown[] {
  if (!Array.isArray(value)) throw new Unsupported(`${keyword} that is not an array`);
  return value;
}

function matcher(source: unknown): Matcher {
  if (typeof source !== "string") throw new Unsupported("a pattern that is not a string");
  return compilePattern(source);
}

/** Bits of each type name; a value's bits (typeBits) meet a type's when it is of that type. */
const TYPE_BITS: Record<string, number> = {
  null: 1,
  boolean: 2,
  object: 4,
  array: 8,
  number: 16,
  integer: 32,
  string: 64,
};

/** The type bits of a JSON value: an integral number is a number and an integer. */
function typeBits(v: unknown): number {
  switch (typeof v) {
    case "string":
      return 64;
    case "boolean":
      return 2;
    case "number":
      return Number.isInteger(v) ? 48 : 16;
    case "object":
      return v === null ? 1 : Array.isArray(v) ? 8 : 4;
    default:
      return 0;
  }
}

/** A keyword site with its absolute location as Hyperjump writes it. */
interface Site extends KeywordSite {
  absoluteKeywordLocation: string;
}

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
  const compiler = new DetailedCompiler(
    root,
    dialect,
    base,
    (url) => ({ ...keywordSite(url, lookup, rootUri), absoluteKeywordLocation: url }),
    budget,
  );
  const entry = compiler.schema(root, []);
  const state = compiler.state;
  return {
    base,
    lookup,
    bounded: compiler.bounded(),
    units: (instance) => {
      state.n = 0;
      state.evaluations = 0;
      const units: OutputUnit[] = [];
      entry(instance, "", units);
      return units;
    },
    valid: (instance) => {
      state.n = 0;
      state.evaluations = 0;
      const units: OutputUnit[] = [];
      return entry(instance, "", units);
    },
  };
}

interface Cell {
  run?: Evaluate;
  /** Schemas this one applies: [url, whether through a `$ref`]. */
  edges: [string, boolean][];
}

class DetailedCompiler {
  readonly state = { n: 0, evaluations: 0 };
  readonly #budget: boolean;
  readonly base: string;
  readonly #root: Schema;
  readonly #dialect: Dialect;
  readonly #site: (url: string) => Site;
  readonly #cells = new Map<string, Cell>();
  #current: Cell | undefined;

  constructor(
    root: Schema,
    dialect: Dialect,
    base: string,
    site: (url: string) => Site,
    budget: boolean,
  ) {
    this.#budget = budget;
    this.#site = site;
    this.#root = root;
    this.#dialect = dialect;
    this.base = base;
  }

  #url(tokens: readonly string[]): string {
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
    const url = this.#url(tokens);
    this.#current?.edges.push([url, ref]);
    if (node === true) return valid;
    if (node === false) {
      let site: Site | undefined;
      return (value, pointer, units) => {
        units?.push(unitOf(VALIDATE, site ??= this.#site(url), value, pointer));
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
    const [target, tokens] = this.#resolve(ref);
    const run = this.schema(target, tokens, true);
    const state = this.state;
    return (value, pointer, units) => {
      if (++state.n > MAX_REF_NESTING) throw new FastPathBail();
      const result = run(value, pointer, units);
      state.n--;
      return result;
    };
  }

  #resolve(ref: string): [unknown, string[]] {
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

  #object(schema: Record<string, unknown>, tokens: readonly string[], url: string): Evaluate {
    const evaluated = EVALUATED[this.#dialect];
    const ignored = IGNORED[this.#dialect];
    const ids: string[] = [];
    const urls: string[] = [];
    const sites: (Site | undefined)[] = [];
    const runs: Evaluate[] = [];
    for (const keyword of Object.keys(schema)) {
      if (!evaluated.has(keyword)) {
        if (!ignored.has(keyword) && keyword.startsWith("$")) {
          throw new Unsupported(`the keyword ${keyword}`);
        }
        continue; // an annotation: never fails
      }
      const built = this.#keyword(keyword, schema, [...tokens, keyword]);
      if (built === undefined) continue;
      const prefix = this.#dialect === "draft-07"
        ? (DRAFT_04_IDS.has(keyword) ? "draft-04/" : keyword === "contains" ? "draft-06/" : "")
        : "";
      ids.push(KEYWORD + prefix + (keyword === "$ref" ? "ref" : keyword));
      urls.push(url + "/" + escapePointerToken(keyword));
      sites.push(undefined); // computed on first failure
      runs.push(built[1]);
    }
    const count = runs.length;
    return (value, pointer, units) => {
      let ok = true;
      for (let i = 0; i < count; i++) {
        if (units === null) {
          if (!runs[i](value, pointer, null)) ok = false;
          continue;
        }
        // The units of the subschemas a keyword applies go on the same list;
        // a failing keyword takes them as its own, a passing one drops them.
        const mark = units.length;
        if (runs[i](value, pointer, units)) {
          if (units.length > mark) units.length = mark;
          continue;
        }
        ok = false;
        const unit = unitOf(ids[i], sites[i] ??= this.#site(urls[i]), value, pointer);
        if (units.length > mark) unit.errors = units.splice(mark);
        units.push(unit);
      }
      return ok;
    };
  }

  /** [whether it applies subschemas, its evaluation], or undefined for a keyword that never fails. */
  #keyword(
    keyword: string,
    schema: Record<string, unknown>,
    at: string[],
  ): [boolean, Evaluate] | undefined {
    const value = schema[keyword];
    const sub = (node: unknown, ...more: string[]) => this.schema(node, [...at, ...more]);
    const leaf = (test: (v: unknown) => boolean): [boolean, Evaluate] => [false, (v) => test(v)];
    switch (keyword) {
      case "type": {
        const types = typeof value === "string" ? [value] : value;
        if (
          !Array.isArray(types) || types.length === 0 ||
          types.some((t) => typeof t !== "string" || !Object.hasOwn(TYPE_BITS, t))
        ) {
          throw new Unsupported("a type that is not a known type name or a list of them");
        }
        const mask = (types as string[]).reduce((bits, t) => bits | TYPE_BITS[t], 0);
        return leaf((v) => (typeBits(v) & mask) !== 0);
      }
      case "enum":
      case "const": {
        if (keyword === "enum" && !Array.isArray(value)) {
          throw new Unsupported("an enum that is not a plain array");
        }
        if (holdsRef(value)) throw new Unsupported(`a ${keyword} holding a $ref`);
        const member = jsonMembership(keyword === "enum" ? value as unknown[] : [value]);
        return leaf(member);
      }
      case "$ref":
        return [true, this.#ref(value)];
      case "allOf":
      case "anyOf":
      case "oneOf": {
        const runs = list(value, keyword).map((node, i) => sub(node, String(i)));
        return [true, (v, p, u) => {
          let passed = 0;
          for (const run of runs) if (run(v, p, u)) passed++;
          return keyword === "allOf"
            ? passed === runs.length
            : keyword === "anyOf"
            ? passed > 0
            : passed === 1;
        }];
      }
      case "not": {
        const run = sub(value);
        return [true, (v, p, u) => !run(v, p, u)];
      }
      case "if": {
        const run = sub(value);
        return [true, (v, p, u) => (run(v, p, u), true)];
      }
      case "then":
      case "else": {
        if (!Object.hasOwn(schema, "if")) return undefined;
        const condition = this.schema(schema.if, [...at.slice(0, -1), "if"]);
        const run = sub(value);
        const then = keyword === "then";
        return [true, (v, p, u) => condition(v, p, null) !== then || run(v, p, u)];
      }
      case "multipleOf": {
        const factor = num(value, keyword);
        return leaf((v) => {
          if (typeof v !== "number") return true;
          const r = v % factor;
          return Math.abs(0 - r) < 1.19209290e-7 || Math.abs(factor - r) < 1.19209290e-7;
        });
      }
      case "minimum":
      case "maximum":
      case "exclusiveMinimum":
      case "exclusiveMaximum": {
        const bound = num(value, keyword);
        const test = keyword === "minimum"
          ? (v: number) => !(v < bound)
          : keyword === "maximum"
          ? (v: number) => !(v > bound)
          : keyword === "exclusiveMinimum"
          ? (v: number) => !(v <= bound)
          : (v: number) => !(v >= bound);
        return leaf((v) => typeof v !== "number" || test(v));
      }
      case "minLength": {
        const min = num(value, keyword);
        return leaf((v) => typeof v !== "string" || codePoints(v) >= min);
      }
      case "maxLength": {
        const max = num(value, keyword);
        return leaf((v) => typeof v !== "string" || codePoints(v) <= max);
      }
      case "pattern": {
        const m = matcher(value);
        return leaf((v) => typeof v !== "string" || testPattern(m, v));
      }
      default:
        return this.#collections(keyword, schema, at, value);
    }
  }

  #collections(
    keyword: string,
    schema: Record<string, unknown>,
    at: string[],
    value: unknown,
  ): [boolean, Evaluate] | undefined {
    const sub = (node: unknown, ...more: string[]) => this.schema(node, [...at, ...more]);
    const leaf = (test: (v: unknown) => boolean): [boolean, Evaluate] => [false, (v) => test(v)];
    const draft07 = this.#dialect === "draft-07";
    switch (keyword) {
      case "prefixItems":
      case "items":
      case "additionalItems": {
        let from = 0;
        if (keyword === "prefixItems" || (draft07 && keyword === "items" && Array.isArray(value))) {
          const runs = list(value, keyword).map((node, i) => sub(node, String(i)));
          return [true, (v, p, u) => {
            if (!Array.isArray(v)) return true;
            let ok = true;
            for (let i = 0; i < v.length && i < runs.length; i++) {
              if (!runs[i](v[i], p + "/" + i, u)) ok = false;
            }
            return ok;
          }];
        }
        if (keyword === "items" && !draft07) {
          if (Array.isArray(value)) throw new Unsupported("an items array in 2020-12");
          from = Array.isArray(schema.prefixItems) ? schema.prefixItems.length : 0;
        }
        if (keyword === "additionalItems") {
          if (!Array.isArray(schema.items)) return undefined;
          from = schema.items.length;
        }
        const run = sub(value);
        return [true, (v, p, u) => {
          if (!Array.isArray(v)) return true;
          let ok = true;
          for (let i = from; i < v.length; i++) if (!run(v[i], p + "/" + i, u)) ok = false;
          return ok;
        }];
      }
      case "contains": {
        const run = sub(value);
        if (draft07) {
          return [true, (v, p, u) => {
            if (!Array.isArray(v)) return true;
            for (let i = 0; i < v.length; i++) if (run(v[i], p + "/" + i, u)) return true;
            return false;
          }];
        }
        const min = typeof schema.minContains === "number" ? num(schema.minContains, "min") : 1;
        const max = typeof schema.maxContains === "number"
          ? num(schema.maxContains, "maxContains")
          : Number.MAX_SAFE_INTEGER;
        return [true, (v, p, u) => {
          if (!Array.isArray(v)) return true;
          let matches = 0;
          for (let i = 0; i < v.length; i++) if (run(v[i], p + "/" + i, u)) matches++;
          return matches >= min && matches <= max;
        }];
      }
      case "minItems":
      case "maxItems": {
        const bound = num(value, keyword);
        return keyword === "minItems"
          ? leaf((v) => !Array.isArray(v) || v.length >= bound)
          : leaf((v) => !Array.isArray(v) || v.length <= bound);
      }
      case "uniqueItems":
        if (typeof value !== "boolean") throw new Unsupported("uniqueItems that is not a boolean");
        return value ? leaf((v) => !Array.isArray(v) || allDistinct(v)) : undefined;
      case "minProperties":
      case "maxProperties": {
        const bound = num(value, keyword);
        return keyword === "minProperties"
          ? leaf((v) => !isObject(v) || Object.keys(v).length >= bound)
          : leaf((v) => !isObject(v) || Object.keys(v).length <= bound);
      }
      case "required": {
        const names = strings(value, keyword);
        return leaf((v) => !isObject(v) || names.every((name) => Object.hasOwn(v, name)));
      }
      default:
        return this.#properties(keyword, schema, at, value);
    }
  }

  #properties(
    keyword: string,
    schema: Record<string, unknown>,
    at: string[],
    value: unknown,
  ): [boolean, Evaluate] | undefined {
    const sub = (node: unknown, ...more: string[]) => this.schema(node, [...at, ...more]);
    const map = (what: unknown): [string, unknown][] => {
      if (!isObject(what)) throw new Unsupported(`${keyword} that is not an object`);
      if (this.#dialect === "draft-07" && typeof what.$ref === "string") {
        throw new Unsupported(`${keyword} that reads as a reference`);
      }
      return Object.entries(what);
    };
    switch (keyword) {
      case "properties": {
        const runs = new Map(
          map(value).map((
            [name, node],
          ) => [name, [sub(node, name), "/" + escapePointerToken(name)] as const]),
        );
        return [true, (v, p, u) => {
          if (!isObject(v)) return true;
          let ok = true;
          for (const key of Object.keys(v)) {
            const found = runs.get(key);
            if (found !== undefined && !found[0](v[key], p + found[1], u)) ok = false;
          }
          return ok;
        }];
      }
      case "patternProperties": {
        const runs = map(value).map(([source, node]) =>
          [matcher(source), sub(node, source)] as const
        );
        return [true, (v, p, u) => {
          if (!isObject(v)) return true;
          let ok = true;
          for (const [m, run] of runs) {
            for (const key of Object.keys(v)) {
              if (testPattern(m, key) && !run(v[key], p + "/" + escapePointerToken(key), u)) {
                ok = false;
              }
            }
          }
          return ok;
        }];
      }
      case "additionalProperties": {
        const names = new Set(isObject(schema.properties) ? Object.keys(schema.properties) : []);
        const matchers = isObject(schema.patternProperties)
          ? Object.keys(schema.patternProperties).map(matcher)
          : [];
        const run = sub(value);
        return [true, (v, p, u) => {
          if (!isObject(v)) return true;
          let ok = true;
          for (const key of Object.keys(v)) {
            if (names.has(key) || matchers.some((m) => testPattern(m, key))) continue;
            if (!run(v[key], p + "/" + escapePointerToken(key), u)) ok = false;
          }
          return ok;
        }];
      }
      case "propertyNames": {
        const run = sub(value);
        return [true, (v, p, u) => {
          if (!isObject(v)) return true;
          let ok = true;
          for (const key of Object.keys(v)) {
            if (!run(key, "*" + p + "/" + escapePointerToken(key), u)) ok = false;
          }
          return ok;
        }];
      }
      case "dependentRequired":
      case "dependentSchemas":
      case "dependencies": {
        const entries = map(value).map(([name, dependency]) => {
          if (
            keyword === "dependentRequired" ||
            (keyword === "dependencies" && Array.isArray(dependency))
          ) {
            const needed = strings(dependency, "a dependency");
            return [name, (v: Record<string, unknown>) => needed.every((n) => Object.hasOwn(v, n))];
          }
          return [name, sub(dependency, name)];
        }) as [string, Evaluate][];
        return [keyword !== "dependentRequired", (v, p, u) => {
          if (!isObject(v)) return true;
          let ok = true;
          for (const [name, run] of entries) {
            if (Object.hasOwn(v, name) && !run(v, p, u)) ok = false;
          }
          return ok;
        }];
      }
      case "minContains":
      case "maxContains":
        return undefined; // read by contains
      default:
        throw new Unsupported(`the keyword ${keyword}`);
    }
  }
}

/** Whether a JSON value contains an object with a `$ref` key (Hyperjump reads those as references). */
function holdsRef(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsRef);
  if (isObject(value)) return "$ref" in value || Object.values(value).some(holdsRef);
  return false;
}
