// Private: the core of the fast check's code generator (see _compile.ts):
// one function per schema object, subschemas written inline the first time
// they are met, `$ref` calls counting their nesting, the table of constants,
// and the code of a schema object's `type`, `enum` and `const`; the other
// keywords are written by _compile_applicators.ts, _compile_scalars.ts,
// _compile_arrays.ts and _compile_objects.ts.

import { jsonMembership } from "./_json_equal.ts";
import { EVALUATED, IGNORED, TYPE_TESTS } from "./_keywords.ts";
import { isJsonPrimitive, primitiveTest } from "./_cover.ts";
import {
  type Body,
  type CodeWriter,
  type Dialect,
  type Emitted,
  holdsRef,
  isObject,
  MAX_REF_NESTING,
  pattern,
  resolvePointer,
  type Schema,
  Unsupported,
} from "./_compile_values.ts";
import { applicators } from "./_compile_applicators.ts";
import { numbers, strings } from "./_compile_scalars.ts";
import { arrays } from "./_compile_arrays.ts";
import { objects } from "./_compile_objects.ts";

/** Nesting of subschemas written inline, beyond which they are called. */
const INLINE_DEPTH = 24;

const TYPES = new Set(["null", "boolean", "object", "array", "number", "string", "integer"]);
/**
 * The type tests of code that proves its values JSON: on a JSON value they
 * answer as TYPE_TESTS do (an object's prototype is tested by its section).
 */
const STRICT_TYPE_TESTS: Record<string, string> = { ...TYPE_TESTS, number: "Number.isFinite(v)" };

export class Generator implements CodeWriter {
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
  readonly dialect: Dialect;
  /** The depth limit the root's code proves a value JSON within, if it does. */
  readonly max: number | undefined;

  constructor(root: Schema, dialect: Dialect, max: number | undefined) {
    this.#root = root;
    this.dialect = dialect;
    this.max = max;
  }

  /** Whether the code counts `$ref` nesting (then each check resets the count). */
  get counts(): boolean {
    return this.#refs.size > 0;
  }

  /** A fresh number for a temporary's name. */
  temp(): number {
    return this.#temps++;
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
    return this.emit(schema, arg, undefined).code;
  }

  /**
   * A statement: `return false` when `arg` (a value nested `depth` containers
   * deep) is invalid against `schema` or not JSON within the depth limit;
   * what the schema's code does not prove JSON by itself is walked.
   */
  complete(schema: unknown, arg: string, depth: number): string {
    const { code, covered } = this.emit(schema, arg, depth);
    return covered ? code : `${code}\nif (!w(${arg}, ${depth})) return false;`;
  }

  /**
   * The code of `require`; with `cover` (the value's nesting), whether that
   * code, when it does not return false, also proves the value JSON within
   * the depth limit (else nothing is proven).
   */
  emit(schema: unknown, arg: string, cover: number | undefined): Emitted {
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

  /** An expression: the value, put in the table of constants. */
  constant(value: unknown): string {
    this.constants.push(value);
    return `c[${this.constants.length - 1}]`;
  }

  /** An expression: the matcher of a pattern, put in the table of constants. */
  pattern(source: unknown): string {
    this.patterns = true;
    return this.constant(pattern(source));
  }

  /** An expression: `arg` against the schema a local `$ref` names, counting nesting. */
  ref(ref: unknown, arg: string): string {
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

  /** The code of a schema object (see `emit` for `cover`). */
  #body(schema: Record<string, unknown>, cover: number | undefined): Body {
    const dialect = this.dialect;
    if (dialect === "draft-07" && "$ref" in schema) {
      // Draft-07: `$ref` hides its siblings.
      return { out: [`if (!${this.ref(schema.$ref, "v")}) return false;`], covered: false };
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
      fail(chain === undefined ? `!${this.constant(jsonMembership(values))}(v)` : `!${chain}`);
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
    if (applicators(this, schema, has, cover, out)) covered = true;
    const section = (type: string, guard: string, code: string[]) => {
      if (code.length === 0) return;
      if (only === type) out.push("{", ...code, "}");
      else out.push(`if (${guard}) {`, ...code, "}");
    };
    section("string", 'typeof v === "string"', strings(this, schema, has));
    section("number", 'typeof v === "number"', numbers(schema, has));
    // With `cover`, a type's section proves its values JSON.
    const within = (type: string) => typed?.has(type) ? cover : undefined;
    section("array", "Array.isArray(v)", arrays(this, schema, has, within("array")));
    const object = objects(this, schema, has, within("object"));
    section("object", TYPE_TESTS.object, object.out);
    if (typed !== undefined && (!typed.has("object") || object.covered)) covered = true;
    return { out, covered };
  }
}
