// Private: the code of one keyword of a schema object in the failures code
// (_detailed_code.ts): the leaves (keywords that test the value alone) here,
// the applicators in _detailed_code_applicators.ts and the array and object
// keywords in _detailed_code_collections.ts.

import { keywordEvaluation } from "./_detailed_keywords.ts";
import { num, strings } from "./_detailed_unit.ts";
import { primitiveTest } from "./_cover.ts";
import {
  FAILS,
  type FailureWriter,
  hasMember,
  type KeywordAt,
  type KeywordWriter,
  LEAVES,
  literal,
  OBJECT,
  TYPE_TESTS,
  type Use,
} from "./_detailed_code_support.ts";
import { applicatorCode } from "./_detailed_code_applicators.ts";
import { collectionCode } from "./_detailed_code_collections.ts";

/** The bound keywords' failing comparisons. */
const BOUNDS: Record<string, string> = {
  minimum: "<",
  maximum: ">",
  exclusiveMinimum: "<=",
  exclusiveMaximum: ">=",
};

/**
 * An expression true when `v` passes the leaf `keyword` (of value `value`),
 * written into the code where it is a plain comparison (what its
 * evaluation's closure tests, _detailed_keywords.ts); undefined for the others.
 */
function leafTest(keyword: string, value: unknown): string | undefined {
  switch (keyword) {
    case "enum":
      return Array.isArray(value) ? primitiveTest(value) : undefined;
    case "const":
      return primitiveTest([value]);
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return `typeof v !== "number" || !(v ${BOUNDS[keyword]} ${literal(num(value, keyword))})`;
    default:
      return undefined;
  }
}

/** Appends to `out` the code of `keyword` of `schema` (at `tokens`). */
export function keywordCode(
  gen: FailureWriter,
  schema: Record<string, unknown>,
  tokens: readonly string[],
  { keyword, url }: KeywordAt,
  out: string[],
): void {
  const value = schema[keyword];
  const at = [...tokens, keyword];
  const ev = (node: unknown, more: string[], v: string, p: string, use: Use) =>
    gen.evaluate(node, [...at, ...more], v, p, use);
  const fail = () => `ok = false; ${gen.emit(keyword, url)}`;
  if (LEAVES.has(keyword)) {
    const run = keywordEvaluation(keyword, schema, at, gen.compiler.context);
    if (run === undefined) return;
    let test: string;
    if (keyword === "type") {
      const types = typeof value === "string" ? [value] : value as string[];
      test = types.map((t) => TYPE_TESTS[t]).join(" || ");
    } else if (keyword === "required") {
      const names = strings(value, keyword);
      if (names.length === 0) return;
      test = `!${OBJECT} || (${names.map(hasMember).join(" && ")})`;
    } else {
      test = leafTest(keyword, value) ?? `${gen.constant(run)}(v, p, null)`;
    }
    out.push(`if (!(${test})) { ${fail()} }`);
    return;
  }
  const writer: KeywordWriter = {
    schema,
    keyword,
    value,
    at,
    url,
    draft07: gen.compiler.dialect === "draft-07",
    ev,
    emit: () => gen.emit(keyword, url),
    own: (code) =>
      out.push(
        `{ const m = o === null ? 0 : o.length; let w = true; ${code} ` +
          `if (o !== null && o.length > m) o.length = m; if (!w) { ${fail()} } }`,
      ),
    // When the subschema is false (or a draft-07 reference to false), its
    // units are false-schema units, whose failures name the member on the
    // object or array; else they are its keywords' (or its target's).
    // A false subschema itself is not called: its failure, dropped, would
    // only check its location well formed, which `extra` does.
    extra: (v, p, name) => {
      if (gen.final(value, at)[0] !== false) return ev(value, [], v, p, FAILS);
      const i = gen.template(keyword, url);
      const refuse = `(T[${i}] ?? t(${i})).extra(p, ${name}, o);`;
      if (value === false) return `${gen.counted(false)}ok = false; if (o !== null) ${refuse}`;
      return `{ const mk = o === null ? 0 : o.length; ${
        ev(value, [], v, p, (r) =>
          `if (!${r}) { ok = false; if (o !== null) { o.length = mk; ${refuse} } }`)
      } }`;
    },
    out,
  };
  if (!applicatorCode(gen, tokens, writer)) collectionCode(gen, writer);
}
