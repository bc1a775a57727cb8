/**
 * Adapters: exact, loud conversion of tools between MCP, OpenAI (Chat
 * Completions and Responses), Anthropic and Gemini, through one canonical
 * form.
 *
 * - Each provider is one {@linkcode Adapter} (its own folder: profile,
 *   conversion, preflight rules, tool-call reader); an
 *   {@linkcode AdapterRegistry} is the list of formats, and converting,
 *   preflight and reading tool calls are dispatched through it.
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
export type {
  NameRules,
  ProviderProfile,
  RequestLimits,
  SchemaLimits,
  SchemaProfile,
} from "./profile.ts";
export { decodeToolName, encodeToolName, ToolNameMap } from "./names.ts";
export { IDENTITY_NORMALIZER, type InputNormalizer } from "./normalizer.ts";
export type {
  Adapter,
  CanonicalResult,
  CanonicalToolCall,
  ConversionResult,
  ConvertOptions,
  NameTable,
  ParseToolCallOptions,
  PreflightOptions,
  PreflightProblem,
  PreflightSchema,
  PreflightTool,
  ProviderOptions,
  StrictDecision,
  ToolCallReading,
} from "./adapter.ts";
export { AdapterRegistry, type RegisterOptions } from "./registry.ts";
export { defaultRegistry } from "./default_registry.ts";
export { MCP_PROFILE, mcpAdapter, type McpOptions } from "./mcp/mod.ts";
export { OPENAI_PROFILE, openaiAdapter, type OpenAIChatTool } from "./openai/mod.ts";
export {
  OPENAI_RESPONSES_PROFILE,
  openaiResponsesAdapter,
  type OpenAIResponsesTool,
} from "./openai_responses/mod.ts";
export { ANTHROPIC_PROFILE, anthropicAdapter, type AnthropicTool } from "./anthropic/mod.ts";
export {
  GEMINI_JSON_SCHEMA_PROFILE,
  GEMINI_PROFILE,
  GEMINI_VERTEX_PROFILE,
  geminiAdapter,
  type GeminiFunctionDeclaration,
  type GeminiOptions,
} from "./gemini/mod.ts";
export { preflight } from "./preflight.ts";
export { parseToolCall } from "./tool_call.ts";

// The model types the adapters refer to (Tool, McpTool, the errors) are exported by
// "@toolfoundation/core/model".
