// Private: the fast check's code (see _compile.ts) of the array keywords:
// `prefixItems`/`items`/`additionalItems` (by dialect), `minItems`,
// `maxItems`, `uniqueItems` and `contains` with its bounds; with a depth
// limit, the section also proves the array JSON.

import { allDistinct } from "./_json_equal.ts";
import {
  type CodeWriter,
  type Has,
  list,
  literal,
  number,
  Unsupported,
} from "./_compile_values.ts";

/** An array's section; with `cover` (its nesting), it proves the array JSON. */
export function arrays(
  g: CodeWriter,
  schema: Record<string, unknown>,
  has: Has,
  cover: number | undefined,
): string[] {
  // Too deep (the JSON check then says so): no code proves it.
  if (cover !== undefined && cover >= g.max!) {
    return ["return false;", ...arrays(g, schema, has, undefined)];
  }
  const out: string[] = [];
  let prefix: unknown[] = [];
  let rest: unknown = undefined;
  if (g.dialect === "2020-12") {
    if (has("prefixItems")) prefix = list(schema.prefixItems, "prefixItems");
    if (has("items")) {
      if (Array.isArray(schema.items)) throw new Unsupported("an items array in 2020-12");
      rest = schema.items;
    }
  } else if (has("items")) {
    if (Array.isArray(schema.items)) {
      prefix = schema.items;
      if (has("additionalItems")) rest = schema.additionalItems;
    } else {
      rest = schema.items;
    }
  }
  const item = (sub: unknown, arg: string) =>
    cover === undefined ? g.require(sub, arg) : g.complete(sub, arg, cover + 1);
  prefix.forEach((sub, i) => {
    const check = item(sub, `v[${i}]`);
    if (check !== "") out.push(`if (v.length > ${i}) { ${check} }`);
  });
  if (rest !== undefined || cover !== undefined) {
    // With `cover`, items no keyword checks are walked.
    const check = item(rest ?? true, "v[i]");
    if (check === "return false;") out.push(`if (v.length > ${prefix.length}) return false;`);
    else if (check !== "") {
      out.push(`for (let i = ${prefix.length}; i < v.length; i++) { ${check} }`);
    }
  }
  if (has("minItems")) {
    out.push(`if (v.length < ${literal(number(schema.minItems, "minItems"))}) return false;`);
  }
  if (has("maxItems")) {
    out.push(`if (v.length > ${literal(number(schema.maxItems, "maxItems"))}) return false;`);
  }
  if (has("uniqueItems")) {
    if (typeof schema.uniqueItems !== "boolean") {
      throw new Unsupported("uniqueItems that is not a boolean");
    }
    if (schema.uniqueItems) out.push(`if (!${g.constant(allDistinct)}(v)) return false;`);
  }
  if (has("contains")) {
    let min = 1;
    let max = Number.MAX_SAFE_INTEGER;
    if (g.dialect === "2020-12") {
      if (has("minContains") && typeof schema.minContains === "number") {
        min = number(schema.minContains, "minContains");
      }
      if (has("maxContains") && typeof schema.maxContains === "number") {
        max = number(schema.maxContains, "maxContains");
      }
    }
    out.push(
      `{ let m = 0; for (let j = 0; j < v.length; j++) if (${
        g.call(schema.contains, "v[j]")
      }) m++; if (m < ${literal(min)} || m > ${literal(max)}) return false; }`,
    );
  }
  return out;
}
