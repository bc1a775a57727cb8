// Private: the code of the applicators that apply subschemas to the value
// itself in the failures code (_detailed_code.ts): `$ref`, `allOf`, `anyOf`,
// `oneOf`, `not`, `if`, `then` and `else`.

import { isObject, list } from "./_detailed_unit.ts";
import { FAILS, type FailureWriter, type KeywordWriter } from "./_detailed_code_support.ts";

/** Writes the code of an applicator keyword; false when `w.keyword` is none. */
export function applicatorCode(
  gen: FailureWriter,
  tokens: readonly string[],
  w: KeywordWriter,
): boolean {
  const { keyword, value, ev, out } = w;
  switch (keyword) {
    case "$ref":
      out.push(`if (!${gen.ref(value)}(v, p, o)) ok = false;`);
      return true;
    case "allOf":
      list(value, keyword).forEach((node, i) => out.push(ev(node, [String(i)], "v", "p", FAILS)));
      return true;
    case "anyOf":
    case "oneOf":
      branchesCode(gen, w);
      return true;
    case "not":
      w.own(ev(value, [], "v", "p", (r) => `w = !${r};`));
      return true;
    case "if":
      out.push(
        `{ const m = o === null ? 0 : o.length; ${ev(value, [], "v", "p", () => "")} ` +
          `if (o !== null && o.length > m) o.length = m; }`,
      );
      return true;
    case "then":
    case "else": {
      if (!Object.hasOwn(w.schema, "if")) return true;
      const body = (r: string) =>
        `if (${r} === ${keyword === "then"}) { ${ev(value, [], "v", "p", FAILS)} }`;
      out.push(gen.evaluate(w.schema.if, [...tokens, "if"], "v", "p", body, "null"));
      return true;
    }
    default:
      return false;
  }
}

/** `anyOf` or `oneOf`: a failure whose message quotes the failing branches' failures. */
function branchesCode(
  gen: FailureWriter,
  { keyword, value, at, url, draft07, ev, out }: KeywordWriter,
): void {
  const branches = list(value, keyword);
  const passes = keyword === "anyOf" ? "n > 0" : "n === 1";
  // A draft-07 reference's units are its target's: the index `toFailures`
  // reads in their location is not the branch's, and is each keyword's name
  // when the target's location is as deep as the keyword's (undefined key):
  // such a branch is evaluated by its target's marked function, which marks
  // where each keyword's failures end in `b<i>`.
  const keys = draft07 ? branches.map((node, i) => branchKey(gen, node, i, at.length)) : undefined;
  const keyed = keys !== undefined && keys.some((key, i) => key !== String(i));
  const marked = keys !== undefined && keys.includes(undefined);
  // Each branch's failures end at e<i>: the message quotes them by branch.
  const tests = branches.map((node, i) =>
    (keys?.[i] === undefined && marked
      ? `const b${i} = []; if (${gen.marked(node, [...at, String(i)])}(v, p, o, b${i})) n++;`
      : ev(node, [String(i)], "v", "p", (r) => `if (${r}) n++;`)) +
    ` const e${i} = o === null ? 0 : o.length;`
  );
  const t = gen.template(keyword, url);
  const ends = branches.map((_, i) => `e${i}`).join(", ");
  const marks = marked
    ? `, [${branches.map((_, i) => keys[i] === undefined ? `b${i}` : "null")}]`
    : "";
  out.push(
    `{ const m = o === null ? 0 : o.length; let n = 0; ${tests.join(" ")} ` +
      `if (${passes}) { if (o !== null && o.length > m) o.length = m; } else { ok = false; ` +
      `if (o !== null) (T[${t}] ?? t(${t})).branches(p, o, m, [${ends}]${
        keyed ? `, ${gen.constant(keys)}${marks}` : ""
      }); } }`,
  );
}

/**
 * The index `toFailures` gives the failures of draft-07 branch `i` of an
 * `anyOf` or `oneOf` whose location has `depth` tokens: the token at that
 * depth in the location of each unit the branch makes (its own, its
 * keywords' or, for a reference, its target's). Undefined when it names
 * each keyword of the target (the target's location is `depth` long).
 */
function branchKey(
  gen: FailureWriter,
  node: unknown,
  i: number,
  depth: number,
): string | undefined {
  if (!isObject(node) || !Object.hasOwn(node, "$ref")) return String(i);
  const [target, tokens] = gen.final(node, []);
  if (target === true) return String(i); // it never fails
  if (target === false || tokens.length !== depth) return tokens[depth] ?? "?";
  return undefined;
}
