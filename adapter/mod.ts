/**
 * Adapters: exact, loud conversion of tools between MCP, OpenAI (Chat
 * Completions and Responses), Anthropic and Gemini, through one canonical
 * form.
 *
 * - {@linkcode defaultRegistry} converts between any two formats; every
 *   keyword or field that is dropped, rewritten or moved comes back as a
 *   {@linkcode FeatureLossWarning} with a JSON Pointer into the source tool.
 * - Strict modes produce schemas the provider accepts, with an
 *   {@linkcode InputNormalizer} that maps the model's `null`s back to "absent".
 * - {@linkcode ToolNameMap} maps `namespace:name` to provider names and back.
 * - {@linkcode preflight} finds what a provider would reject before a request.
 * - Provider rules are dated data ({@linkcode ProviderProfile}).
 *
 * Pure: no I/O, inputs are never mutated, output (warnings included) is
 * deterministic. No `node:` modules and no MCP SDK.
 *
 * @example MCP → OpenAI strict, and the model's arguments back
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultRegistry } from "@toolfoundation/core/adapter";
 *
 * const tool = {
 *   name: "send",
 *   namespace: "email",
 *   inputSchema: {
 *     type: "object",
 *     properties: {
 *       to: { type: "array", items: { type: "string", format: "email" }, minItems: 1 },
 *       subject: { type: "string", minLength: 1, maxLength: 200 },
 *       cc: { type: "array", items: { type: "string", format: "email" } },
 *     },
 *     required: ["to", "subject"],
 *     additionalProperties: false,
 *   },
 * };
 * const result = defaultRegistry().convert(tool, "mcp", "openai", { strict: true });
 * const fn = (result.tool as { function: { name: string } }).function;
 * assert.equal(fn.name, "email__send");
 * assert.deepEqual(result.warnings.map((w) => `${w.path} ${w.feature} ${w.action} ${w.effect}`), [
 *   "/inputSchema/properties/subject/minLength minLength moved-to-description widens",
 *   "/inputSchema/properties/subject/maxLength maxLength moved-to-description widens",
 *   "/inputSchema/properties/cc required rewritten none",
 * ]);
 * assert.deepEqual(
 *   result.normalizer.normalize({ to: ["a@b.c"], subject: "hi", cc: null }),
 *   { to: ["a@b.c"], subject: "hi" },
 * );
 * ```
 *
 * @module
 */

export {
  type CanonicalTool,
  PROVIDER_FIELDS_META_KEY,
  type ProviderFields,
} from "./canonical_tool.ts";
export type { FeatureLossAction, FeatureLossEffect, FeatureLossWarning } from "./warning.ts";
export {
  type AdapterErrorCode,
  AdapterExistsError,
  InvalidProviderToolError,
  InvalidToolCallError,
  NameCollisionError,
  UnknownFormatError,
  UnknownToolNameError,
} from "./errors.ts";
export { MAX_SCHEMA_DEPTH, MAX_VALUE_DEPTH } from "./limits.ts";
export {
  ANTHROPIC_PROFILE,
  GEMINI_JSON_SCHEMA_PROFILE,
  GEMINI_PROFILE,
  GEMINI_VERTEX_PROFILE,
  MCP_PROFILE,
  type NameRules,
  OPENAI_PROFILE,
  OPENAI_RESPONSES_PROFILE,
  type ProviderProfile,
  type RequestLimits,
  type SchemaLimits,
  type SchemaProfile,
} from "./profile.ts";
export { decodeToolName, encodeToolName, ToolNameMap } from "./names.ts";
export { IDENTITY_NORMALIZER, type InputNormalizer } from "./normalizer.ts";
export {
  type Adapter,
  AdapterRegistry,
  type CanonicalResult,
  type ConversionResult,
  type ConvertOptions,
  type RegisterOptions,
  type StrictDecision,
} from "./registry.ts";
export { defaultRegistry } from "./default_registry.ts";
export { mcpAdapter } from "./mcp_adapter.ts";
export {
  openaiAdapter,
  type OpenAIChatTool,
  openaiResponsesAdapter,
  type OpenAIResponsesTool,
} from "./openai_adapter.ts";
export { anthropicAdapter, type AnthropicTool } from "./anthropic_adapter.ts";
export { geminiAdapter, type GeminiFunctionDeclaration } from "./gemini_adapter.ts";
export { preflight, type PreflightOptions, type PreflightProblem } from "./preflight.ts";
export { type CanonicalToolCall, parseToolCall, type ParseToolCallOptions } from "./tool_call.ts";

// The model types the adapters refer to (Tool, McpTool, the errors) are exported by
// "@toolfoundation/core/model".
