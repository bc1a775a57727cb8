/**
 * Input normalizers: strict modes make optional fields required and nullable,
 * and the normalizer turns the model's `null` for such a field back into
 * "absent"; Gemini `parameters` declare objects without properties (and
 * OpenAI and Anthropic strict mode maps) as JSON text, and the normalizer parses that text
 * back into the object. Either way
 * handlers see the original semantics.
 *
 * @module
 */

/**
 * Maps tool arguments between a converted schema's form and the original's.
 * Neither direction mutates its argument.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultRegistry } from "@toolfoundation/core/adapter";
 *
 * const tool = {
 *   name: "search",
 *   inputSchema: {
 *     type: "object",
 *     properties: { q: { type: "string" }, limit: { type: "integer" } },
 *     required: ["q"],
 *     additionalProperties: false,
 *   },
 * };
 * const { normalizer } = defaultRegistry().convert(tool, "mcp", "openai", { strict: true });
 * assert.deepEqual(normalizer.normalize({ q: "deno", limit: null }), { q: "deno" });
 * assert.deepEqual(normalizer.denormalize({ q: "deno" }), { q: "deno", limit: null });
 * ```
 */
export interface InputNormalizer {
  /** `true` when both directions return their argument unchanged. */
  readonly identity: boolean;
  /**
   * Turns arguments produced for the converted schema into the original form.
   *
   * @param args The model's arguments.
   * @returns The arguments as the original schema means them.
   */
  normalize(args: unknown): unknown;
  /**
   * Turns arguments in the original form into the converted schema's form
   * (e.g. absent optional fields become `null`, objects held as JSON text
   * become that text), for examples and tests.
   *
   * @param args Arguments valid under the original schema.
   * @returns The same arguments in the converted form.
   */
  denormalize(args: unknown): unknown;
}

/**
 * The normalizer that changes nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { IDENTITY_NORMALIZER } from "@toolfoundation/core/adapter";
 *
 * assert.deepEqual(IDENTITY_NORMALIZER.normalize({ a: null }), { a: null });
 * ```
 */
export const IDENTITY_NORMALIZER: InputNormalizer = Object.freeze({
  identity: true,
  normalize: (args: unknown): unknown => args,
  denormalize: (args: unknown): unknown => args,
});
