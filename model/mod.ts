/**
 * The canonical tool model: the `Tool` record (MCP 2025-11-25 plus namespace,
 * version and tags), tool IDs, tags, backend bindings, JSON forms, typed errors
 * and the Hyperjump-backed {@linkcode DefaultValidator}.
 *
 * Pure: no I/O, no network, no `node:` modules of its own.
 *
 * @example Creating and validating a tool
 * ```ts
 * import assert from "node:assert/strict";
 * import { type Tool, toolId } from "@toolfoundation/core/model";
 *
 * const tool: Tool = {
 *   name: "search",
 *   description: "Search for documents by query",
 *   inputSchema: {
 *     type: "object",
 *     properties: {
 *       query: { type: "string", description: "The search query" },
 *       limit: { type: "integer", description: "Maximum number of results", default: 10 },
 *     },
 *     required: ["query"],
 *   },
 *   namespace: "docs",
 *   version: "1.0.0",
 * };
 * assert.equal(toolId(tool), "docs:search");
 * ```
 *
 * @module
 */

export {
  type JsonSchema,
  type JsonSchemaObject,
  type JsonValue,
  MCP_VERSION,
  type McpTool,
  SCHEMA_DIALECT_2020_12,
  SCHEMA_DIALECT_DRAFT_07,
  SCHEMA_DIALECT_DRAFT_07_ALT,
  type Tool,
  type ToolAnnotations,
  type ToolExecution,
  type ToolIcon,
  type ToolObjectSchema,
} from "./tool.ts";
export {
  EvaluationDepthError,
  ExternalRefError,
  InstanceDepthError,
  InvalidBackendError,
  InvalidSchemaError,
  type InvalidSchemaErrorOptions,
  InvalidToolError,
  InvalidToolIdError,
  type ModelErrorCode,
  SchemaShapeError,
  type SchemaShapeProblem,
  SchemaValidationError,
  type SchemaValidationErrorOptions,
  ToolFoundationError,
  type ToolFoundationErrorOptions,
  UnsupportedPatternError,
  UnsupportedSchemaError,
} from "./errors.ts";
export {
  formatFailure,
  formatFailures,
  formatIssues,
  type ToolIssue,
  type ValidationFailure,
} from "./format_failures.ts";
export { type ParsedToolId, parseToolId, toolId } from "./tool_id.ts";
export { MAX_TAG_COUNT, MAX_TAG_LENGTH, normalizeTag, normalizeTags } from "./tags.ts";
export {
  BACKEND_KINDS,
  type BackendKind,
  type LocalBackend,
  localBackend,
  type LocalToolBackend,
  type McpBackend,
  mcpBackend,
  type McpToolBackend,
  type ProviderBackend,
  providerBackend,
  type ProviderToolBackend,
  type ToolBackend,
  validateBackend,
} from "./backend.ts";
export { isValidVersion, validateTool } from "./validate_tool.ts";
export { fromJSON, fromMCPJSON, toJSON, toMCPJSON } from "./json.ts";
export type {
  CheckResult,
  CompiledSchema,
  SchemaInput,
  SchemaValidator,
} from "./schema_validator.ts";
export {
  DEFAULT_MAX_DEPTH,
  DefaultValidator,
  type DefaultValidatorOptions,
} from "./default_validator.ts";
export {
  checkSchemaStructure,
  DEFAULT_MAX_IN_PLACE_EVALUATIONS,
  DEFAULT_MAX_SCHEMA_DEPTH,
  DEFAULT_MAX_SCHEMA_JSON_DEPTH,
  DEFAULT_MAX_SCHEMA_NODES,
  type SchemaStructureOptions,
} from "./schema_structure.ts";
export {
  escapePointerToken,
  pointerFromTokens,
  pointerTokens,
  unescapePointerToken,
} from "./json_pointer.ts";
export { isNonArrayObject, isPlainObject } from "./plain_object.ts";
export { findUnencodable, type Unencodable } from "./json_text.ts";
export type { InferJsonSchema } from "./json_schema_type.ts";
export {
  isStandardSchema,
  type StandardInput,
  type StandardJsonSchema,
  type StandardJsonSchemaConverter,
  standardJsonSchemaOf,
  type StandardJsonSchemaOptions,
  type StandardJsonSchemaProps,
  type StandardTyped,
  type StandardTypedProps,
  type StandardTypes,
} from "./standard_schema.ts";
