// Private: one schema of a Gemini function declaration written from the
// canonical JSON Schema: near-full JSON Schema (`parametersJsonSchema`,
// `responseJsonSchema`) or the OpenAPI subset (`parameters`, `response`), in
// which objects without properties are held as JSON text.

import { type Obj, WarningSink } from "../_schema/mod.ts";
import { declareBranchRequired, toOpenApi, writeJsonText } from "../_openapi/mod.ts";
import { walkSchema } from "../_walk/mod.ts";
import type { SchemaProfile } from "../profile.ts";
import { GEMINI_JSON_SCHEMA_PROFILE, GEMINI_PROFILE } from "./profile.ts";

const EXTRA = ["const", "examples", "exclusiveMinimum", "exclusiveMaximum"];

/** A written schema and the nodes of it that hold an object as JSON text. */
export interface GeminiSchema {
  schema: Obj;
  jsonText: Set<Obj>;
}

/**
 * Writes the canonical schema found at `base` (`/inputSchema` or
 * `/outputSchema`) as JSON Schema (`json`) or as the OpenAPI subset (by the
 * rules of `profile`), reporting to `sink`.
 */
export function writeGeminiSchema(
  schema: Obj,
  base: string,
  json: boolean,
  sink: WarningSink,
  describe: boolean,
  profile: SchemaProfile = GEMINI_PROFILE.schema,
): GeminiSchema {
  const walked = walkSchema(schema, {
    profile: json ? GEMINI_JSON_SCHEMA_PROFILE : profile,
    from: "canonical",
    to: "gemini",
    base,
    describe,
    ...(json ? { dropSchema: true } : { extra: EXTRA }),
  });
  if (json) {
    for (const w of walked.warnings) sink.add(w.path, w.feature, w.action, w.effect, w.message);
    return { schema: walked.schema, jsonText: new Set() };
  }
  const later = new WarningSink(sink.from, sink.to);
  const out = toOpenApi(walked.schema, walked.origin, later, base, describe) as Obj;
  declareBranchRequired(out, walked.origin, later, base);
  const text = writeJsonText(out, {
    source: schema,
    base,
    origin: walked.origin,
    sink: later,
    response: base === "/outputSchema",
    describe,
    overBudget: walked.overBudget,
  });
  for (const w of walked.warnings) {
    if (w.feature === "additionalProperties" && text.described.has(w.path)) {
      sink.add(
        w.path,
        w.feature,
        "moved-to-description",
        w.effect,
        `${w.message}; its value schema is stated in the description of the JSON text`,
      );
    } else sink.add(w.path, w.feature, w.action, w.effect, w.message);
  }
  for (const w of later.list) sink.add(w.path, w.feature, w.action, w.effect, w.message);
  return { schema: out, jsonText: text.nodes };
}
