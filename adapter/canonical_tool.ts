/**
 * The canonical intermediate every conversion goes through.
 *
 * @module
 */

import type { Tool } from "../model/tool.ts";

/**
 * Fields of a provider format that have no MCP equivalent (e.g. Anthropic's
 * `input_examples` and `cache_control`, the `strict` flag), keyed by format
 * name and kept so that a provider → canonical → provider round trip is exact.
 */
export type ProviderFields = Record<string, Record<string, unknown>>;

/**
 * The `_meta` key under which provider fields are kept when a canonical tool
 * is written as MCP, so that provider → MCP → provider keeps them too.
 */
export const PROVIDER_FIELDS_META_KEY = "dev.toolfoundation/provider-fields";

/**
 * The canonical tool: the whole {@linkcode Tool} (every MCP field, the whole
 * JSON Schema of input and output, namespace, version and tags) plus the
 * provider-only fields seen on the way in.
 *
 * MCP → canonical → MCP is lossless: nothing is removed or reordered.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { type CanonicalTool, mcpAdapter } from "@toolfoundation/core/adapter";
 *
 * const canonical: CanonicalTool = mcpAdapter.toCanonical({
 *   name: "add",
 *   namespace: "math",
 *   inputSchema: { type: "object", properties: { a: { type: "number", "x-unit": "m" } } },
 * }).tool;
 * assert.equal(canonical.namespace, "math");
 * assert.deepEqual(canonical.inputSchema.properties?.a, { type: "number", "x-unit": "m" });
 * ```
 */
export interface CanonicalTool extends Tool {
  /** Provider-only fields by format name (`anthropic`, `openai`, `gemini`, ...). */
  providerFields?: ProviderFields;
}
