// Private: the evaluations of the keywords that apply to the value itself
// (type, enum, const, $ref, the combinators, if/then/else, numbers and
// strings), each mirroring the Hyperjump 1.18.0 keyword of the same name: which
// subschemas it evaluates, in which order, and when it fails.

import { testPattern } from "../_pattern_record.ts";
import { jsonMembership } from "./_json_equal.ts";
import { codePoints, Unsupported } from "./_compile.ts";
import { collectionEvaluation } from "./_detailed_collections.ts";
import {
  type Evaluate,
  isObject,
  type KeywordContext,
  list,
  matcher,
  num,
} from "./_detailed_unit.ts";

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

/**
 * The evaluation of one keyword of `schema` (at `at`), or undefined for a
 * keyword that never fails.
 */
export function keywordEvaluation(
  keyword: string,
  schema: Record<string, unknown>,
  at: string[],
  ctx: KeywordContext,
): Evaluate | undefined {
  const value = schema[keyword];
  const sub = (node: unknown, ...more: string[]) => ctx.schema(node, [...at, ...more]);
  // A test of the value alone is its own evaluation (extra arguments ignored).
  const leaf = (test: (v: unknown) => boolean): Evaluate => test;
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
      return ctx.ref(value);
    case "allOf":
    case "anyOf":
    case "oneOf": {
      const runs = list(value, keyword).map((node, i) => sub(node, String(i)));
      return (v, p, u) => {
        let passed = 0;
        for (const run of runs) if (run(v, p, u)) passed++;
        return keyword === "allOf"
          ? passed === runs.length
          : keyword === "anyOf"
          ? passed > 0
          : passed === 1;
      };
    }
    case "not": {
      const run = sub(value);
      return (v, p, u) => !run(v, p, u);
    }
    case "if": {
      const run = sub(value);
      return (v, p, u) => (run(v, p, u), true);
    }
    case "then":
    case "else": {
      if (!Object.hasOwn(schema, "if")) return undefined;
      const condition = ctx.schema(schema.if, [...at.slice(0, -1), "if"]);
      const run = sub(value);
      const then = keyword === "then";
      return (v, p, u) => condition(v, p, null) !== then || run(v, p, u);
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
      return collectionEvaluation(keyword, schema, at, value, ctx);
  }
}

/** Whether a JSON value contains an object with a `$ref` key (Hyperjump reads those as references). */
function holdsRef(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsRef);
  if (isObject(value)) return "$ref" in value || Object.values(value).some(holdsRef);
  return false;
}
