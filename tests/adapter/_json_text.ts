// Test helpers shared by the strict-mode JSON-text map tests (OpenAI and
// Anthropic): a tool with maps, the converted schema of each format, and the
// check that text which is not a JSON object stays a string and fails
// validation.

import assert from "node:assert/strict";
import { defaultRegistry, type InputNormalizer } from "../../adapter/mod.ts";
import { DefaultValidator, type Tool } from "../../model/mod.ts";

/** A JSON object. */
export type S = Record<string, unknown>;

/** The default registry. */
export const registry = defaultRegistry();

const validator = new DefaultValidator();

/** The converted schema of an OpenAI Chat Completions or Anthropic tool. */
export function params(tool: unknown): S {
  const t = tool as { function?: { parameters: S }; input_schema?: S };
  return t.function?.parameters ?? t.input_schema!;
}

/** A tool with an optional map, maps in an array of `$ref`s and an empty object. */
export const MAPS: Tool = {
  name: "maps",
  inputSchema: {
    type: "object",
    properties: {
      tags: { type: "object", additionalProperties: { type: "integer" }, description: "Tags" },
      rows: { type: "array", items: { $ref: "#/$defs/row" } },
      meta: { type: "object" },
    },
    required: ["rows", "meta"],
    $defs: { row: { type: "object", additionalProperties: { type: "string" }, minProperties: 1 } },
  },
};

/**
 * Asserts that each non-object text sent for a `rows` item of {@linkcode MAPS}
 * stays a string after `normalize` and fails validation against the source.
 */
export async function assertBadTextRejected(normalizer: InputNormalizer, rest: S): Promise<void> {
  const compiled = await validator.compile(MAPS.inputSchema);
  for (const bad of ["{not json", "[1]", "null", '"s"']) {
    const args = normalizer.normalize({ ...rest, rows: [bad], meta: "{}" }) as S;
    assert.deepEqual(args, { rows: [bad], meta: {} });
    assert.equal(compiled.check(args).valid, false, bad);
  }
}
