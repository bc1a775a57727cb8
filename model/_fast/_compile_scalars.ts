// Private: the fast check's code (see _compile.ts) of the string keywords
// (`minLength`, `maxLength`, `pattern`) and the number keywords (bounds and
// `multipleOf`), each section run on a value of that type.

import { type CodeWriter, type Has, literal, number } from "./_compile_values.ts";

/** A string's section. */
export function strings(g: CodeWriter, schema: Record<string, unknown>, has: Has): string[] {
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
  if (has("pattern")) out.push(`if (!tp(${g.pattern(schema.pattern)}, v)) return false;`);
  return out;
}

/** A number's section. */
export function numbers(schema: Record<string, unknown>, has: Has): string[] {
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
