// Private: the evaluations of the array and object keywords, each mirroring
// the Hyperjump 1.18.0 keyword of the same name (the bounded-pattern
// patternProperties and additionalProperties of _hyperjump.ts included):
// which subschemas it evaluates, in which order, and when it fails.

import { testPattern } from "../_pattern_record.ts";
import { escapePointerToken } from "../json_pointer.ts";
import { allDistinct } from "./_json_equal.ts";
import { Unsupported } from "./_compile.ts";
import {
  type Evaluate,
  isObject,
  type KeywordContext,
  list,
  matcher,
  num,
  strings,
} from "./_detailed_unit.ts";

/** The array keywords (and `required`, `minProperties`, `maxProperties`). */
export function collectionEvaluation(
  keyword: string,
  schema: Record<string, unknown>,
  at: string[],
  value: unknown,
  ctx: KeywordContext,
): Evaluate | undefined {
  const sub = (node: unknown, ...more: string[]) => ctx.schema(node, [...at, ...more]);
  // A test of the value alone is its own evaluation (extra arguments ignored).
  const leaf = (test: (v: unknown) => boolean): Evaluate => test;
  const draft07 = ctx.dialect === "draft-07";
  switch (keyword) {
    case "prefixItems":
    case "items":
    case "additionalItems": {
      let from = 0;
      if (keyword === "prefixItems" || (draft07 && keyword === "items" && Array.isArray(value))) {
        const runs = list(value, keyword).map((node, i) => sub(node, String(i)));
        return (v, p, u) => {
          if (!Array.isArray(v)) return true;
          let ok = true;
          for (let i = 0; i < v.length && i < runs.length; i++) {
            if (!runs[i](v[i], p + "/" + i, u)) ok = false;
          }
          return ok;
        };
      }
      if (keyword === "items" && !draft07) {
        if (Array.isArray(value)) throw new Unsupported("an items array in 2020-12");
        from = Array.isArray(schema.prefixItems) ? schema.prefixItems.length : 0;
      }
      if (keyword === "additionalItems") {
        if (!Array.isArray(schema.items)) return undefined;
        from = schema.items.length;
      }
      const run = sub(value);
      return (v, p, u) => {
        if (!Array.isArray(v)) return true;
        let ok = true;
        for (let i = from; i < v.length; i++) if (!run(v[i], p + "/" + i, u)) ok = false;
        return ok;
      };
    }
    case "contains": {
      const run = sub(value);
      if (draft07) {
        return (v, p, u) => {
          if (!Array.isArray(v)) return true;
          for (let i = 0; i < v.length; i++) if (run(v[i], p + "/" + i, u)) return true;
          return false;
        };
      }
      const min = typeof schema.minContains === "number" ? num(schema.minContains, "min") : 1;
      const max = typeof schema.maxContains === "number"
        ? num(schema.maxContains, "maxContains")
        : Number.MAX_SAFE_INTEGER;
      return (v, p, u) => {
        if (!Array.isArray(v)) return true;
        let matches = 0;
        for (let i = 0; i < v.length; i++) if (run(v[i], p + "/" + i, u)) matches++;
        return matches >= min && matches <= max;
      };
    }
    case "minItems":
    case "maxItems": {
      const bound = num(value, keyword);
      return keyword === "minItems"
        ? leaf((v) => !Array.isArray(v) || v.length >= bound)
        : leaf((v) => !Array.isArray(v) || v.length <= bound);
    }
    case "uniqueItems":
      if (typeof value !== "boolean") throw new Unsupported("uniqueItems that is not a boolean");
      return value ? leaf((v) => !Array.isArray(v) || allDistinct(v)) : undefined;
    case "minProperties":
    case "maxProperties": {
      const bound = num(value, keyword);
      return keyword === "minProperties"
        ? leaf((v) => !isObject(v) || Object.getOwnPropertyNames(v).length >= bound)
        : leaf((v) => !isObject(v) || Object.getOwnPropertyNames(v).length <= bound);
    }
    case "required": {
      const names = strings(value, keyword);
      return leaf((v) => !isObject(v) || names.every((name) => Object.hasOwn(v, name)));
    }
    default:
      return propertyEvaluation(keyword, schema, at, value, ctx);
  }
}

/** The keywords that apply subschemas to an object's properties, and the dependencies. */
function propertyEvaluation(
  keyword: string,
  schema: Record<string, unknown>,
  at: string[],
  value: unknown,
  ctx: KeywordContext,
): Evaluate | undefined {
  const sub = (node: unknown, ...more: string[]) => ctx.schema(node, [...at, ...more]);
  const map = (what: unknown): [string, unknown][] => {
    if (!isObject(what)) throw new Unsupported(`${keyword} that is not an object`);
    if (ctx.dialect === "draft-07" && typeof what.$ref === "string") {
      throw new Unsupported(`${keyword} that reads as a reference`);
    }
    return Object.entries(what);
  };
  switch (keyword) {
    case "properties": {
      const runs = new Map(
        map(value).map((
          [name, node],
        ) => [name, [sub(node, name), "/" + escapePointerToken(name)] as const]),
      );
      return (v, p, u) => {
        if (!isObject(v)) return true;
        let ok = true;
        for (const key of Object.getOwnPropertyNames(v)) {
          const found = runs.get(key);
          if (found !== undefined && !found[0](v[key], p + found[1], u)) ok = false;
        }
        return ok;
      };
    }
    case "patternProperties": {
      const runs = map(value).map(([source, node]) =>
        [matcher(source), sub(node, source)] as const
      );
      return (v, p, u) => {
        if (!isObject(v)) return true;
        let ok = true;
        for (const [m, run] of runs) {
          for (const key of Object.getOwnPropertyNames(v)) {
            if (testPattern(m, key) && !run(v[key], p + "/" + escapePointerToken(key), u)) {
              ok = false;
            }
          }
        }
        return ok;
      };
    }
    case "additionalProperties": {
      const names = new Set(isObject(schema.properties) ? Object.keys(schema.properties) : []);
      const matchers = isObject(schema.patternProperties)
        ? Object.keys(schema.patternProperties).map(matcher)
        : [];
      const run = sub(value);
      return (v, p, u) => {
        if (!isObject(v)) return true;
        let ok = true;
        for (const key of Object.getOwnPropertyNames(v)) {
          if (names.has(key) || matchers.some((m) => testPattern(m, key))) continue;
          if (!run(v[key], p + "/" + escapePointerToken(key), u)) ok = false;
        }
        return ok;
      };
    }
    case "propertyNames": {
      const run = sub(value);
      return (v, p, u) => {
        if (!isObject(v)) return true;
        let ok = true;
        for (const key of Object.getOwnPropertyNames(v)) {
          if (!run(key, "*" + p + "/" + escapePointerToken(key), u)) ok = false;
        }
        return ok;
      };
    }
    case "dependentRequired":
    case "dependentSchemas":
    case "dependencies": {
      const entries = map(value).map(([name, dependency]) => {
        if (
          keyword === "dependentRequired" ||
          (keyword === "dependencies" && Array.isArray(dependency))
        ) {
          const needed = strings(dependency, "a dependency");
          return [name, (v: Record<string, unknown>) => needed.every((n) => Object.hasOwn(v, n))];
        }
        return [name, sub(dependency, name)];
      }) as [string, Evaluate][];
      return (v, p, u) => {
        if (!isObject(v)) return true;
        let ok = true;
        for (const [name, run] of entries) {
          if (Object.hasOwn(v, name) && !run(v, p, u)) ok = false;
        }
        return ok;
      };
    }
    case "minContains":
    case "maxContains":
      return undefined; // read by contains
    default:
      throw new Unsupported(`the keyword ${keyword}`);
  }
}
