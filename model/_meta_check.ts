// Private: whether a schema certainly passes its dialect's meta-schema,
// answered without Hyperjump, by code generated at build time from the
// flattened meta-schemas (scripts/_meta_schemas.ts, `deno task gen`). `true`
// is exact (tests/model/meta_check_test.ts compares it with Hyperjump's own
// meta-schema validation); `false` means "let Hyperjump decide" (the schema
// may be invalid, or it uses `$id`, `$anchor` or `$dynamicAnchor`, whose
// patterns the flattened meta-schema leaves to Hyperjump).

import { validate as meta2020 } from "./_generated/meta_check_2020_12.js";
import { validate as meta07 } from "./_generated/meta_check_draft_07.js";

const CHECKS: Readonly<Record<"2020-12" | "draft-07", (value: unknown) => boolean>> = {
  "2020-12": meta2020 as (value: unknown) => boolean,
  "draft-07": meta07 as (value: unknown) => boolean,
};

/** Whether `schema` certainly passes the meta-schema of `dialect` (a built-in one). */
export function passesMetaSchema(schema: unknown, dialect: "2020-12" | "draft-07"): boolean {
  try {
    return CHECKS[dialect](schema) === true;
  } catch {
    // A schema nested deeper than the call stack: Hyperjump decides (and says so).
    return false;
  }
}
