// Private: the fast check's code (see _compile.ts) of the keywords that apply
// subschemas to the value itself: `$ref`, `allOf`, `anyOf`, `oneOf`, `not`
// and `if`/`then`/`else`.

import { type CodeWriter, type Has, list } from "./_compile_values.ts";

/**
 * Writes the applicators' code into `out`; with `cover` (the value's
 * nesting), whether an `allOf` branch proves the value JSON.
 */
export function applicators(
  g: CodeWriter,
  schema: Record<string, unknown>,
  has: Has,
  cover: number | undefined,
  out: string[],
): boolean {
  const fail = (condition: string) => out.push(`if (${condition}) return false;`);
  let covered = false;
  if (has("$ref")) fail(`!${g.ref(schema.$ref, "v")}`);
  if (has("allOf")) {
    for (const sub of list(schema.allOf, "allOf")) {
      const branch = g.emit(sub, "v", cover);
      out.push(branch.code);
      if (branch.covered) covered = true;
    }
  }
  if (has("anyOf")) {
    const branches = list(schema.anyOf, "anyOf").map((sub) => g.call(sub, "v"));
    fail(`!(${branches.length > 0 ? branches.join(" || ") : "false"})`);
  }
  if (has("oneOf")) {
    const branches = list(schema.oneOf, "oneOf").map((sub) => g.call(sub, "v"));
    out.push(
      `{ let n = 0; ${
        branches.map((b) => `if (${b} && ++n > 1) return false;`).join(" ")
      } if (n !== 1) return false; }`,
    );
  }
  if (has("not")) fail(g.call(schema.not, "v"));
  if (has("if") && (has("then") || has("else"))) {
    const condition = g.call(schema.if, "v");
    const then = has("then") ? g.call(schema.then, "v") : "true";
    const otherwise = has("else") ? g.call(schema.else, "v") : "true";
    fail(`(${condition} ? !${then} : !${otherwise})`);
  }
  return covered;
}
