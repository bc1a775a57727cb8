// Private: the input normalizer behind InputNormalizer (see normalizer.ts), one
// mechanism for every target: base.ts walks arguments by the converted schema
// (JSON text decoded and encoded, `anyOf` branches tried JSON-text first); the
// dialect of the converted schema says how a value matches a node: JSON Schema
// (json_schema.ts: OpenAI and Anthropic strict mode, with null markers and
// local `$ref`s) or Gemini's OpenAPI subset (openapi.ts).

import type { Obj } from "../_schema/mod.ts";
import type { InputNormalizer } from "../normalizer.ts";
import { JsonSchemaNormalizer } from "./json_schema.ts";
import { OpenApiNormalizer } from "./openapi.ts";

export { resolve } from "./json_schema.ts";

/** What a normalizer maps back, over one converted schema. */
export interface NormalizerParts {
  /** The dialect of the converted schema. */
  dialect: "json-schema" | "openapi";
  /** Object nodes whose listed properties were optional and made nullable (JSON Schema). */
  nullable?: Map<Obj, Set<string>>;
  /** The nodes that hold an object as JSON text. */
  jsonText?: Set<Obj>;
}

/**
 * The normalizer of a converted schema; `undefined` when it has nothing to
 * map back (no null markers, no JSON text).
 */
export function createNormalizer(root: Obj, parts: NormalizerParts): InputNormalizer | undefined {
  const nullable = parts.nullable ?? new Map<Obj, Set<string>>();
  const text = parts.jsonText ?? new Set<Obj>();
  if (nullable.size === 0 && text.size === 0) return undefined;
  return parts.dialect === "openapi"
    ? new OpenApiNormalizer(root, text)
    : new JsonSchemaNormalizer(root, nullable, text);
}
