/**
 * The MCP provider: its adapter (conversion, preflight, tool-call reader) and
 * its dated profile.
 *
 * @module
 */

export { mcpAdapter, type McpOptions } from "./adapter.ts";
export { MCP_PROFILE } from "./profile.ts";
