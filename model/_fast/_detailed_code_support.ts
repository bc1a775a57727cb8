// Private: what the parts of the failures code generator (_detailed_code.ts)
// share: the fragments of code they write and the keyword writers' context.

import type { Dialect, KeywordContext, Site } from "./_detailed_unit.ts";

export { OBJECT, TYPE_TESTS } from "./_keywords.ts";

/** The keywords that test the value alone (their evaluation never nests units). */
export const LEAVES: ReadonlySet<string> = new Set([
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

/** Code that uses an evaluation's result (an expression). */
export type Use = (result: string) => string;

/** The use of a subschema whose failure is its keyword's: the caller's `ok` becomes false. */
export const FAILS: Use = (r: string): string => `if (!${r}) ok = false;`;

/** Numbers written into the code: finite (checked), printed exactly. */
export function literal(value: number): string {
  return Object.is(value, -0) ? "0" : String(value);
}

/** A string written into the code. */
export const q = (text: string): string => JSON.stringify(text);

/**
 * Code testing that `v`, an object of a JSON value (none of its members is
 * undefined, its prototype Object.prototype or null), has the own member
 * `name`: a miss costs one read, and a name found is looked up as own only
 * when Object.prototype has it too (a call of `hasOwn` costs several reads).
 */
export const hasMember = (name: string): string =>
  `(v[${q(name)}] !== undefined && (!(${q(name)} in OP) || hasOwn(v, ${q(name)})))`;

/** One keyword of a schema object, as the units compiler lists them. */
export interface KeywordAt {
  keyword: string;
  id: string;
  url: string;
}

/** What the writer of one keyword's code uses (made per keyword, _detailed_code_keywords.ts). */
export interface KeywordWriter {
  /** The schema object holding the keyword. */
  schema: Record<string, unknown>;
  /** The keyword's name. */
  keyword: string;
  /** The keyword's value. */
  value: unknown;
  /** The keyword's location tokens. */
  at: string[];
  /** The keyword's absolute location. */
  url: string;
  /** Whether the dialect is draft-07. */
  draft07: boolean;
  /** Code evaluating the subschema at the keyword's tokens and `more` on `v` at `p`. */
  ev: (node: unknown, more: string[], v: string, p: string, use: Use) => string;
  /** Code that appends the keyword's failures (when recording). */
  emit: () => string;
  /** Writes a keyword whose failures are its own whatever it nests (`w = false`: it fails). */
  own: (code: string) => void;
  /** Code evaluating `additional*`'s subschema on the extra member `name` (`v` at `p`). */
  extra: (v: string, p: string, name: string) => string;
  /** The keyword's code, in order. */
  out: string[];
}

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

/**
 * What the keyword writers (_detailed_code_*.ts) call of the generator
 * (FailureCode); declared here so that they need not import the generator
 * that imports them.
 */
export interface FailureWriter {
  /** The units compiler of the same schema. */
  readonly compiler: UnitsCompiler;
  /** The variable of the current schema object's member names, once one is used. */
  keys: string | undefined;
  /** The variable counting the members `properties` names, once `properties` is written. */
  matched: string | undefined;
  /** A number for a new variable name. */
  temp(): number;
  /** With a budget, the code counting one evaluation of `node`. */
  counted(node: unknown): string;
  /** The function of a subschema that marks what it evaluates. */
  marked(node: unknown, tokens: readonly string[]): string;
  /** Code evaluating `node` on `value`, its result used by `use`. */
  evaluate(
    node: unknown,
    tokens: readonly string[],
    value: string,
    pointer: string,
    use: Use,
    record?: "o" | "null",
  ): string;
  /** The function of a local `$ref`. */
  ref(ref: unknown, marked?: boolean): string;
  /** The final target of a draft-07 subschema and its tokens. */
  final(node: unknown, tokens: readonly string[]): [unknown, readonly string[]];
  /** The expression of a value the code reads from its constants. */
  constant(value: unknown): string;
  /** The index of a new failure template of `keyword` at `url`. */
  template(keyword: string, url: string): number;
  /** Code that appends the failures of `keyword` at `url` (when recording). */
  emit(keyword: string, url: string): string;
  /** A loop over the member names of `v` (an object), with `code` for each `k`. */
  members(code: string): string;
}
