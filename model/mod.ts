/**
 * The canonical tool model: the `Tool` record (MCP 2025-11-25 plus namespace,
 * version and tags), tool IDs, tags, backend bindings, JSON forms, typed errors
 * and the Hyperjump-backed {@linkcode DefaultValidator}.
 *
 * Pure: no I/O, no network, no `node:` modules of its own.
 *
 * @example Seed 004's Example_createTool
 * ```ts
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
 * console.log(`Tool ID: ${toolId(tool)}`); // Tool ID: docs:search
 * ```
 *
 * @module
 */

export * from "./tool.ts";
export * from "./errors.ts";
export * from "./tool_id.ts";
export * from "./tags.ts";
export * from "./backend.ts";
export * from "./validate_tool.ts";
export * from "./json.ts";
export * from "./schema_validator.ts";
export * from "./default_validator.ts";
export * from "./schema_structure.ts";
