/**
 * toolfoundation: the canonical tool model, a dialect-aware JSON Schema
 * validator that never fetches, and exact, loud adapters. This entry
 * re-exports `@toolfoundation/core/model` and `@toolfoundation/core/adapter`
 * whole; the runner, the agent loop, the gateway and the workspace have their
 * own entry points.
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

export * from "./model/mod.ts";
export * from "./adapter/mod.ts";
export {
  type DefinedTool,
  defineTool,
  type DefineToolOptions,
  type HandlerReturn,
  type InferToolSchema,
  isDefinedTool,
  type ObjectSchemaLiteral,
  type ToolArgs,
  type ToolResult,
  type ToolSchemaSource,
  type TypedHandler,
} from "./run/define_tool.ts";
export type { LocalHandler, ProgressUpdate, ToolContext } from "./run/local.ts";
