// Private: the failures of an invalid value from JavaScript generated once per
// schema (as _compile.ts generates the check): the failures `toFailures` makes
// of the DETAILED units (_detailed.ts), in the same order, without the units.
// Each schema location is a function `f<n>(v, p, o)` that evaluates every
// keyword the units evaluation evaluates, in the same order, and appends each
// failing keyword's failures to `o` (null: nothing is recorded, as when `then`
// or `else` evaluate `if`). Locations, keyword names and the messages that do
// not depend on the value are made once per keyword (FailureTemplate). A
// keyword whose failures come from its unit as a whole (`anyOf` and `oneOf`,
// whose message quotes the branches' failures, and `additionalProperties` or
// `additionalItems` whose subschema can be false, whose messages name the
// extra members) is answered by the code; when it fails, the units
// evaluation makes its unit, which `toFailures`' own walk turns into failures.
// Only numbers (checked finite), JSON-quoted names and indexes into tables
// are ever written into the code.

import type { ValidationFailure } from "../errors.ts";
import { escapePointerToken } from "../_json_pointer.ts";
import { testPattern } from "../_pattern_record.ts";
import { BUDGET_START } from "../_dialect.ts";
import { FastPathBail, MAX_REF_NESTING, Unsupported } from "./_compile.ts";
import { keywordEvaluation } from "./_detailed_keywords.ts";
import { FailureTemplate } from "./_detailed_failures.ts";
import {
  type Dialect,
  type Evaluate,
  FastUnit,
  isObject,
  type KeywordContext,
  list,
  matcher,
  num,
  type OutputUnit,
  type Site,
  strings,
} from "./_detailed_unit.ts";

/** What the generated code needs of the units compiler of the same schema (_detailed.ts). */
export interface UnitsCompiler {
  readonly dialect: Dialect;
  readonly context: KeywordContext;
  readonly state: { n: number; evaluations: number };
  url(tokens: readonly string[]): string;
  site(url: string): Site;
  resolve(ref: string): [unknown, string[]];
  keywords(
    schema: Record<string, unknown>,
    url: string,
  ): { keyword: string; id: string; url: string }[];
}

/** Nesting of subschemas written in place, beyond which they are called. */
const INLINE_DEPTH = 8;

/** Largest generated source accepted (beyond, the units give the failures). */
const MAX_SOURCE = 2_000_000;

const OBJECT = '(typeof v === "object" && v !== null && !Array.isArray(v))';
const TYPE_TESTS: Record<string, string> = {
  null: "v === null",
  boolean: 'typeof v === "boolean"',
  string: 'typeof v === "string"',
  number: 'typeof v === "number"',
  integer: '(typeof v === "number" && Number.isInteger(v))',
  array: "Array.isArray(v)",
  object: OBJECT,
};

/** The keywords that test the value alone (their evaluation never nests units). */
const LEAVES = new Set([
  "type",
  "enum",
  "const",
  "multipleOf",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "required",
  "dependentRequired",
  "minContains",
  "maxContains",
]);

/**
 * Generates the failures of a schema the units compiler compiled; `walk`
 * appends a unit's failures. Throws Unsupported when code cannot be made.
 */
export function compileFailures(
  root: unknown,
  compiler: UnitsCompiler,
  walk: (unit: OutputUnit, out: ValidationFailure[]) => void,
  budget = false,
): (instance: unknown) => ValidationFailure[] {
  const generator = new FailureCode(compiler, budget);
  const entry = generator.fn(root, []);
  while (generator.pending.length > 0) generator.generate(...generator.pending.pop()!);
  const source = `${generator.code.join("\n")}\nreturn function failures(v) { ` +
    `st.n = 0; st.evaluations = 0; const o = []; ${generator.counted(root)}` +
    `${entry}(v, "", o); return o; };`;
  if (source.length > MAX_SOURCE) throw new Unsupported("a schema too large to generate code for");
  const templates: (FailureTemplate | undefined)[] = generator.templates.map(() => undefined);
  const template = (i: number): FailureTemplate => {
    const [keyword, url] = generator.templates[i];
    return templates[i] = new FailureTemplate(keyword, compiler.site(url));
  };
  const runs: (Evaluate | undefined)[] = [];
  const sites: (Site | undefined)[] = [];
  const rerun = (i: number, value: unknown, pointer: string, out: ValidationFailure[]) => {
    const [keyword, schema, tokens, id, url] = generator.reruns[i];
    const run = runs[i] ??= keywordEvaluation(keyword, schema, tokens, compiler.context)!;
    const units: OutputUnit[] = [];
    run(value, pointer, units);
    const unit = new FastUnit(id, sites[i] ??= compiler.site(url), value, pointer);
    if (units.length > 0) unit.errors = units;
    walk(unit, out);
  };
  try {
    return new Function("c", "T", "t", "u", "st", "Bail", "hasOwn", "tp", "esc", "yes", source)(
      generator.constants,
      templates,
      template,
      rerun,
      compiler.state,
      FastPathBail,
      Object.hasOwn,
      testPattern,
      escapePointerToken,
      () => true,
    );
  } catch (error) {
    throw new Unsupported(`generated code that does not run (${(error as Error)?.message})`);
  }
}

/** Code that uses an evaluation's result (an expression). */
type Use = (result: string) => string;

/** The use of a subschema whose failure is its keyword's: the caller's `ok` becomes false. */
const FAILS: Use = (r) => `if (!${r}) ok = false;`;

/** Numbers written into the code: finite (checked), printed exactly. */
function literal(value: number): string {
  return Object.is(value, -0) ? "0" : String(value);
}

/** A string written into the code. */
const q = (text: string): string => JSON.stringify(text);

class FailureCode {
  readonly code: string[] = [];
  readonly constants: unknown[] = [];
  /** Each failure template's keyword (`false` for a false schema) and location. */
  readonly templates: [string, string][] = [];
  /** Each keyword whose failures come from its units: name, schema, tokens, unit id, location. */
  readonly reruns: [string, Record<string, unknown>, string[], string, string][] = [];
  readonly pending: [unknown, readonly string[], string, number][] = [];
  readonly #ids = new Map<string, number>();
  readonly #refs = new Map<string, string>();
  readonly #compiler: UnitsCompiler;
  #resolving = 0;
  #temps = 0;
  #depth = 0;
  /** The variable of the current schema object's member names, once one is used. */
  #keys: string | undefined;
  /** The variable counting the members `properties` names, once `properties` is written. */
  #matched: string | undefined;

  /** Whether evaluations are counted against Hyperjump's budget (references that fan out). */
  readonly #budget: boolean;

  constructor(compiler: UnitsCompiler, budget: boolean) {
    this.#compiler = compiler;
    this.#budget = budget;
  }

  /**
   * With a budget, the code counting one evaluation of `node` (when recording),
   * as the units evaluation counts each subschema it evaluates with units: a
   * draft-07 reference is its target's evaluation, counted there.
   */
  counted(node: unknown): string {
    if (!this.#budget) return "";
    if (this.#compiler.dialect === "draft-07" && isObject(node) && Object.hasOwn(node, "$ref")) {
      return "";
    }
    return `if (o !== null && ++st.evaluations > ${BUDGET_START}) throw new Bail(); `;
  }

  /** The function evaluating the schema at `tokens` (`yes` for `true`). */
  fn(node: unknown, tokens: readonly string[]): string {
    if (node === true) return "yes";
    if (this.#compiler.dialect === "draft-07" && isObject(node) && Object.hasOwn(node, "$ref")) {
      return this.#ref(node.$ref); // the object is a reference, its siblings invisible
    }
    const url = this.#compiler.url(tokens);
    let id = this.#ids.get(url);
    if (id === undefined) {
      this.#ids.set(url, id = this.#ids.size);
      this.pending.push([node, tokens, url, id]);
    }
    return `f${id}`;
  }

  /**
   * Code that evaluates the schema at `tokens` on `value` at `pointer`
   * (appending its failures to `o`; with `record` "null", nothing), then
   * runs `use(result)`: written in place for a schema object within
   * INLINE_DEPTH levels (no call), else a call of its function.
   */
  #evaluate(
    node: unknown,
    tokens: readonly string[],
    value: string,
    pointer: string,
    use: (result: string) => string,
    record: "o" | "null" = "o",
  ): string {
    const count = record === "o" ? this.counted(node) : "";
    if (node === true) return count + use("true");
    const draft07 = this.#compiler.dialect === "draft-07";
    if (
      !isObject(node) || (draft07 && Object.hasOwn(node, "$ref")) || this.#depth >= INLINE_DEPTH
    ) {
      const fn = this.fn(node, tokens);
      return count + use(fn === "yes" ? "true" : `${fn}(${value}, ${pointer}, ${record})`);
    }
    this.#depth++;
    let body: string[];
    try {
      body = this.#body(node, tokens, this.#compiler.url(tokens));
    } finally {
      this.#depth--;
    }
    if (body.length === 0) return count + use("true");
    const n = this.#temps++;
    const scope = `const v = sv${n}, p = sp${n}${record === "o" ? "" : ", o = null"};`;
    if (use === FAILS) {
      // Its keywords make the caller's `ok` false themselves (they only ever set it false).
      return `${count}{ const sv${n} = ${value}, sp${n} = ${pointer}; { ${scope} ` +
        `${body.join(" ")} } }`;
    }
    // The subschema's `v`, `p` (and `o`) and `ok` shadow the caller's in a block of their own.
    return `${count}{ const sv${n} = ${value}, sp${n} = ${pointer}; let sr${n} = true; ` +
      `{ const v = sv${n}, p = sp${n}${record === "o" ? "" : ", o = null"}; let ok = true; ` +
      `${body.join(" ")} sr${n} = ok; } ${use(`sr${n}`)} }`;
  }

  /** The function of a local `$ref`, counting nesting as the units evaluation does. */
  #ref(ref: unknown): string {
    if (typeof ref !== "string" || !ref.startsWith("#")) {
      throw new Unsupported(`a $ref outside the document: ${String(ref)}`);
    }
    if (++this.#resolving > MAX_REF_NESTING) throw new Unsupported("a chain of references");
    const [target, tokens] = this.#compiler.resolve(ref);
    const inner = this.fn(target, tokens);
    this.#resolving--;
    let name = this.#refs.get(inner);
    if (name === undefined) {
      this.#refs.set(inner, name = `r${this.#refs.size}`);
      this.code.push(
        `function ${name}(v, p, o) { if (++st.n > ${MAX_REF_NESTING}) throw new Bail(); ` +
          `${this.counted(target)}const t = ${inner}(v, p, o); st.n--; return t; }`,
      );
    }
    return name;
  }

  /**
   * The final target of a draft-07 subschema (the subschema itself when not
   * a reference) and its tokens: a reference's units are its target's.
   */
  #final(node: unknown, tokens: readonly string[]): [unknown, readonly string[]] {
    let hops = 0;
    while (this.#compiler.dialect === "draft-07" && isObject(node) && Object.hasOwn(node, "$ref")) {
      const ref = node.$ref;
      if (typeof ref !== "string" || !ref.startsWith("#") || ++hops > MAX_REF_NESTING) {
        throw new Unsupported("a chain of references");
      }
      [node, tokens] = this.#compiler.resolve(ref);
    }
    return [node, tokens];
  }

  /**
   * The index `toFailures` gives the failures of draft-07 branch `i` of an
   * `anyOf` or `oneOf` whose location has `depth` tokens: the token at that
   * depth in the location of each unit the branch makes (its own, its
   * keywords' or, for a reference, its target's). Undefined when it names
   * each keyword of the target (the target's location is `depth` long).
   */
  #branchKey(node: unknown, i: number, depth: number): string | undefined {
    if (!isObject(node) || !Object.hasOwn(node, "$ref")) return String(i);
    const [target, tokens] = this.#final(node, []);
    if (target === true) return String(i); // it never fails
    if (target === false || tokens.length !== depth) return tokens[depth] ?? "?";
    return undefined;
  }

  #constant(value: unknown): string {
    this.constants.push(value);
    return `c[${this.constants.length - 1}]`;
  }

  /** The index of a new failure template of `keyword` at `url`. */
  #template(keyword: string, url: string): number {
    this.templates.push([keyword, url]);
    return this.templates.length - 1;
  }

  /** Code that appends the failures of `keyword` at `url` (when recording). */
  #emit(keyword: string, url: string): string {
    const i = this.#template(keyword, url);
    return `if (o !== null) (T[${i}] ?? t(${i})).emit(v, p, o);`;
  }

  generate(node: unknown, tokens: readonly string[], url: string, id: number): void {
    if (node === false) {
      this.code.push(`function f${id}(v, p, o) { ${this.#emit("false", url)} return false; }`);
      return;
    }
    if (!isObject(node)) throw new Unsupported("a subschema that is not an object or a boolean");
    const body = this.#body(node, tokens, url);
    this.code.push(`function f${id}(v, p, o) {\nlet ok = true;\n${body.join("\n")}\nreturn ok;\n}`);
  }

  /** The code of a schema object's keywords (its member names listed once, when read). */
  #body(node: Record<string, unknown>, tokens: readonly string[], url: string): string[] {
    const [keys, matched] = [this.#keys, this.#matched];
    this.#keys = this.#matched = undefined;
    const body: string[] = [];
    try {
      for (const at of this.#compiler.keywords(node, url)) this.#keyword(node, tokens, at, body);
      if (this.#matched !== undefined) body.unshift(`let ${this.#matched} = 0;`);
      if (this.#keys !== undefined) body.unshift(`let ${this.#keys};`);
    } finally {
      [this.#keys, this.#matched] = [keys, matched];
    }
    return body;
  }

  /** A loop over the member names of `v` (an object), with `code` for each `k`. */
  #members(code: string): string {
    const keys = this.#keys ??= `ks${this.#temps++}`;
    return `{ const kk = ${keys} ??= Object.keys(v); ` +
      `for (let j = 0; j < kk.length; j++) { const k = kk[j]; ${code} } }`;
  }

  #keyword(
    schema: Record<string, unknown>,
    tokens: readonly string[],
    { keyword, id, url }: { keyword: string; id: string; url: string },
    out: string[],
  ): void {
    const value = schema[keyword];
    const at = [...tokens, keyword];
    const ev = (node: unknown, more: string[], v: string, p: string, use: Use) =>
      this.#evaluate(node, [...at, ...more], v, p, use);
    const fail = () => `ok = false; ${this.#emit(keyword, url)}`;
    // A keyword whose failures are its own whatever it nests (`not`, `contains`).
    const own = (code: string) =>
      out.push(
        `{ const m = o === null ? 0 : o.length; let w = true; ${code} ` +
          `if (o !== null && o.length > m) o.length = m; if (!w) { ${fail()} } }`,
      );
    // A keyword whose failures come from its units (code: `w = false` when it fails).
    const units = (code: string) => {
      this.reruns.push([keyword, schema, at, id, url]);
      out.push(
        `{ const m = o === null ? 0 : o.length${
          this.#budget ? ", ev = st.evaluations" : ""
        }; let w = true; ${code} ` +
          `if (o !== null && o.length > m) o.length = m; ` +
          // The units evaluation counts what this evaluation counted, once.
          `if (!w) { ok = false; if (o !== null) { ${this.#budget ? "st.evaluations = ev; " : ""}` +
          `u(${this.reruns.length - 1}, v, p, o); } } }`,
      );
    };
    const draft07 = this.#compiler.dialect === "draft-07";
    // The evaluation of `additional*`'s subschema on each extra member (`name`
    // its name): when it is false (or a draft-07 reference to false), its
    // units are false-schema units, whose failures name the member on the
    // object or array; else they are its keywords' (or its target's).
    const extra = (v: string, p: string, name: string) => {
      if (this.#final(value, at)[0] !== false) return ev(value, [], v, p, FAILS);
      const i = this.#template(keyword, url);
      return `{ const mk = o === null ? 0 : o.length; ${
        ev(value, [], v, p, (r) =>
          `if (!${r}) { ok = false; if (o !== null) { o.length = mk; ` +
          `(T[${i}] ?? t(${i})).extra(p, ${name}, o); } }`)
      } }`;
    };
    if (LEAVES.has(keyword)) {
      const run = keywordEvaluation(keyword, schema, at, this.#compiler.context);
      if (run === undefined) return;
      let test: string;
      if (keyword === "type") {
        const types = typeof value === "string" ? [value] : value as string[];
        test = types.map((t) => TYPE_TESTS[t]).join(" || ");
      } else if (keyword === "required") {
        const names = strings(value, keyword);
        if (names.length === 0) return;
        test = `!${OBJECT} || (${names.map((n) => `hasOwn(v, ${q(n)})`).join(" && ")})`;
      } else {
        test = `${this.#constant(run)}(v, p, null)`;
      }
      out.push(`if (!(${test})) { ${fail()} }`);
      return;
    }
    switch (keyword) {
      case "$ref":
        out.push(`if (!${this.#ref(value)}(v, p, o)) ok = false;`);
        return;
      case "allOf":
        list(value, keyword).forEach((node, i) => out.push(ev(node, [String(i)], "v", "p", FAILS)));
        return;
      case "anyOf":
      case "oneOf": {
        const branches = list(value, keyword);
        const passes = keyword === "anyOf" ? "n > 0" : "n === 1";
        // A draft-07 reference's units are its target's: the index `toFailures`
        // reads in their location is not the branch's (undefined: per keyword).
        const keys = draft07
          ? branches.map((node, i) => this.#branchKey(node, i, at.length))
          : undefined;
        if (keys !== undefined && keys.includes(undefined)) {
          const tests = branches.map((node, i) =>
            ev(node, [String(i)], "v", "p", (r) => `if (${r}) n++;`)
          );
          units(`let n = 0; ${tests.join(" ")} if (!(${passes})) w = false;`);
          return;
        }
        const keyed = keys !== undefined && keys.some((key, i) => key !== String(i));
        // Each branch's failures end at e<i>: the message quotes them by branch.
        const tests = branches.map((node, i) =>
          `${ev(node, [String(i)], "v", "p", (r) => `if (${r}) n++;`)} ` +
          `const e${i} = o === null ? 0 : o.length;`
        );
        const t = this.#template(keyword, url);
        const ends = branches.map((_, i) => `e${i}`).join(", ");
        out.push(
          `{ const m = o === null ? 0 : o.length; let n = 0; ${tests.join(" ")} ` +
            `if (${passes}) { if (o !== null && o.length > m) o.length = m; } else { ok = false; ` +
            `if (o !== null) (T[${t}] ?? t(${t})).branches(p, o, m, [${ends}]${
              keyed ? `, ${this.#constant(keys)}` : ""
            }); } }`,
        );
        return;
      }
      case "not":
        own(ev(value, [], "v", "p", (r) => `w = !${r};`));
        return;
      case "if":
        out.push(
          `{ const m = o === null ? 0 : o.length; ${ev(value, [], "v", "p", () => "")} ` +
            `if (o !== null && o.length > m) o.length = m; }`,
        );
        return;
      case "then":
      case "else": {
        if (!Object.hasOwn(schema, "if")) return;
        const body = (r: string) =>
          `if (${r} === ${keyword === "then"}) { ${ev(value, [], "v", "p", FAILS)} }`;
        out.push(this.#evaluate(schema.if, [...tokens, "if"], "v", "p", body, "null"));
        return;
      }
      default:
        this.#collection(schema, keyword, value, {
          ev,
          own,
          extra,
          draft07,
          emit: () => this.#emit(keyword, url),
        }, out);
    }
  }

  /** The array and object keywords that apply subschemas. */
  #collection(
    schema: Record<string, unknown>,
    keyword: string,
    value: unknown,
    { ev, own, extra, draft07, emit }: {
      ev: (node: unknown, more: string[], v: string, p: string, use: Use) => string;
      emit: () => string;
      own: (code: string) => void;
      extra: (v: string, p: string, name: string) => string;
      draft07: boolean;
    },
    out: string[],
  ): void {
    const map = (what: unknown): [string, unknown][] => {
      if (!isObject(what)) throw new Unsupported(`${keyword} that is not an object`);
      if (draft07 && typeof what.$ref === "string") {
        throw new Unsupported(`${keyword} that reads as a reference`);
      }
      return Object.entries(what);
    };
    const each = 'p + "/" + esc(k)';
    switch (keyword) {
      case "prefixItems":
      case "items":
      case "additionalItems": {
        if (keyword === "prefixItems" || (draft07 && keyword === "items" && Array.isArray(value))) {
          const lines = list(value, keyword).map((node, i) =>
            `if (v.length > ${i}) { ${ev(node, [String(i)], `v[${i}]`, `p + "/${i}"`, FAILS)} }`
          );
          if (lines.length > 0) out.push(`if (Array.isArray(v)) { ${lines.join(" ")} }`);
          return;
        }
        let from = 0;
        if (keyword === "items" && !draft07) {
          if (Array.isArray(value)) throw new Unsupported("an items array in 2020-12");
          from = Array.isArray(schema.prefixItems) ? schema.prefixItems.length : 0;
        }
        if (keyword === "additionalItems") {
          if (!Array.isArray(schema.items)) return;
          from = schema.items.length;
        }
        const test = keyword === "items"
          ? ev(value, [], "v[i]", 'p + "/" + i', FAILS)
          : extra("v[i]", 'p + "/" + i', "i");
        out.push(`if (Array.isArray(v)) { for (let i = ${from}; i < v.length; i++) { ${test} } }`);
        return;
      }
      case "contains": {
        const test = (use: Use) => ev(value, [], "v[i]", 'p + "/" + i', use);
        if (draft07) {
          own(
            `if (Array.isArray(v)) { w = false; for (let i = 0; i < v.length; i++) { ` +
              `${test((r) => `if (${r}) { w = true; break; }`)} } }`,
          );
          return;
        }
        const min = typeof schema.minContains === "number" ? num(schema.minContains, "min") : 1;
        const max = typeof schema.maxContains === "number"
          ? num(schema.maxContains, "maxContains")
          : Number.MAX_SAFE_INTEGER;
        own(
          `if (Array.isArray(v)) { let n = 0; for (let i = 0; i < v.length; i++) { ` +
            `${test((r) => `if (${r}) n++;`)} } ` +
            `w = n >= ${literal(min)} && n <= ${literal(max)}; }`,
        );
        return;
      }
      case "properties": {
        // Counting the members it names: when they are all the members,
        // `additionalProperties` after it has none to evaluate.
        const matched = this.#matched ??= `mc${this.#temps++}`;
        const cases = map(value).map(([name, node]) => {
          const pointer = `p + ${q("/" + escapePointerToken(name))}`;
          // The member by its name (a named load, where `v[k]` is a keyed one).
          const member = `v[${q(name)}]`;
          const test = ev(node, [name], member, pointer, FAILS);
          return `case ${q(name)}: ${matched}++; ${test} break;`;
        });
        if (cases.length > 0) {
          out.push(
            `if (${OBJECT}) ${this.#members(`switch (k) { ${cases.join(" ")} }`)}`,
          );
        }
        return;
      }
      case "patternProperties": {
        const loops = map(value).map(([source, node]) =>
          this.#members(
            `if (tp(${this.#constant(matcher(source))}, k)) { ` +
              `${ev(node, [source], "v[k]", each, FAILS)} }`,
          )
        );
        if (loops.length > 0) out.push(`if (${OBJECT}) { ${loops.join(" ")} }`);
        return;
      }
      case "additionalProperties": {
        const names = isObject(schema.properties) ? Object.keys(schema.properties) : [];
        const matchers = isObject(schema.patternProperties)
          ? Object.keys(schema.patternProperties).map(matcher)
          : [];
        const known = [
          names.length > 0
            ? `switch (k) { ${names.map((n) => `case ${q(n)}:`).join(" ")} continue; }`
            : "",
          matchers.length > 0
            ? `if (${matchers.map((m) => `tp(${this.#constant(m)}, k)`).join(" || ")}) continue;`
            : "",
        ].join(" ");
        // After `properties` (whose members it skips alone), only an object
        // with other members has members to evaluate.
        const others = this.#matched !== undefined && this.#keys !== undefined &&
            matchers.length === 0 && isObject(schema.properties)
          ? ` && (${this.#keys} ??= Object.keys(v)).length !== ${this.#matched}`
          : "";
        out.push(
          `if (${OBJECT}${others}) ${this.#members(`${known} ${extra("v[k]", each, "k")}`)}`,
        );
        return;
      }
      case "propertyNames":
        out.push(
          `if (${OBJECT}) ${this.#members(ev(value, [], "k", `"*" + ${each}`, FAILS))}`,
        );
        return;
      case "dependentSchemas":
      case "dependencies": {
        const lines = map(value).map(([name, dependency]) => {
          if (keyword === "dependencies" && Array.isArray(dependency)) {
            const all = strings(dependency, "a dependency").map((n) => `hasOwn(v, ${q(n)})`);
            return `if (hasOwn(v, ${q(name)}) && !(${all.join(" && ") || "true"})) w = false;`;
          }
          return `if (hasOwn(v, ${q(name)})) { ${
            ev(dependency, [name], "v", "p", (r) => `if (!${r}) w = false;`)
          } }`;
        });
        if (lines.length === 0) return;
        // Its own failure (the missing properties) only when no dependency nests any.
        out.push(
          `{ const m = o === null ? 0 : o.length; let w = true; ` +
            `if (${OBJECT}) { ${lines.join(" ")} } ` +
            `if (!w) { ok = false; if (o !== null && o.length === m) { ${emit()} } } }`,
        );
        return;
      }
      default:
        throw new Unsupported(`the keyword ${keyword}`);
    }
  }
}
