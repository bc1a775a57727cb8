// Private: the JSON Schema checks of preflight (plain and strict modes).

import { isSimplePattern, LIST, MAP, type Obj, RefResolver, SINGLE } from "../_schema/mod.ts";
import { escapePointerToken } from "../../model/json_pointer.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";
import type { SchemaProfile } from "../profile.ts";
import type { PreflightProblem } from "../adapter.ts";
import { MAX_SCHEMA_DEPTH } from "../limits.ts";

/** Sizes counted over one tool's schemas. */
export interface Counts {
  properties: number;
  depth: number;
  chars: number;
  enums: number;
  optional: number;
  unions: number;
}

/** Called for each schema object with its path and its object nesting depth. */
type Visit = (node: Obj, path: string, depth: number) => void;

/** Visits every subschema, at most `MAX_SCHEMA_DEPTH` schema levels deep; `tooDeep` gets the first beyond. */
function traverse(
  node: unknown,
  path: string,
  depth: number,
  visit: Visit,
  tooDeep: (path: string) => void,
  level = 0,
): void {
  if (!isNonArrayObject(node)) return;
  if (level >= MAX_SCHEMA_DEPTH) return tooDeep(path);
  visit(node, path, depth);
  const next = level + 1;
  for (const [key, value] of Object.entries(node)) {
    const p = `${path}/${escapePointerToken(key)}`;
    if (SINGLE.has(key) || (key === "items" && !Array.isArray(value))) {
      traverse(value, p, depth, visit, tooDeep, next);
    } else if ((LIST.has(key) || key === "items") && Array.isArray(value)) {
      value.forEach((v, i) => traverse(v, `${p}/${i}`, depth, visit, tooDeep, next));
    } else if (MAP.has(key) && isNonArrayObject(value)) {
      const d = key === "properties" ? depth + 1 : depth;
      for (const [name, v] of Object.entries(value)) {
        traverse(v, `${p}/${escapePointerToken(name)}`, d, visit, tooDeep, next);
      }
    }
  }
}

/** The problem of a schema nested beyond `MAX_SCHEMA_DEPTH`. */
export function tooDeepProblem(path: string, tool: string | undefined): PreflightProblem {
  return {
    code: "too_deep",
    path,
    tool,
    message: `schemas nest deeper than ${MAX_SCHEMA_DEPTH} levels here; conversion refuses them`,
  };
}

/** Checks a JSON Schema (strict rules when `mode` is set). */
export function checkJson(
  schema: unknown,
  path: string,
  tool: string | undefined,
  mode: SchemaProfile | undefined,
  strictName: string,
  format: string,
  counts: Counts,
  out: PreflightProblem[],
  opts: { rootCombinators: boolean; noRootSchema: boolean; requireAll: boolean },
): void {
  if (!isNonArrayObject(schema)) {
    out.push({
      code: "root_not_object",
      path,
      tool,
      message: "the schema must be a JSON Schema object",
    });
    return;
  }
  if (schema.type !== "object") {
    out.push({
      code: "root_not_object",
      path: `${path}/type`,
      tool,
      message: `the root must be type "object", found ${JSON.stringify(schema.type)}`,
    });
  }
  if (!opts.rootCombinators) {
    for (const key of ["anyOf", "oneOf", "allOf"]) {
      if (schema[key] !== undefined) {
        out.push({
          code: "root_combinator",
          path: `${path}/${key}`,
          tool,
          message: `${format} rejects ${key} at the root`,
        });
      }
    }
  }
  if (opts.noRootSchema && schema.$schema !== undefined) {
    out.push({
      code: "unsupported_keyword",
      path: `${path}/$schema`,
      tool,
      message: `${format} rejects a root $schema`,
    });
  }
  const refs = new RefResolver(schema);
  const keywords = mode === undefined || mode.keywords === "any"
    ? undefined
    : new Set(mode.keywords);
  const formats = mode?.formats === undefined ? undefined : new Set(mode.formats);
  let deep = false;
  const tooDeep = (p: string): void => {
    if (!deep) out.push(tooDeepProblem(p, tool));
    deep = true;
  };
  traverse(schema, path, 0, (node, p, depth) => {
    counts.depth = Math.max(counts.depth, depth);
    if (typeof node.$ref === "string") {
      const target = refs.resolve(node.$ref);
      if (target === undefined) {
        out.push({
          code: "unresolved_ref",
          path: `${p}/$ref`,
          tool,
          message: `${JSON.stringify(node.$ref)} does not resolve inside the schema`,
        });
      } else if (mode !== undefined && !mode.recursion && refs.isRecursive(target)) {
        out.push({
          code: "recursion",
          path: `${p}/$ref`,
          tool,
          message: `recursive schemas are not supported in ${strictName}`,
        });
      }
      if (
        mode !== undefined && !mode.refSiblings &&
        Object.keys(node).some((k) => k !== "$ref" && k !== "$defs")
      ) {
        out.push({
          code: "ref_siblings",
          path: p,
          tool,
          message: `${strictName} rejects keywords beside $ref`,
        });
      }
    }
    if (Array.isArray(node.enum)) {
      counts.enums += node.enum.length;
      for (const v of node.enum) if (typeof v === "string") counts.chars += v.length;
    }
    if (typeof node.const === "string") counts.chars += node.const.length;
    if (Array.isArray(node.anyOf) || (Array.isArray(node.type) && node.type.length > 1)) {
      counts.unions++;
    }
    if (isNonArrayObject(node.properties)) {
      const names = Object.keys(node.properties);
      counts.properties += names.length;
      for (const n of names) counts.chars += n.length;
      const required = Array.isArray(node.required) ? node.required : [];
      counts.optional += names.filter((n) => !required.includes(n)).length;
      if (opts.requireAll) {
        for (const n of names) {
          if (!required.includes(n)) {
            out.push({
              code: "not_required",
              path: `${p}/properties/${escapePointerToken(n)}`,
              tool,
              message:
                `${strictName} requires every property in required; make it nullable instead`,
            });
          }
        }
      }
    }
    if (mode === undefined) return;
    for (const [key, value] of Object.entries(node)) {
      if (keywords !== undefined && !keywords.has(key) && key !== "$defs") {
        out.push({
          code: "unsupported_keyword",
          path: `${p}/${escapePointerToken(key)}`,
          tool,
          message: `${strictName} does not support ${key}`,
        });
      } else if (key === "format" && formats !== undefined && !formats.has(value as string)) {
        out.push({
          code: "unsupported_format",
          path: `${p}/format`,
          tool,
          message: `${strictName} does not support format ${JSON.stringify(value)}`,
        });
      } else if (key === "pattern" && mode.simplePatterns && !isSimplePattern(value)) {
        out.push({
          code: "unsupported_pattern",
          path: `${p}/pattern`,
          tool,
          message: `${strictName} supports only simple patterns`,
        });
      } else if (
        key === "minItems" && mode.maxMinItems !== undefined && typeof value === "number" &&
        value > mode.maxMinItems
      ) {
        out.push({
          code: "unsupported_keyword",
          path: `${p}/minItems`,
          tool,
          message: `${strictName} supports minItems up to ${mode.maxMinItems}`,
        });
      }
    }
    const isObject = node.type === "object" ||
      (Array.isArray(node.type) && node.type.includes("object"));
    if (mode.closeObjects && isObject && node.additionalProperties !== false) {
      out.push({
        code: "not_closed",
        path: `${p}/additionalProperties`,
        tool,
        message: `${strictName} requires additionalProperties: false on every object`,
      });
    }
    if (
      mode.typeRequired && node.type === undefined && node.anyOf === undefined &&
      node.enum === undefined && !Object.hasOwn(node, "const") && node.$ref === undefined
    ) {
      out.push({
        code: "missing_type",
        path: p,
        tool,
        message: `${strictName} requires a type on every schema`,
      });
    }
  }, tooDeep);
}
