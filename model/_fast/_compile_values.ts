// Private: what the fast check's code generator (_compile.ts and its
// _compile_*.ts parts) shares: the errors it throws and raises in the code it
// writes, the readers of keyword values and of local `$ref`s (each throws
// Unsupported on a value the generator does not expect), and the helper the
// generated code calls to count code points.

import { compilePattern, type Matcher } from "../_regex.ts";
import { pointerTokens } from "../json_pointer.ts";

/** A compiled check: whether the value is valid. May throw {@linkcode FastPathBail}. */
export type Check = (value: unknown) => boolean;

/** The schema uses something the fast path cannot do exactly; the reason says what. */
export class Unsupported extends Error {}

/** Thrown while checking when this one value must be answered by Hyperjump instead. */
export class FastPathBail extends Error {}

/** Nested `$ref` evaluations beyond which a value is handed to Hyperjump (its own limits apply). */
export const MAX_REF_NESTING = 128;

/** A schema: an object or a boolean. */
export type Schema = Record<string, unknown> | boolean;

/** The dialects the fast path compiles. */
export type Dialect = "2020-12" | "draft-07";

/** Numbers written into the code: finite (checked), printed exactly. */
export function literal(value: number): string {
  return Object.is(value, -0) ? "0" : String(value);
}

/** A keyword value that must be an array. */
export function list(value: unknown, keyword: string): unknown[] {
  if (!Array.isArray(value)) throw new Unsupported(`${keyword} that is not an array`);
  return value;
}

/** Whether a value is a non-array object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A keyword value that must be a finite number. */
export function number(value: unknown, keyword: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new Unsupported(`${keyword} that is not a number`);
  }
  return value;
}

/** A keyword value that must be an array of strings. */
export function stringList(value: unknown, keyword: string): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
    throw new Unsupported(`${keyword} that is not an array of strings`);
  }
  return value as string[];
}

/** A pattern on the validator's bounded engine (the matcher Hyperjump's keywords use). */
export function pattern(source: unknown): Matcher {
  if (typeof source !== "string") throw new Unsupported("a pattern that is not a string");
  // Same engine, same cached matcher as the Hyperjump keywords (compiled there first).
  return compilePattern(source);
}

/** Whether a JSON value contains an object with a `$ref` key (Hyperjump reads those as references). */
export function holdsRef(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsRef);
  if (isObject(value)) return "$ref" in value || Object.values(value).some(holdsRef);
  return false;
}

/**
 * The pointer tokens of a local `$ref` (`#` and a JSON Pointer, URI-encoded),
 * or Unsupported.
 */
export function refTokens(ref: string): string[] {
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    throw new Unsupported(`a $ref that is not a valid URI fragment: ${ref}`);
  }
  if (fragment !== "" && !fragment.startsWith("/")) {
    throw new Unsupported(`a $ref to an anchor: ${ref}`);
  }
  return fragment === "" ? [] : pointerTokens(fragment);
}

/** The schema the local `$ref` `ref` names in `root` (Unsupported when it does not resolve). */
export function resolvePointer(ref: string, root: Schema): Schema {
  return resolveTokens(ref, refTokens(ref), root, false);
}

/**
 * The schema at `tokens` (those of the local `$ref` `ref`) in `root`, or
 * Unsupported; with `opaqueRefs` (draft-07, where `$ref` hides its
 * siblings), also when the path goes through an object holding `$ref`.
 */
export function resolveTokens(
  ref: string,
  tokens: readonly string[],
  root: Schema,
  opaqueRefs: boolean,
): Schema {
  let current: unknown = root;
  for (const token of tokens) {
    if (opaqueRefs && isObject(current) && Object.hasOwn(current, "$ref")) {
      throw new Unsupported(`a $ref through a reference: ${ref}`);
    }
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

/** Generated statements, and whether they prove the value JSON (see `emit`). */
export interface Emitted {
  code: string;
  covered: boolean;
}

/** A schema object's generated lines, and whether they prove the value JSON. */
export interface Body {
  out: string[];
  covered: boolean;
}

/** Whether the schema object holds a keyword the dialect evaluates. */
export type Has = (keyword: string) => boolean;

/**
 * What the keyword parts (_compile_*.ts) call of the generator; declared here
 * so that they need not import the generator that imports them.
 */
export interface CodeWriter {
  /** The dialect of the schema being compiled. */
  readonly dialect: Dialect;
  /** The depth limit the root's code proves a value JSON within, if it does. */
  readonly max: number | undefined;
  /** A fresh number for a temporary's name. */
  temp(): number;
  /** An expression: whether `arg` is valid against `schema`. */
  call(schema: unknown, arg: string): string;
  /** A statement: `return false` when `arg` is invalid against `schema`. */
  require(schema: unknown, arg: string): string;
  /** As `require`, and `arg` (nested `depth` containers deep) must be JSON within the limit. */
  complete(schema: unknown, arg: string, depth: number): string;
  /** The code of `require`; with `cover`, whether that code proves the value JSON. */
  emit(schema: unknown, arg: string, cover: number | undefined): Emitted;
  /** An expression naming a constant of the generated code. */
  constant(value: unknown): string;
  /** An expression naming a compiled pattern. */
  pattern(source: unknown): string;
  /** An expression: whether `arg` is valid against the schema a `$ref` names. */
  ref(ref: unknown, arg: string): string;
}
