// Private: whether a schema certainly passes its dialect's meta-schema,
// answered without Hyperjump: the fast path's code generated from the
// flattened meta-schemas of `_generated/meta_schemas.json` (see
// scripts/_meta_schemas.ts). `true` is exact; `false` means "let Hyperjump
// decide" (the schema may be invalid, or it uses `$id`, `$anchor` or
// `$dynamicAnchor`, whose patterns the flattened meta-schema leaves to
// Hyperjump). Each dialect's check is generated once per process, on first use.

import metaSchemas from "./_generated/meta_schemas.json" with { type: "json" };
import { compileTrusted, type FastCheck } from "./_fast/mod.ts";

const checks = new Map<"2020-12" | "draft-07", FastCheck>();

/** Whether `schema` certainly passes the meta-schema of `dialect` (a built-in one). */
export function passesMetaSchema(schema: unknown, dialect: "2020-12" | "draft-07"): boolean {
  let check = checks.get(dialect);
  if (check === undefined) {
    check = compileTrusted(metaSchemas[dialect], dialect);
    checks.set(dialect, check);
  }
  return check(schema) === true;
}
