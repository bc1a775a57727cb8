/**
 * JSON serialization of tools: the full form (with namespace, version and
 * tags) and the MCP form (without them).
 *
 * @module
 */

import { InvalidToolError } from "./errors.ts";
import type { McpTool, Tool } from "./tool.ts";
import { validateTool } from "./validate_tool.ts";

const EXTENSIONS = new Set(["namespace", "version", "tags"]);

/**
 * The tool's fields other than the extensions. Built with `Object.fromEntries`
 * (own data properties), so that a field named `__proto__` stays a field on
 * engines where assigning that key would set the prototype.
 */
function withoutExtensions(tool: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(tool).filter(([key]) => !EXTENSIONS.has(key)));
}

function parseObject(text: string | Uint8Array): Record<string, unknown> {
  const source = typeof text === "string" ? text : new TextDecoder().decode(text);
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (cause) {
    throw new InvalidToolError([{
      path: "",
      message: `is not valid JSON (${(cause as Error).message})`,
    }], { cause });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidToolError([{ path: "", message: "must be a JSON object" }]);
  }
  return value as Record<string, unknown>;
}

/**
 * Serializes a tool with every field, extensions included.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toJSON } from "@toolfoundation/core/model";
 *
 * const text = toJSON({ name: "greet", inputSchema: { type: "object" }, namespace: "example" });
 * assert.equal(text, '{"name":"greet","inputSchema":{"type":"object"},"namespace":"example"}');
 * ```
 *
 * @param tool The tool.
 * @returns JSON text.
 */
export function toJSON(tool: Tool): string {
  return JSON.stringify(tool);
}

/**
 * Parses and checks a tool from JSON text or bytes, keeping every field.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fromJSON } from "@toolfoundation/core/model";
 *
 * const tool = fromJSON('{"name":"greet","inputSchema":{"type":"object"},"version":"2.0.0"}');
 * assert.equal(tool.version, "2.0.0");
 * ```
 *
 * @param text JSON text or UTF-8 bytes.
 * @returns The tool.
 * @throws {InvalidToolError} When the text is not JSON or not a valid tool.
 */
export function fromJSON(text: string | Uint8Array): Tool {
  const value = parseObject(text);
  validateTool(value);
  return value;
}

/**
 * Serializes a tool as an MCP `Tool`: `namespace`, `version` and `tags` are
 * stripped; every MCP field is kept.
 *
 * @example The MCP form drops namespace, version and tags; the full form keeps them
 * ```ts
 * import assert from "node:assert/strict";
 * import { toJSON, toMCPJSON, type Tool } from "@toolfoundation/core/model";
 *
 * const tool: Tool = {
 *   name: "greet",
 *   description: "Greet a user",
 *   inputSchema: { type: "object", properties: { name: { type: "string" } } },
 *   namespace: "example",
 *   version: "2.0.0",
 * };
 * const mcp = JSON.parse(toMCPJSON(tool));
 * assert.equal("namespace" in mcp, false);
 * const full = JSON.parse(toJSON(tool));
 * assert.equal(full.namespace, "example");
 * assert.equal(full.version, "2.0.0");
 * ```
 *
 * @param tool The tool.
 * @returns JSON text of the MCP tool.
 */
export function toMCPJSON(tool: Tool): string {
  return JSON.stringify(withoutExtensions(tool as unknown as Record<string, unknown>));
}

/**
 * Parses and checks an MCP `Tool` from JSON text or bytes. `namespace`,
 * `version` and `tags` are ignored if present, so the result has none.
 *
 * @example Reading an MCP tool
 * ```ts
 * import assert from "node:assert/strict";
 * import { fromMCPJSON, type Tool } from "@toolfoundation/core/model";
 *
 * const tool: Tool = fromMCPJSON(`{
 *   "name": "calculate",
 *   "description": "Perform calculations",
 *   "inputSchema": {"type": "object", "properties": {"expression": {"type": "string"}}, "required": ["expression"]}
 * }`);
 * assert.equal(tool.name, "calculate");
 * assert.equal(tool.namespace, undefined); // MCP JSON has no namespace
 * ```
 *
 * @param text JSON text or UTF-8 bytes.
 * @returns The tool, without extensions.
 * @throws {InvalidToolError} When the text is not JSON or not a valid MCP tool.
 */
export function fromMCPJSON(text: string | Uint8Array): McpTool {
  const value = withoutExtensions(parseObject(text));
  validateTool(value);
  return value;
}
