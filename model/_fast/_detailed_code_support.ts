// Private: what the parts of the failures code generator (_detailed_code.ts)
// share: the fragments of code they write and the keyword writers' context.

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
