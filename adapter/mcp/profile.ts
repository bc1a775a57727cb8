/**
 * The MCP profile: name rules and schema rules of MCP tools, dated.
 *
 * @module
 */

import type { ProviderProfile } from "../profile.ts";
import { PASS } from "../_provider/mod.ts";

/**
 * MCP 2025-11-25: names of `[A-Za-z0-9_.-]`, up to 128; any JSON Schema.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MCP_PROFILE } from "@toolfoundation/core/adapter";
 *
 * assert.equal(MCP_PROFILE.names.maxLength, 128);
 * ```
 */
export const MCP_PROFILE: ProviderProfile = {
  format: "mcp",
  date: "2025-11-25",
  notes: "MCP specification 2025-11-25 (the version @modelcontextprotocol/sdk 1.32.2 speaks)",
  names: { allowed: "A-Za-z0-9_.\\-", maxLength: 128, separator: "__" },
  schema: PASS,
};
