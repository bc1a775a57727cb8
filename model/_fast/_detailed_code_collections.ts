// Private: the code of the array and object keywords that apply subschemas
// in the failures code (_detailed_code.ts): `prefixItems`, `items`,
// `additionalItems`, `contains`, `properties`, `patternProperties`,
// `additionalProperties`, `propertyNames`, `dependentSchemas` and
// `dependencies`.

import { escapePointerToken } from "../json_pointer.ts";
import { Unsupported } from "./_compile.ts";
import { isObject, list, matcher, num, strings } from "./_detailed_unit.ts";
import {
  FAILS,
  type FailureWriter,
  hasMember,
  type KeywordWriter,
  literal,
  OBJECT,
  q,
  type Use,
} from "./_detailed_code_support.ts";

/** Writes the code of an array or object keyword (Unsupported for any other). */
export function collectionCode(
  gen: FailureWriter,
  { schema, keyword, value, ev, own, extra, draft07, emit, out }: KeywordWriter,
): void {
  const map = (what: unknown): [string, unknown][] => {
    if (!isObject(what)) throw new Unsupported(`${keyword} that is not an object`);
    if (draft07 && typeof what.$ref === "string") {
      throw new Unsupported(`${keyword} that reads as a reference`);
    }
    return Object.entries(what);
  };
  const each = 'p + "/" + esc(k)';
  switch (keyword) {
    case "prefixItems":
    case "items":
    case "additionalItems": {
      if (keyword === "prefixItems" || (draft07 && keyword === "items" && Array.isArray(value))) {
        const lines = list(value, keyword).map((node, i) =>
          `if (v.length > ${i}) { ${ev(node, [String(i)], `v[${i}]`, `p + "/${i}"`, FAILS)} }`
        );
        if (lines.length > 0) out.push(`if (Array.isArray(v)) { ${lines.join(" ")} }`);
        return;
      }
      let from = 0;
      if (keyword === "items" && !draft07) {
        if (Array.isArray(value)) throw new Unsupported("an items array in 2020-12");
        from = Array.isArray(schema.prefixItems) ? schema.prefixItems.length : 0;
      }
      if (keyword === "additionalItems") {
        if (!Array.isArray(schema.items)) return;
        from = schema.items.length;
      }
      const test = keyword === "items"
        ? ev(value, [], "v[i]", 'p + "/" + i', FAILS)
        : extra("v[i]", 'p + "/" + i', "i");
      out.push(`if (Array.isArray(v)) { for (let i = ${from}; i < v.length; i++) { ${test} } }`);
      return;
    }
    case "contains": {
      const test = (use: Use) => ev(value, [], "v[i]", 'p + "/" + i', use);
      if (draft07) {
        own(
          `if (Array.isArray(v)) { w = false; for (let i = 0; i < v.length; i++) { ` +
            `${test((r) => `if (${r}) { w = true; break; }`)} } }`,
        );
        return;
      }
      const min = typeof schema.minContains === "number" ? num(schema.minContains, "min") : 1;
      const max = typeof schema.maxContains === "number"
        ? num(schema.maxContains, "maxContains")
        : Number.MAX_SAFE_INTEGER;
      own(
        `if (Array.isArray(v)) { let n = 0; for (let i = 0; i < v.length; i++) { ` +
          `${test((r) => `if (${r}) n++;`)} } ` +
          `w = n >= ${literal(min)} && n <= ${literal(max)}; }`,
      );
      return;
    }
    case "properties": {
      // Counting the members it names: when they are all the members,
      // `additionalProperties` after it has none to evaluate.
      const matched = gen.matched ??= `mc${gen.temp()}`;
      const cases = map(value).map(([name, node]) => {
        const pointer = `p + ${q("/" + escapePointerToken(name))}`;
        // The member by its name (a named load, where `v[k]` is a keyed one).
        const member = `v[${q(name)}]`;
        const test = ev(node, [name], member, pointer, FAILS);
        return `case ${q(name)}: ${matched}++; ${test} break;`;
      });
      if (cases.length > 0) {
        out.push(
          `if (${OBJECT}) ${gen.members(`switch (k) { ${cases.join(" ")} }`)}`,
        );
      }
      return;
    }
    case "patternProperties": {
      const loops = map(value).map(([source, node]) =>
        gen.members(
          `if (tp(${gen.constant(matcher(source))}, k)) { ` +
            `${ev(node, [source], "v[k]", each, FAILS)} }`,
        )
      );
      if (loops.length > 0) out.push(`if (${OBJECT}) { ${loops.join(" ")} }`);
      return;
    }
    case "additionalProperties": {
      const names = isObject(schema.properties) ? Object.keys(schema.properties) : [];
      const matchers = isObject(schema.patternProperties)
        ? Object.keys(schema.patternProperties).map(matcher)
        : [];
      const known = [
        names.length > 0
          ? `switch (k) { ${names.map((n) => `case ${q(n)}:`).join(" ")} continue; }`
          : "",
        matchers.length > 0
          ? `if (${matchers.map((m) => `tp(${gen.constant(m)}, k)`).join(" || ")}) continue;`
          : "",
      ].join(" ");
      // After `properties` (whose members it skips alone), only an object
      // with other members has members to evaluate.
      const others = gen.matched !== undefined && gen.keys !== undefined &&
          matchers.length === 0 && isObject(schema.properties)
        ? ` && (${gen.keys} ??= Object.getOwnPropertyNames(v)).length !== ${gen.matched}`
        : "";
      out.push(
        `if (${OBJECT}${others}) ${gen.members(`${known} ${extra("v[k]", each, "k")}`)}`,
      );
      return;
    }
    case "propertyNames":
      out.push(
        `if (${OBJECT}) ${gen.members(ev(value, [], "k", `"*" + ${each}`, FAILS))}`,
      );
      return;
    case "dependentSchemas":
    case "dependencies": {
      const lines = map(value).map(([name, dependency]) => {
        if (keyword === "dependencies" && Array.isArray(dependency)) {
          const all = strings(dependency, "a dependency").map(hasMember);
          return `if (${hasMember(name)} && !(${all.join(" && ") || "true"})) w = false;`;
        }
        return `if (${hasMember(name)}) { ${
          ev(dependency, [name], "v", "p", (r) => `if (!${r}) w = false;`)
        } }`;
      });
      if (lines.length === 0) return;
      // Its own failure (the missing properties) only when no dependency nests any.
      out.push(
        `{ const m = o === null ? 0 : o.length; let w = true; ` +
          `if (${OBJECT}) { ${lines.join(" ")} } ` +
          `if (!w) { ok = false; if (o !== null && o.length === m) { ${emit()} } } }`,
      );
      return;
    }
    default:
      throw new Unsupported(`the keyword ${keyword}`);
  }
}
