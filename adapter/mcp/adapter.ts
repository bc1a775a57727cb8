/**
 * The MCP adapter: MCP `Tool` (with toolfoundation's namespace, version and
 * tags) ↔ canonical, lossless both ways; preflight by `validateTool`; calls
 * `{name, arguments}` (the fallback reader).
 *
 * @module
 */

import type { Tool } from "../../model/tool.ts";
import { validateTool } from "../../model/validate_tool.ts";
import { InvalidToolError } from "../../model/errors.ts";
import {
  type CanonicalTool,
  PROVIDER_FIELDS_META_KEY,
  type ProviderFields,
} from "../canonical_tool.ts";
import { clone, deepEqual, put, WarningSink } from "../_schema/mod.ts";
import { escapePointerToken } from "../../model/json_pointer.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";
import { MCP_PROFILE } from "./profile.ts";
import type {
  Adapter,
  CanonicalResult,
  ConversionResult,
  ConvertOptions,
  PreflightProblem,
  PreflightTool,
  ToolCallReading,
} from "../adapter.ts";
import { IDENTITY_NORMALIZER } from "../normalizer.ts";

/**
 * The MCP adapter's own conversion options, given as
 * `{ providers: { mcp: {...} } }` in {@linkcode ConvertOptions}.
 *
 * @example MCP `Tool` fields only
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultRegistry, type McpOptions } from "@toolfoundation/core/adapter";
 *
 * const mcp: McpOptions = { fields: "mcp" };
 * const out = defaultRegistry().convert(
 *   { name: "add", namespace: "math", tags: ["calc"], inputSchema: { type: "object" } },
 *   "mcp",
 *   "mcp",
 *   { providers: { mcp } },
 * );
 * assert.deepEqual(out.tool, { name: "add", inputSchema: { type: "object" } });
 * assert.deepEqual(out.warnings.map((w) => `${w.path} ${w.action}`), [
 *   "/namespace dropped",
 *   "/tags dropped",
 * ]);
 * ```
 */
export interface McpOptions {
  /**
   * `"tool"` (the default): the library's {@linkcode Tool}, an MCP tool with
   * `namespace`, `version` and `tags` kept as fields, lossless. `"mcp"`: the
   * fields of an MCP 2025-11-25 `Tool` only, as an MCP client or server
   * expects them (what `serve` sends); every other field is dropped, each
   * with a `dropped` warning.
   */
  fields?: "tool" | "mcp";
}

/** The fields of an MCP 2025-11-25 `Tool`. */
const MCP_TOOL_FIELDS = new Set([
  "name",
  "title",
  "description",
  "inputSchema",
  "outputSchema",
  "annotations",
  "icons",
  "execution",
  "_meta",
]);

/** Why each field of the library's tool is not an MCP field. */
const MODEL_FIELDS: Readonly<Record<string, string>> = {
  namespace: "the namespace is the library's (the tool ID); an MCP tool is known by its name alone",
  version: "the version is the library's; MCP tools carry none",
  tags: "tags are the library's, for discovery; MCP tools carry none",
};

function fieldsOption(options: ConvertOptions | undefined): "tool" | "mcp" {
  const own = options?.providers !== undefined && Object.hasOwn(options.providers, "mcp")
    ? options.providers.mcp
    : undefined;
  const fields = isNonArrayObject(own) ? own.fields : undefined;
  return fields === "mcp" ? "mcp" : "tool";
}

/**
 * MCP ↔ canonical. Reading validates the tool (`validateTool`) and keeps every
 * field and keyword; provider-only fields of the canonical tool are kept in
 * `_meta["dev.toolfoundation/provider-fields"]` so that they survive a trip
 * through MCP.
 *
 * @example Lossless round trip
 * ```ts
 * import assert from "node:assert/strict";
 * import { mcpAdapter } from "@toolfoundation/core/adapter";
 *
 * const tool = {
 *   name: "t",
 *   inputSchema: { type: "object" as const, properties: { x: { const: null, "x-note": 1 } } },
 *   outputSchema: { type: "object" as const },
 *   annotations: { readOnlyHint: true },
 *   tags: ["a"],
 * };
 * const back = mcpAdapter.fromCanonical(mcpAdapter.toCanonical(tool).tool).tool;
 * assert.equal(JSON.stringify(back) === JSON.stringify(tool), true);
 * ```
 */
export const mcpAdapter: Adapter<Tool> = {
  format: "mcp",
  profile: MCP_PROFILE,

  toCanonical(tool: unknown, _options?: ConvertOptions): CanonicalResult {
    validateTool(tool);
    const canonical: CanonicalTool = clone(tool, "", 0);
    const meta = canonical._meta;
    const stash = isNonArrayObject(meta) && Object.hasOwn(meta, PROVIDER_FIELDS_META_KEY)
      ? meta[PROVIDER_FIELDS_META_KEY]
      : undefined;
    if (isNonArrayObject(stash)) canonical.providerFields = clone(stash) as ProviderFields;
    return { tool: canonical, warnings: [] };
  },

  fromCanonical(tool: CanonicalTool, options?: ConvertOptions): ConversionResult<Tool> {
    const sink = new WarningSink("canonical", "mcp");
    const onlyMcp = fieldsOption(options) === "mcp";
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(tool)) {
      if (key === "providerFields") continue;
      const path = `/${escapePointerToken(key)}`;
      if (onlyMcp && !MCP_TOOL_FIELDS.has(key)) {
        const why = Object.hasOwn(MODEL_FIELDS, key)
          ? MODEL_FIELDS[key]
          : "it is not a field of an MCP 2025-11-25 Tool";
        sink.add(path, key, "dropped", "none", `${key} is dropped: ${why}`);
        continue;
      }
      put(out, key, clone(value, path));
    }
    const fields = tool.providerFields;
    if (fields !== undefined && Object.keys(fields).length > 0) {
      const meta = isNonArrayObject(out._meta) ? out._meta : {};
      if (!deepEqual(meta[PROVIDER_FIELDS_META_KEY], fields)) {
        out._meta = { ...meta, [PROVIDER_FIELDS_META_KEY]: clone(fields, "/providerFields") };
        sink.add(
          `/_meta/${escapePointerToken(PROVIDER_FIELDS_META_KEY)}`,
          "providerFields",
          "rewritten",
          "none",
          `provider-only fields (${Object.keys(fields).join(", ")}) are kept in _meta`,
        );
      }
    }
    return { tool: out as unknown as Tool, warnings: sink.list, normalizer: IDENTITY_NORMALIZER };
  },

  sourcePointer(pointer: string, _tool: unknown): string {
    return pointer;
  },

  preflightTool(
    tool: Record<string, unknown>,
    path: string,
    problems: PreflightProblem[],
  ): PreflightTool {
    try {
      validateTool(tool);
    } catch (error) {
      if (!(error instanceof InvalidToolError)) throw error;
      for (const issue of error.issues) {
        problems.push({
          code: "invalid_tool",
          path: path + issue.path,
          tool: String(tool.name),
          message: issue.message,
        });
      }
    }
    return {
      name: tool.name,
      namePath: `${path}/name`,
      schemas: [],
      strict: false,
      nameChecked: true,
    };
  },

  readToolCall(call: Record<string, unknown>): ToolCallReading | undefined {
    if (typeof call.name !== "string") return undefined;
    return { name: call.name, arguments: call.arguments ?? {}, nameIsToolId: true };
  },

  toolCallFallback: true,
};
