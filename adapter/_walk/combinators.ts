// Private: the combinators of the schema walk that are rewritten rather than
// kept: `allOf` merged into the schema that holds it, and `anyOf`/`oneOf` at a
// root that may not have them merged into one object.

import { deepEqual, type Obj, put } from "../_schema/mod.ts";
import { escapePointerToken } from "../../model/json_pointer.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";
import { type Merged, mergeInto, mergeStart } from "./merge.ts";
import type { WalkContext } from "./context.ts";

/** Merges the `allOf` branches of a schema; `undefined` when they cannot be merged exactly. */
export function mergeAllOf(walker: WalkContext, schema: Obj, pointer: string): Merged | undefined {
  const base: Obj = { ...schema };
  delete base.allOf;
  let acc: Merged | undefined = mergeStart(base, pointer);
  const list = schema.allOf as unknown[];
  for (let index = 0; index < list.length && acc !== undefined; index++) {
    const resolved = walker.rewriter.resolved(list[index]);
    if (
      resolved === undefined || typeof resolved.schema.$ref === "string" ||
      resolved.schema.allOf !== undefined
    ) {
      acc = undefined;
      break;
    }
    acc = mergeInto(acc, resolved.schema, resolved.pointer ?? `${pointer}/allOf/${index}`);
  }
  if (acc === undefined) return undefined;
  walker.warn(
    `${pointer}/allOf`,
    "allOf",
    "rewritten",
    "none",
    "the allOf branches are merged into one schema",
  );
  return acc;
}

/**
 * Rewrites the combinators of a root that may not have them: `anyOf`/`oneOf`
 * branches become one object, an unmerged `allOf` is dropped. `merged` is the
 * root after {@linkcode mergeAllOf}, if that merged it.
 */
export function mergeRoot(
  walker: WalkContext,
  merged: Merged | undefined,
  schema: Obj,
  pointer: string,
): Merged | undefined {
  let acc = merged ?? mergeStart(schema, pointer);
  for (const key of ["anyOf", "oneOf"]) {
    const list = acc.schema[key];
    if (!Array.isArray(list)) continue;
    const out: Obj = { ...acc.schema };
    delete out[key];
    const origins = new Map(acc.origins);
    const props: Obj = isNonArrayObject(out.properties) ? { ...out.properties } : {};
    let required: string[] | undefined;
    let closed = true;
    list.forEach((branch, i) => {
      const resolved = walker.rewriter.resolved(branch);
      const branchSchema = resolved?.schema ?? {};
      const branchPointer = resolved?.pointer ?? `${pointer}/${key}/${i}`;
      if (isNonArrayObject(branchSchema.properties)) {
        for (const [name, sub] of Object.entries(branchSchema.properties)) {
          if (!Object.hasOwn(props, name)) {
            put(props, name, sub);
            origins.set(
              `properties/${name}`,
              `${branchPointer}/properties/${escapePointerToken(name)}`,
            );
          } else if (!deepEqual(props[name], sub)) {
            put(props, name, { anyOf: [props[name], sub] });
          }
        }
      }
      const req = Array.isArray(branchSchema.required) ? branchSchema.required as string[] : [];
      required = required === undefined ? req : required.filter((n) => req.includes(n));
      if (branchSchema.additionalProperties !== false) closed = false;
    });
    out.properties = props;
    const own = Array.isArray(out.required) ? out.required as string[] : [];
    const all = [...new Set([...own, ...(required ?? [])])];
    if (all.length > 0) out.required = all;
    if (closed && out.additionalProperties === undefined) out.additionalProperties = false;
    if (out.type === undefined) out.type = "object";
    walker.warn(
      `${pointer}/${key}`,
      key,
      "rewritten",
      "widens",
      `a ${key} at the root is not allowed; its branches' properties are merged into one object, which also accepts mixtures of the branches`,
    );
    acc = { schema: out, origins };
  }
  if (Array.isArray(acc.schema.allOf)) {
    walker.warn(
      `${pointer}/allOf`,
      "allOf",
      "dropped",
      "widens",
      "an allOf at the root is not allowed and its branches could not be merged",
    );
    const out: Obj = { ...acc.schema };
    delete out.allOf;
    acc = { schema: out, origins: acc.origins };
  }
  return acc === merged || acc.schema === schema ? merged : acc;
}
