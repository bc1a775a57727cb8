/**
 * Feature-loss warnings: one structured record for every keyword or field a
 * conversion dropped, rewrote or moved into a description.
 *
 * @module
 */

/** What a conversion did with a feature the target cannot carry as written. */
export type FeatureLossAction = "dropped" | "rewritten" | "moved-to-description";

/**
 * How the change affects the set of values the schema accepts:
 * `widens` (more values accepted), `narrows` (fewer), `none` (same set).
 */
export type FeatureLossEffect = "widens" | "narrows" | "none";

/**
 * One feature that did not survive a conversion unchanged.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultRegistry } from "@toolfoundation/core/adapter";
 *
 * const tool = {
 *   name: "slug",
 *   inputSchema: {
 *     type: "object",
 *     properties: { s: { type: "string", minLength: 3 } },
 *     required: ["s"],
 *     additionalProperties: false,
 *   },
 * };
 * const { warnings } = defaultRegistry().convert(tool, "mcp", "openai", { strict: true });
 * const w = warnings[0];
 * assert.equal(w.feature, "minLength");
 * assert.equal(w.path, "/inputSchema/properties/s/minLength");
 * assert.equal(w.action, "moved-to-description");
 * assert.equal(w.effect, "widens");
 * ```
 */
export interface FeatureLossWarning {
  /** The keyword or field, e.g. `pattern`, `oneOf`, `outputSchema`. */
  feature: string;
  /** JSON Pointer into the source tool, e.g. `/inputSchema/properties/x/pattern`. */
  path: string;
  /** Source format name. */
  from: string;
  /** Target format name. */
  to: string;
  /** What was done with it. */
  action: FeatureLossAction;
  /** The effect on the values the schema accepts. */
  effect: FeatureLossEffect;
  /** A human-readable explanation. */
  message: string;
}
