/**
 * toolfoundation: the canonical tool model, a dialect-aware JSON Schema
 * validator that never fetches, and (as they land) exact, loud adapters.
 *
 * This entry point is runtime-neutral: it does no I/O and loads neither the MCP
 * client nor `node:` modules of its own.
 *
 * @example
 * ```ts
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
 * console.log(toolId(tool)); // math:add
 * ```
 *
 * @module
 */

export * from "./model/mod.ts";
export * from "./adapter/mod.ts";
