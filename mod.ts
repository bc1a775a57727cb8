/**
 * toolfoundation: the canonical tool model, a dialect-aware JSON Schema
 * validator that never fetches, and (as they land) exact, loud adapters.
 *
 * This entry point is runtime-neutral: it does no I/O and loads neither the MCP
 * client nor `node:` modules of its own.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DefaultValidator, type Tool, toolId, validateTool } from "@toolfoundation/core";
 *
 * const tool: Tool = {
 *   name: "add",
 *   namespace: "math",
 *   inputSchema: {
 *     type: "object",
 *     properties: { a: { type: "number" }, b: { type: "number" } },
 *     required: ["a", "b"],
 *   },
 * };
 * validateTool(tool);
 * await new DefaultValidator().validateInput(tool, { a: 1, b: 2 });
 * assert.equal(toolId(tool), "math:add");
 * ```
 *
 * @module
 */

// The quick-start subset of "./model" and "./adapter": describe and validate a
// tool, convert it, read a model's tool call. Everything else of those layers
// is in their own entry points.
export {
  type JsonSchema,
  type JsonValue,
  type McpTool,
  type Tool,
  type ToolObjectSchema,
} from "./model/tool.ts";
export { parseToolId, toolId } from "./model/tool_id.ts";
export { validateTool } from "./model/validate_tool.ts";
export { fromJSON, fromMCPJSON, toJSON, toMCPJSON } from "./model/json.ts";
export type { SchemaValidator } from "./model/schema_validator.ts";
export { DefaultValidator, type DefaultValidatorOptions } from "./model/default_validator.ts";
export {
  ExternalRefError,
  InvalidSchemaError,
  InvalidToolError,
  SchemaValidationError,
  ToolFoundationError,
  type ValidationFailure,
} from "./model/errors.ts";
export type { FeatureLossWarning } from "./adapter/warning.ts";
export type { InputNormalizer } from "./adapter/normalizer.ts";
export type { ConversionResult, ConvertOptions } from "./adapter/adapter.ts";
export { defaultRegistry } from "./adapter/default_registry.ts";
export { UnknownFormatError } from "./adapter/errors.ts";
export { ToolNameMap } from "./adapter/names.ts";
export { preflight, type PreflightProblem } from "./adapter/preflight.ts";
export { type CanonicalToolCall, parseToolCall } from "./adapter/tool_call.ts";
