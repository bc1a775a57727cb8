// Private: the core of the failures code generator (_detailed_code.ts): one
// function per schema location, subschemas written in place or called,
// references counted, and the tables the code reads (constants, failure
// templates, keywords whose failures come from their units). Each keyword's
// code is written by _detailed_code_keywords.ts.

import { BUDGET_START } from "../_dialect.ts";
import { MAX_REF_NESTING, Unsupported } from "./_compile.ts";
import { isObject } from "./_detailed_unit.ts";
import {
  FAILS,
  type FailureWriter,
  q,
  type UnitsCompiler,
  type Use,
} from "./_detailed_code_support.ts";
import { keywordCode } from "./_detailed_code_keywords.ts";
import { FailureTemplate, plainMessage } from "./_detailed_failures.ts";

/** Nesting of subschemas written in place, beyond which they are called. */
const INLINE_DEPTH = 8;

/**
 * Whether the pointer expression `pointer`, on a known `p` (see
 * FailureCode's `#known`), is known too: it adds only the schema's own
 * tokens (string literals, each well formed) or an index `i`, no member
 * name of the value (`esc(k)`) and no property name's `*`.
 */
function knownPointer(pointer: string): boolean {
  const parts = pointer.split(" + ");
  if (parts[0] !== "p" && parts[0] !== '""') return false;
  return parts.slice(1).every((part) => {
    if (part === "i") return true;
    if (!part.startsWith('"')) return false;
    try {
      const text = JSON.parse(part);
      return typeof text === "string" && text.startsWith("/") && text.isWellFormed();
    } catch {
      return false;
    }
  });
}

/** The generated code of a schema's failures, with the tables it reads. */
export class FailureCode implements FailureWriter {
  readonly code: string[] = [];
  readonly constants: unknown[] = [];
  /** Each failure template's keyword (`false` for a false schema) and location. */
  readonly templates: [string, string][] = [];
  /** The schema locations whose function is still to be generated (and whether marked). */
  readonly pending: [unknown, readonly string[], string, number, boolean][] = [];
  readonly compiler: UnitsCompiler;
  /** Whether evaluations are counted against Hyperjump's budget (references that fan out). */
  readonly budget: boolean;
  /** The variable of the current schema object's member names, once one is used. */
  keys: string | undefined;
  /** The variable counting the members `properties` names, once `properties` is written. */
  matched: string | undefined;
  readonly #ids = new Map<string, number>();
  readonly #refs = new Map<string, string>();
  readonly #markedIds = new Map<string, number>();
  #resolving = 0;
  #temps = 0;
  #depth = 0;
  /**
   * Whether the code being written runs with a `p` known well formed (its
   * tokens are the schema's, or indexes) and not a property name's
   * (`*`-prefixed): the root's code written in place, and what it writes in
   * place at such pointers. A function's `p` is its callers': not known.
   */
  #known = false;

  constructor(compiler: UnitsCompiler, budget: boolean) {
    this.compiler = compiler;
    this.budget = budget;
  }

  /** A number for a new variable name. */
  temp(): number {
    return this.#temps++;
  }

  /**
   * With a budget, the code counting one evaluation of `node` (when recording),
   * as the units evaluation counts each subschema it evaluates with units: a
   * draft-07 reference is its target's evaluation, counted there.
   */
  counted(node: unknown): string {
    if (!this.budget) return "";
    if (this.compiler.dialect === "draft-07" && isObject(node) && Object.hasOwn(node, "$ref")) {
      return "";
    }
    return `if (o !== null && ++st.evaluations > ${BUDGET_START}) throw new Bail(); `;
  }

  /** The function evaluating the schema at `tokens` (`yes` for `true`). */
  fn(node: unknown, tokens: readonly string[]): string {
    if (node === true) return "yes";
    if (this.compiler.dialect === "draft-07" && isObject(node) && Object.hasOwn(node, "$ref")) {
      return this.ref(node.$ref); // the object is a reference, its siblings invisible
    }
    return `f${this.#id(this.#ids, node, tokens, false)}`;
  }

  /**
   * The function `g<n>(v, p, o, b)` (or its reference's) of the draft-07
   * reference or schema object `node` at `tokens`, which is `f<n>` that
   * also appends to `b`, after each keyword of the (final target) object,
   * `o`'s length and the keyword's name (when recording).
   */
  marked(node: unknown, tokens: readonly string[]): string {
    if (this.compiler.dialect === "draft-07" && isObject(node) && Object.hasOwn(node, "$ref")) {
      return this.ref(node.$ref, true);
    }
    if (!isObject(node)) throw new Unsupported("a marked subschema that is not an object");
    return `g${this.#id(this.#markedIds, node, tokens, true)}`;
  }

  /** The number of the function for the schema at `tokens` in `ids`, queued when new. */
  #id(ids: Map<string, number>, node: unknown, tokens: readonly string[], marked: boolean): number {
    const url = this.compiler.url(tokens);
    let id = ids.get(url);
    if (id === undefined) {
      ids.set(url, id = ids.size);
      this.pending.push([node, tokens, url, id, marked]);
    }
    return id;
  }

  /**
   * Code that evaluates the schema at `tokens` on `value` at `pointer`
   * (appending its failures to `o`; with `record` "null", nothing), then
   * runs `use(result)`: written in place for a schema object within
   * INLINE_DEPTH levels (no call), else a call of its function.
   */
  evaluate(
    node: unknown,
    tokens: readonly string[],
    value: string,
    pointer: string,
    use: Use,
    record: "o" | "null" = "o",
  ): string {
    const count = record === "o" ? this.counted(node) : "";
    if (node === true) return count + use("true");
    const draft07 = this.compiler.dialect === "draft-07";
    if (
      !isObject(node) || (draft07 && Object.hasOwn(node, "$ref")) || this.#depth >= INLINE_DEPTH
    ) {
      const fn = this.fn(node, tokens);
      return count + use(fn === "yes" ? "true" : `${fn}(${value}, ${pointer}, ${record})`);
    }
    this.#depth++;
    const known = this.#known;
    this.#known = known && knownPointer(pointer);
    let body: string[];
    try {
      body = this.body(node, tokens, this.compiler.url(tokens));
    } finally {
      this.#depth--;
      this.#known = known;
    }
    if (body.length === 0) return count + use("true");
    const n = this.temp();
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

  /**
   * The function of a local `$ref`, counting nesting as the units evaluation
   * does (`marked`: of its target's `marked` function, with `b`).
   */
  ref(ref: unknown, marked = false): string {
    if (typeof ref !== "string" || !ref.startsWith("#")) {
      throw new Unsupported(`a $ref outside the document: ${String(ref)}`);
    }
    if (++this.#resolving > MAX_REF_NESTING) throw new Unsupported("a chain of references");
    const [target, tokens] = this.compiler.resolve(ref);
    const inner = marked ? this.marked(target, tokens) : this.fn(target, tokens);
    this.#resolving--;
    let name = this.#refs.get(inner);
    if (name === undefined) {
      this.#refs.set(inner, name = `r${this.#refs.size}`);
      const b = marked ? ", b" : "";
      this.code.push(
        `function ${name}(v, p, o${b}) { if (++st.n > ${MAX_REF_NESTING}) throw new Bail(); ` +
          `${this.counted(target)}const t = ${inner}(v, p, o${b}); st.n--; return t; }`,
      );
    }
    return name;
  }

  /**
   * The final target of a draft-07 subschema (the subschema itself when not
   * a reference) and its tokens: a reference's units are its target's.
   */
  final(node: unknown, tokens: readonly string[]): [unknown, readonly string[]] {
    let hops = 0;
    while (this.compiler.dialect === "draft-07" && isObject(node) && Object.hasOwn(node, "$ref")) {
      const ref = node.$ref;
      if (typeof ref !== "string" || !ref.startsWith("#") || ++hops > MAX_REF_NESTING) {
        throw new Unsupported("a chain of references");
      }
      [node, tokens] = this.compiler.resolve(ref);
    }
    return [node, tokens];
  }

  /** The expression of a value the code reads from its constants. */
  constant(value: unknown): string {
    this.constants.push(value);
    return `c[${this.constants.length - 1}]`;
  }

  /** The index of a new failure template of `keyword` at `url`. */
  template(keyword: string, url: string): number {
    this.templates.push([keyword, url]);
    return this.templates.length - 1;
  }

  /**
   * Code that appends the failures of `keyword` at `url` (when recording);
   * at a known pointer, by the template's method for its kind of message.
   */
  emit(keyword: string, url: string): string {
    if (this.#known && (keyword === "type" || plainMessage(keyword))) {
      const literal = this.#literal(keyword, url);
      // An indexed store rather than `push`: V8's optimizing compiler calls
      // the push builtin here (about a fifth of the code's own time), where
      // it writes the store in place.
      if (literal !== undefined) return `if (o !== null) o[o.length] = ${literal};`;
    }
    const i = this.template(keyword, url);
    const method = !this.#known
      ? "emit"
      : keyword === "type"
      ? "typed"
      : plainMessage(keyword)
      ? "plain"
      : "emit";
    return `if (o !== null) (T[${i}] ?? t(${i})).${method}(v, p, o);`;
  }

  /**
   * The failure of `keyword` at `url` on `v` at `p` (known well formed, not
   * a property name's) as an object literal whose strings are written into
   * the code (what the template's `typed` or `plain` pushes, with no call
   * and nothing read but `v`), when its message is the same for every value
   * or, for `type`, depends only on the value's type name; else undefined.
   */
  #literal(keyword: string, url: string): string | undefined {
    let template: FailureTemplate;
    try {
      template = new FailureTemplate(keyword, this.compiler.site(url));
    } catch {
      return undefined; // the template, made when the failure happens, says what is wrong
    }
    let message: string;
    if (keyword === "type") {
      const text = (value: unknown) => q(template.text(value));
      message = `(typeof v === "string" ? ${text("")} : typeof v === "number" ? ` +
        `(Number.isInteger(v) ? ${text(1)} : ${text(0.5)}) : typeof v === "boolean" ? ` +
        `${text(true)} : v === null ? ${text(null)} : Array.isArray(v) ? ${text([])} : ` +
        `typeof v === "object" ? ${text({})} : ${text(undefined)})`;
    } else {
      const plain = template.plainText;
      if (plain === undefined) return undefined;
      message = q(plain);
    }
    return `{ instanceLocation: p, keywordLocation: ${q(template.keywordLocation)}, ` +
      `absoluteKeywordLocation: ${q(template.absoluteKeywordLocation)}, ` +
      `keyword: ${q(keyword)}, message: ${message} }`;
  }

  /**
   * The root's code, written in place at the pointer `""` (known: see
   * `#known`), appending its failures to `o` and setting `ok`.
   */
  entry(root: unknown): string {
    this.#known = true;
    try {
      return this.evaluate(root, [], "v", '""', FAILS);
    } finally {
      this.#known = false;
    }
  }

  /** Generates the function `f<id>` (`marked`: `g<id>`) of the schema `node` at `tokens`. */
  generate(
    node: unknown,
    tokens: readonly string[],
    url: string,
    id: number,
    marked = false,
  ): void {
    if (node === false) {
      this.code.push(`function f${id}(v, p, o) { ${this.emit("false", url)} return false; }`);
      return;
    }
    if (!isObject(node)) throw new Unsupported("a subschema that is not an object or a boolean");
    const body = this.body(node, tokens, url, marked);
    const head = marked ? `g${id}(v, p, o, b)` : `f${id}(v, p, o)`;
    this.code.push(`function ${head} {\nlet ok = true;\n${body.join("\n")}\nreturn ok;\n}`);
  }

  /**
   * The code of a schema object's keywords (its member names listed once,
   * when read); `marked`: each followed by its mark in `b` (see `marked`).
   */
  body(
    node: Record<string, unknown>,
    tokens: readonly string[],
    url: string,
    marked = false,
  ): string[] {
    const [keys, matched] = [this.keys, this.matched];
    this.keys = this.matched = undefined;
    const body: string[] = [];
    try {
      for (const at of this.compiler.keywords(node, url)) {
        keywordCode(this, node, tokens, at, body);
        if (marked) body.push(`if (o !== null) b.push(o.length, ${JSON.stringify(at.keyword)});`);
      }
      if (this.matched !== undefined) body.unshift(`let ${this.matched} = 0;`);
      if (this.keys !== undefined) body.unshift(`let ${this.keys};`);
    } finally {
      [this.keys, this.matched] = [keys, matched];
    }
    return body;
  }

  /** A loop over the member names of `v` (an object), with `code` for each `k`. */
  members(code: string): string {
    const keys = this.keys ??= `ks${this.temp()}`;
    return `{ const kk = ${keys} ??= Object.getOwnPropertyNames(v); ` +
      `for (let j = 0; j < kk.length; j++) { const k = kk[j]; ${code} } }`;
  }
}
