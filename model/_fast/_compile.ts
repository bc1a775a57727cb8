// Private: compiles a schema that the fast path supports (see _support.ts)
// into one generated JavaScript function per schema object, straight-line
// code that answers valid/invalid exactly as Hyperjump does, keyword by
// keyword (each rule below mirrors the Hyperjump 1.18.0 keyword of the same
// name). Only numbers (checked finite), JSON-quoted names and indexes into a
// table of values are ever written into the code. Anything unexpected throws
// Unsupported, and the whole schema then stays on Hyperjump.
//
// With a depth limit, the root's code also proves a value it accepts JSON
// within that limit (the check the validator otherwise makes first, see
// model/_instance_check.ts), walking only what the schema leaves unchecked:
// see _cover.ts.

import { compilePattern, type Matcher } from "../_regex.ts";
import { testPattern } from "../_pattern_record.ts";
import { allDistinct, jsonMembership } from "./_json_equal.ts";
import { EVALUATED, IGNORED, TYPE_TESTS } from "./_keywords.ts";
import { isJsonPrimitive, primitiveTest, WALKER } from "./_cover.ts";

/** A compiled check: whether the value is valid. May throw {@linkcode FastPathBail}. */
export type Check = (value: unknown) => boolean;

/** The schema uses something the fast path cannot do exactly; the reason says what. */
export class Unsupported extends Error {}

/** Thrown while checking when this one value must be answered by Hyperjump instead. */
export class FastPathBail extends Error {}

/** Nested `$ref` evaluations beyond which a value is handed to Hyperjump (its own limits apply). */
export const MAX_REF_NESTING = 128;

/** Nesting of subschemas written inline, beyond which they are called. */
const INLINE_DEPTH = 24;

/** Largest generated source accepted (bigger schemas stay on Hyperjump). */
const MAX_SOURCE = 2_000_000;

type Schema = Record<string, unknown> | boolean;
type Dialect = "2020-12" | "draft-07";

const TYPES = new Set(["null", "boolean", "object", "array", "number", "string", "integer"]);
/**
 * The type tests of code that proves its values JSON: on a JSON value they
 * answer as TYPE_TESTS do (an object's prototype is tested by its section).
 */
const STRICT_TYPE_TESTS: Record<string, string> = { ...TYPE_TESTS, number: "Number.isFinite(v)" };

/** Deepest limit the proving check takes (beyond it the JSON check is iterative). */
const COVER_LIMIT = 2000;

/** A compiled document and whether it runs any pattern. */
export interface CompiledDocument {
  /** The check (resets its `$ref` nesting count on each call). */
  check: Check;
  /** Whether any pattern runs (`pattern`, `patternProperties`). */
  patterns: boolean;
  /**
   * When the check proves that a value it accepts is JSON (finite numbers,
   * plain objects, nothing else): the most nested containers of such a value.
   */
  jsonLevels: number | undefined;
}

/**
 * Compiles a whole document. With `maxDepth` (at most COVER_LIMIT) the check
 * returning true also proves the value JSON within `maxDepth` nested
 * containers, as model/_instance_check.ts would find it.
 */
export function compileDocument(
  root: Schema,
  dialect: Dialect,
  maxDepth?: number,
): CompiledDocument {
  const cover = maxDepth !== undefined && Number.isInteger(maxDepth) && maxDepth >= 0 &&
      maxDepth <= COVER_LIMIT
    ? maxDepth
    : undefined;
  const generator = new Generator(root, dialect, cover);
  let entry: string;
  if (cover === undefined) entry = `return ${generator.call(root, "v")};`;
  else entry = `${generator.complete(root, "v", 0)}\nreturn true;`;
  while (generator.pending.length > 0) generator.generate(...generator.pending.pop()!);
  const reset = generator.counts ? "st.n = 0;\n" : "";
  const body = `${generator.code.join("\n")}\nreturn function check(v) {\n${reset}${entry}\n};`;
  // The walk, only where the code calls it.
  const walks = cover !== undefined && /\bw\(/.test(body);
  const source = `${walks ? WALKER.replaceAll("MAX_DEPTH", literal(cover)) : ""}${body}`;
  if (source.length > MAX_SOURCE) throw new Unsupported("a schema too large to generate code for");
  const state = { n: 0 };
  let check: Check;
  try {
    check = new Function("c", "hasOwn", "tp", "cp", "st", "Bail", "OP", source)(
      generator.constants,
      Object.hasOwn,
      testPattern,
      codePoints,
      state,
      FastPathBail,
      Object.prototype,
    );
  } catch (error) {
    // e.g. code generation disallowed by the host (a content security policy).
    throw new Unsupported(`generated code that does not run (${(error as Error)?.message})`);
  }
  return { check, patterns: generator.patterns, jsonLevels: cover };
}

/** Numbers written into the code: finite (checked), printed exactly. */
function literal(value: number): string {
  return Object.is(value, -0) ? "0" : String(value);
}

/** Generated statements, and whether they prove the value JSON (see `#emit`). */
interface Emitted {
  code: string;
  covered: boolean;
}

/** A schema object's generated lines, and whether they prove the value JSON. */
interface Body {
  out: string[];
  covered: boolean;
}

class Generator {
  readonly code: string[] = [];
  readonly constants: unknown[] = [];
  readonly pending: [Record<string, unknown>, number][] = [];
  patterns = false;
  readonly #ids = new Map<object, number>();
  /** Subschemas whose code was written inline once (met again, they get a function). */
  readonly #inlined = new Set<object>();
  #depth = 0;
  #temps = 0;
  readonly #refs = new Set<number>();
  readonly #root: Schema;
  readonly #dialect: Dialect;
  /** The depth limit the root's code proves a value JSON within, if it does. */
  readonly #max: number | undefined;

  constructor(root: Schema, dialect: Dialect, max: number | undefined) {
    this.#root = root;
    this.#dialect = dialect;
    this.#max = max;
  }

  /** Whether the code counts `$ref` nesting (then each check resets the count). */
  get counts(): boolean {
    return this.#refs.size > 0;
  }

  /** An expression: whether `arg` is valid against `schema`. */
  call(schema: unknown, arg: string): string {
    if (schema === true) return "true";
    if (schema === false) return "false";
    return `s${this.#id(schema)}(${arg})`;
  }

  /**
   * A statement: `return false` when `arg` is invalid against `schema`. The
   * subschema's code is written inline (no call) the first time it is met,
   * within INLINE_DEPTH levels; else it is a call of its function.
   */
  require(schema: unknown, arg: string): string {
    return this.#emit(schema, arg, undefined).code;
  }

  /**
   * A statement: `return false` when `arg` (a value nested `depth` containers
   * deep) is invalid against `schema` or not JSON within the depth limit;
   * what the schema's code does not prove JSON by itself is walked.
   */
  complete(schema: unknown, arg: string, depth: number): string {
    const { code, covered } = this.#emit(schema, arg, depth);
    return covered ? code : `${code}\nif (!w(${arg}, ${depth})) return false;`;
  }

  /**
   * The code of `require`; with `cover` (the value's nesting), whether that
   * code, when it does not return false, also proves the value JSON within
   * the depth limit (else nothing is proven).
   */
  #emit(schema: unknown, arg: string, cover: number | undefined): Emitted {
    if (schema === true) return { code: "", covered: false };
    if (schema === false) return { code: "return false;", covered: true };
    if (!isObject(schema) || this.#inlined.has(schema) || this.#depth >= INLINE_DEPTH) {
      return { code: `if (!${this.call(schema, arg)}) return false;`, covered: false };
    }
    this.#inlined.add(schema);
    this.#depth++;
    let body: Body;
    try {
      body = this.#body(schema, cover);
    } finally {
      this.#depth--;
    }
    const { out, covered } = body;
    if (arg === "v") return { code: `{\n${out.join("\n")}\n}`, covered };
    const temp = `t${this.#temps++}`;
    return {
      code: `{ const ${temp} = ${arg}; { const v = ${temp};\n${out.join("\n")}\n} }`,
      covered,
    };
  }

  #id(schema: unknown): number {
    if (!isObject(schema)) throw new Unsupported("a subschema that is not an object or a boolean");
    let id = this.#ids.get(schema);
    if (id === undefined) {
      this.#ids.set(schema, id = this.#ids.size);
      this.pending.push([schema, id]);
    }
    return id;
  }

  #constant(value: unknown): string {
    this.constants.push(value);
    return `c[${this.constants.length - 1}]`;
  }

  #pattern(source: unknown): string {
    this.patterns = true;
    return this.#constant(pattern(source));
  }

  /** An expression: `arg` against the schema a local `$ref` names, counting nesting. */
  #ref(ref: unknown, arg: string): string {
    if (typeof ref !== "string" || !ref.startsWith("#")) {
      throw new Unsupported(`a $ref outside the document: ${String(ref)}`);
    }
    const target = resolvePointer(ref, this.#root);
    if (typeof target === "boolean") return String(target);
    const id = this.#id(target);
    if (!this.#refs.has(id)) {
      this.#refs.add(id);
      this.code.push(
        `function r${id}(v) { if (++st.n > ${MAX_REF_NESTING}) throw new Bail(); ` +
          `const t = s${id}(v); st.n--; return t; }`,
      );
    }
    return `r${id}(${arg})`;
  }

  generate(schema: Record<string, unknown>, id: number): void {
    const { out } = this.#body(schema, undefined);
    this.code.push(`function s${id}(v) {\n${out.join("\n")}\nreturn true;\n}`);
  }

  /** The code of a schema object (see `#emit` for `cover`). */
  #body(schema: Record<string, unknown>, cover: number | undefined): Body {
    const dialect = this.#dialect;
    if (dialect === "draft-07" && "$ref" in schema) {
      // Draft-07: `$ref` hides its siblings.
      return { out: [`if (!${this.#ref(schema.$ref, "v")}) return false;`], covered: false };
    }
    const evaluated = EVALUATED[dialect];
    const ignored = IGNORED[dialect];
    for (const keyword of Object.keys(schema)) {
      if (!evaluated.has(keyword) && !ignored.has(keyword) && keyword.startsWith("$")) {
        // `$`-keywords the fast path does not know (anchors, dynamic references...)
        // were refused by the document scan; anything left here is a surprise.
        throw new Unsupported(`the keyword ${keyword}`);
      }
    }
    const has = (keyword: string) => evaluated.has(keyword) && Object.hasOwn(schema, keyword);
    const out: string[] = [];
    const fail = (condition: string) => out.push(`if (${condition}) return false;`);
    let covered = false;
    // With one type asserted first, its section below needs no type guard.
    let only: string | undefined;
    // The types asserted, whose sections prove the value JSON (with `cover`).
    let typed: Set<string> | undefined;
    if (has("type")) {
      const types = typeof schema.type === "string" ? [schema.type] : schema.type;
      if (
        !Array.isArray(types) || types.length === 0 ||
        types.some((t) => typeof t !== "string" || !TYPES.has(t))
      ) {
        throw new Unsupported("a type that is not a known type name or a list of them");
      }
      const tests = cover === undefined ? TYPE_TESTS : STRICT_TYPE_TESTS;
      fail(`!(${(types as string[]).map((t) => tests[t]).join(" || ")})`);
      if (types.length === 1) only = types[0] === "integer" ? "number" : types[0];
      if (cover !== undefined) typed = new Set(types as string[]);
    }
    const members = (values: unknown[]) => {
      const chain = primitiveTest(values);
      fail(chain === undefined ? `!${this.#constant(jsonMembership(values))}(v)` : `!${chain}`);
      if (cover !== undefined && values.every(isJsonPrimitive)) covered = true;
    };
    if (has("enum")) {
      if (!Array.isArray(schema.enum) || holdsRef(schema.enum)) {
        throw new Unsupported("an enum that is not a plain array");
      }
      members(schema.enum);
    }
    if (has("const")) {
      if (holdsRef(schema.const)) throw new Unsupported("a const holding a $ref");
      members([schema.const]);
    }
    if (has("$ref")) fail(`!${this.#ref(schema.$ref, "v")}`);
    if (has("allOf")) {
      for (const sub of list(schema.allOf, "allOf")) {
        const branch = this.#emit(sub, "v", cover);
        out.push(branch.code);
        if (branch.covered) covered = true;
      }
    }
    if (has("anyOf")) {
      const branches = list(schema.anyOf, "anyOf").map((sub) => this.call(sub, "v"));
      fail(`!(${branches.length > 0 ? branches.join(" || ") : "false"})`);
    }
    if (has("oneOf")) {
      const branches = list(schema.oneOf, "oneOf").map((sub) => this.call(sub, "v"));
      out.push(
        `{ let n = 0; ${
          branches.map((b) => `if (${b} && ++n > 1) return false;`).join(" ")
        } if (n !== 1) return false; }`,
      );
    }
    if (has("not")) fail(this.call(schema.not, "v"));
    if (has("if") && (has("then") || has("else"))) {
      const condition = this.call(schema.if, "v");
      const then = has("then") ? this.call(schema.then, "v") : "true";
      const otherwise = has("else") ? this.call(schema.else, "v") : "true";
      fail(`(${condition} ? !${then} : !${otherwise})`);
    }
    const section = (type: string, guard: string, code: string[]) => {
      if (code.length === 0) return;
      if (only === type) out.push("{", ...code, "}");
      else out.push(`if (${guard}) {`, ...code, "}");
    };
    section("string", 'typeof v === "string"', this.#strings(schema, has));
    section("number", 'typeof v === "number"', this.#numbers(schema, has));
    // With `cover`, a type's section proves its values JSON.
    const within = (type: string) => typed?.has(type) ? cover : undefined;
    section("array", "Array.isArray(v)", this.#arrays(schema, has, within("array")));
    const objects = this.#objects(schema, has, within("object"));
    section("object", TYPE_TESTS.object, objects.out);
    if (typed !== undefined && (!typed.has("object") || objects.covered)) covered = true;
    return { out, covered };
  }

  #strings(schema: Record<string, unknown>, has: (k: string) => boolean): string[] {
    const out: string[] = [];
    if (has("minLength")) {
      // At least length/2 code points: only short strings need counting.
      const min = literal(number(schema.minLength, "minLength"));
      out.push(
        `if (!(v.length >= 2 * ${min} || (v.length >= ${min} && cp(v) >= ${min}))) return false;`,
      );
    }
    if (has("maxLength")) {
      const max = literal(number(schema.maxLength, "maxLength"));
      out.push(
        `if (!(v.length <= ${max} || (v.length <= 2 * ${max} && cp(v) <= ${max}))) return false;`,
      );
    }
    if (has("pattern")) out.push(`if (!tp(${this.#pattern(schema.pattern)}, v)) return false;`);
    return out;
  }

  #numbers(schema: Record<string, unknown>, has: (k: string) => boolean): string[] {
    const out: string[] = [];
    const bound = (keyword: string, failing: string) => {
      if (has(keyword)) {
        out.push(`if (v ${failing} ${literal(number(schema[keyword], keyword))}) return false;`);
      }
    };
    bound("minimum", "<");
    bound("maximum", ">");
    bound("exclusiveMinimum", "<=");
    bound("exclusiveMaximum", ">=");
    if (has("multipleOf")) {
      // Hyperjump's rule, tolerance included.
      const factor = literal(number(schema.multipleOf, "multipleOf"));
      out.push(
        `{ const r = v % ${factor}; if (!(Math.abs(0 - r) < 1.19209290e-7 || ` +
          `Math.abs(${factor} - r) < 1.19209290e-7)) return false; }`,
      );
    }
    return out;
  }

  /** An array's section; with `cover` (its nesting), it proves the array JSON. */
  #arrays(
    schema: Record<string, unknown>,
    has: (k: string) => boolean,
    cover: number | undefined,
  ): string[] {
    // Too deep (the JSON check then says so): no code proves it.
    if (cover !== undefined && cover >= this.#max!) {
      return ["return false;", ...this.#arrays(schema, has, undefined)];
    }
    const out: string[] = [];
    let prefix: unknown[] = [];
    let rest: unknown = undefined;
    if (this.#dialect === "2020-12") {
      if (has("prefixItems")) prefix = list(schema.prefixItems, "prefixItems");
      if (has("items")) {
        if (Array.isArray(schema.items)) throw new Unsupported("an items array in 2020-12");
        rest = schema.items;
      }
    } else if (has("items")) {
      if (Array.isArray(schema.items)) {
        prefix = schema.items;
        if (has("additionalItems")) rest = schema.additionalItems;
      } else {
        rest = schema.items;
      }
    }
    const item = (sub: unknown, arg: string) =>
      cover === undefined ? this.require(sub, arg) : this.complete(sub, arg, cover + 1);
    prefix.forEach((sub, i) => {
      const check = item(sub, `v[${i}]`);
      if (check !== "") out.push(`if (v.length > ${i}) { ${check} }`);
    });
    if (rest !== undefined || cover !== undefined) {
      // With `cover`, items no keyword checks are walked.
      const check = item(rest ?? true, "v[i]");
      if (check === "return false;") out.push(`if (v.length > ${prefix.length}) return false;`);
      else if (check !== "") {
        out.push(`for (let i = ${prefix.length}; i < v.length; i++) { ${check} }`);
      }
    }
    if (has("minItems")) {
      out.push(`if (v.length < ${literal(number(schema.minItems, "minItems"))}) return false;`);
    }
    if (has("maxItems")) {
      out.push(`if (v.length > ${literal(number(schema.maxItems, "maxItems"))}) return false;`);
    }
    if (has("uniqueItems")) {
      if (typeof schema.uniqueItems !== "boolean") {
        throw new Unsupported("uniqueItems that is not a boolean");
      }
      if (schema.uniqueItems) out.push(`if (!${this.#constant(allDistinct)}(v)) return false;`);
    }
    if (has("contains")) {
      let min = 1;
      let max = Number.MAX_SAFE_INTEGER;
      if (this.#dialect === "2020-12") {
        if (has("minContains") && typeof schema.minContains === "number") {
          min = number(schema.minContains, "minContains");
        }
        if (has("maxContains") && typeof schema.maxContains === "number") {
          max = number(schema.maxContains, "maxContains");
        }
      }
      out.push(
        `{ let m = 0; for (let j = 0; j < v.length; j++) if (${
          this.call(schema.contains, "v[j]")
        }) m++; if (m < ${literal(min)} || m > ${literal(max)}) return false; }`,
      );
    }
    return out;
  }

  /**
   * An object's section; with `cover` (its nesting), whether it proves the
   * object JSON: a plain object whose every own key's value is proven or walked.
   */
  #objects(
    schema: Record<string, unknown>,
    has: (k: string) => boolean,
    cover: number | undefined,
  ): Body {
    if (cover !== undefined && cover >= this.#max!) {
      const { out } = this.#objects(schema, has, undefined);
      return { out: ["return false;", ...out], covered: true };
    }
    const out: string[] = [];
    const required = has("required") ? [...new Set(stringList(schema.required, "required"))] : [];
    const properties: [string, unknown][] = [];
    if (has("properties")) {
      if (!isObject(schema.properties)) throw new Unsupported("properties that is not an object");
      properties.push(...Object.entries(schema.properties));
    }
    const patterns: [string, unknown][] = [];
    if (has("patternProperties")) {
      if (!isObject(schema.patternProperties)) {
        throw new Unsupported("patternProperties that is not an object");
      }
      for (const [source, sub] of Object.entries(schema.patternProperties)) {
        patterns.push([this.#pattern(source), sub]);
      }
    }
    const additional = has("additionalProperties") ? schema.additionalProperties : undefined;
    let covered = false;
    if (cover !== undefined && patterns.length === 0) {
      this.#coveredProperties(properties, required, additional, cover, out);
      covered = true;
    } else if (patterns.length === 0 && (additional === undefined || additional === true)) {
      // A JSON value is never undefined: an absent property is a cheap miss,
      // and only a value found is checked to be the object's own.
      const named = new Set(properties.map(([name]) => name));
      for (const name of required) {
        if (!named.has(name)) out.push(`if (!hasOwn(v, ${JSON.stringify(name)})) return false;`);
      }
      const needed = new Set(required);
      properties.forEach(([name, sub], i) => {
        const quoted = JSON.stringify(name);
        const check = this.require(sub, `p${i}`);
        if (needed.has(name)) {
          out.push(
            `{ const p${i} = v[${quoted}]; ` +
              `if (p${i} === undefined || !hasOwn(v, ${quoted})) return false; ${check} }`,
          );
        } else if (check !== "") {
          out.push(
            `{ const p${i} = v[${quoted}]; ` +
              `if (p${i} !== undefined && hasOwn(v, ${quoted})) { ${check} } }`,
          );
        }
      });
    } else {
      for (const name of required) {
        out.push(`if (!hasOwn(v, ${JSON.stringify(name)})) return false;`);
      }
      const cases = properties.map(([name, sub]) =>
        `case ${JSON.stringify(name)}: known = true; ${this.require(sub, "x")} break;`
      );
      const matches = patterns.map(([matcher, sub]) =>
        `if (tp(${matcher}, k)) { known = true; ${this.require(sub, "x")} }`
      );
      const rest = additional === undefined ? "" : this.require(additional, "x");
      out.push(
        "for (const k of Object.keys(v)) { const x = v[k]; let known = false;",
        cases.length > 0 ? `switch (k) { ${cases.join(" ")} }` : "",
        ...matches,
        rest === "" ? "" : `if (!known) { ${rest} }`,
        "}",
      );
    }
    if (has("propertyNames")) {
      const call = this.call(schema.propertyNames, "k");
      if (call !== "true") out.push(`for (const k of Object.keys(v)) if (!${call}) return false;`);
    }
    if (has("minProperties")) {
      out.push(
        `if (Object.keys(v).length < ${
          literal(number(schema.minProperties, "minProperties"))
        }) return false;`,
      );
    }
    if (has("maxProperties")) {
      out.push(
        `if (Object.keys(v).length > ${
          literal(number(schema.maxProperties, "maxProperties"))
        }) return false;`,
      );
    }
    if (has("dependentRequired")) this.#dependencies(schema.dependentRequired, false, out);
    if (has("dependentSchemas")) this.#dependencies(schema.dependentSchemas, true, out);
    if (has("dependencies")) this.#dependencies(schema.dependencies, undefined, out);
    return { out, covered };
  }

  /**
   * The proving code of `properties`, `required` and `additionalProperties`
   * (no `patternProperties`): each named value is read once and counted when
   * it is the object's own (a name `Object.prototype` does not hold, on a
   * plain object, needs no other test); when the object holds no other own
   * key, nothing else is read, else its other keys are checked and walked.
   */
  #coveredProperties(
    properties: [string, unknown][],
    required: string[],
    additional: unknown,
    cover: number,
    out: string[],
  ): void {
    const count = `n${this.#temps++}`;
    const named = new Set(properties.map(([name]) => name));
    const needed = new Set(required);
    if (properties.length > 0 || required.length > 0) out.push(`let ${count} = 0;`);
    const own = (quoted: string, value: string) =>
      `${value} !== undefined && (!(${quoted} in OP) || hasOwn(v, ${quoted}))`;
    properties.forEach(([name, sub]) => {
      const quoted = JSON.stringify(name);
      const value = `p${this.#temps++}`;
      const check = this.complete(sub, value, cover + 1);
      out.push(
        `{ const ${value} = v[${quoted}]; if (${own(quoted, value)}) { ${count}++; ${check} }${
          needed.has(name) ? " else return false;" : ""
        } }`,
      );
    });
    for (const name of required) {
      if (named.has(name)) continue;
      const quoted = JSON.stringify(name);
      const value = `p${this.#temps++}`;
      out.push(
        `{ const ${value} = v[${quoted}]; if (!(${
          own(quoted, value)
        })) return false; ${count}++; ` +
          `if (!w(${value}, ${cover + 1})) return false; }`,
      );
      named.add(name);
    }
    // After the reads (the engine then knows the object's shape): a plain object.
    out.push(
      `{ const o = Object.getPrototypeOf(v); if (o !== OP && o !== null) return false; }`,
    );
    const other = additional === false
      ? "return false;"
      : this.complete(additional ?? true, "x", cover + 1);
    const cases = [...named].map((name) => `case ${JSON.stringify(name)}:`).join(" ");
    // Named values were read above; one of them undefined is not JSON.
    const loop = `for (const k of Object.keys(v)) { const x = v[k]; ${
      named.size === 0
        ? `{ ${other} }`
        : `switch (k) { ${cases} if (x === undefined) return false; break; default: { ${other} } }`
    } }`;
    out.push(
      named.size === 0
        ? loop
        : `if (Object.getOwnPropertyNames(v).length !== ${count}) { ${loop} }`,
    );
  }

  /**
   * `dependentRequired` (`schemas` false), `dependentSchemas` (true) or draft-07
   * `dependencies` (undefined: each entry an array of names or a schema).
   */
  #dependencies(value: unknown, schemas: boolean | undefined, out: string[]): void {
    if (!isObject(value)) throw new Unsupported("a dependency keyword that is not an object");
    for (const [trigger, dependency] of Object.entries(value)) {
      const quoted = JSON.stringify(trigger);
      if (schemas === false || (schemas === undefined && Array.isArray(dependency))) {
        const names = stringList(dependency, "a dependency");
        if (names.length === 0) continue;
        const all = names.map((name) => `hasOwn(v, ${JSON.stringify(name)})`).join(" && ");
        out.push(`if (hasOwn(v, ${quoted}) && !(${all})) return false;`);
      } else {
        out.push(`if (hasOwn(v, ${quoted}) && !${this.call(dependency, "v")}) return false;`);
      }
    }
  }
}

function list(value: unknown, keyword: string): unknown[] {
  if (!Array.isArray(value)) throw new Unsupported(`${keyword} that is not an array`);
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function number(value: unknown, keyword: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new Unsupported(`${keyword} that is not a number`);
  }
  return value;
}

function stringList(value: unknown, keyword: string): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
    throw new Unsupported(`${keyword} that is not an array of strings`);
  }
  return value as string[];
}

function pattern(source: unknown): Matcher {
  if (typeof source !== "string") throw new Unsupported("a pattern that is not a string");
  // Same engine, same cached matcher as the Hyperjump keywords (compiled there first).
  return compilePattern(source);
}

/** Whether a JSON value contains an object with a `$ref` key (Hyperjump reads those as references). */
function holdsRef(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsRef);
  if (isObject(value)) return "$ref" in value || Object.values(value).some(holdsRef);
  return false;
}

// ---- References ----

function resolvePointer(ref: string, root: Schema): Schema {
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    throw new Unsupported(`a $ref that is not a valid URI fragment: ${ref}`);
  }
  if (fragment !== "" && !fragment.startsWith("/")) {
    throw new Unsupported(`a $ref to an anchor: ${ref}`);
  }
  let current: unknown = root;
  if (fragment !== "") {
    for (const raw of fragment.slice(1).split("/")) {
      const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
      if (Array.isArray(current)) {
        if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= current.length) {
          throw new Unsupported(`a $ref that does not resolve: ${ref}`);
        }
        current = current[Number(token)];
      } else if (isObject(current) && Object.hasOwn(current, token)) {
        current = current[token];
      } else {
        throw new Unsupported(`a $ref that does not resolve: ${ref}`);
      }
    }
  }
  if (typeof current !== "boolean" && !isObject(current)) {
    throw new Unsupported(`a $ref to something that is not a schema: ${ref}`);
  }
  return current;
}

/** Code points of `text`, as `[...text].length` counts them. */
export function codePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}
