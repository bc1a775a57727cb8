/**
 * The Anthropic adapter: Messages API tools (`name`, `description`,
 * `input_schema`, `strict`, `input_examples`, `cache_control`), their
 * preflight rules and `tool_use` blocks.
 *
 * @module
 */

import type { ToolIssue } from "../../model/errors.ts";
import type { CanonicalTool } from "../canonical_tool.ts";
import { clone, type Obj, put, WarningSink } from "../_schema/mod.ts";
import { escapePointerToken } from "../../model/json_pointer.ts";
import { ANTHROPIC_PROFILE } from "./profile.ts";
import type {
  Adapter,
  CanonicalResult,
  ConversionResult,
  ConvertOptions,
  PreflightProblem,
  PreflightTool,
  ToolCallReading,
} from "../adapter.ts";
import { walkSchema } from "../_walk/mod.ts";
import {
  canonicalName,
  check,
  checkNameAndDescription,
  dropToolFields,
  fieldsOf,
  otherFields,
  providerName,
  readInputSchema,
  requireObject,
  strictNormalizer,
  strictOrNot,
} from "../_provider/mod.ts";

/** An Anthropic Messages API tool. */
export interface AnthropicTool {
  /** The tool name (`[A-Za-z0-9_-]`, at most 64). */
  name: string;
  /** What the tool does. */
  description?: string;
  /** JSON Schema of the input; root `type: "object"`. */
  input_schema: Record<string, unknown>;
  /** Strict tool use. */
  strict?: boolean;
  /** Example inputs, each valid under `input_schema`. */
  input_examples?: unknown[];
  /** Prompt-caching breakpoint. */
  cache_control?: Record<string, unknown>;
  /** Any other field of the API, kept as it is. */
  [field: string]: unknown;
}

const FIELDS = ["name", "description", "input_schema"];

/**
 * Anthropic tools. `strict` defaults to the source tool's flag, else `false`
 * (strict tools share request-wide budgets). `input_examples`,
 * `cache_control` and any other field are kept through round trips.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { anthropicAdapter } from "@toolfoundation/core/adapter";
 *
 * const source = {
 *   name: "get_stock_price",
 *   input_schema: { type: "object", properties: { ticker: { type: "string" } }, required: ["ticker"] },
 *   input_examples: [{ ticker: "AAPL" }],
 *   cache_control: { type: "ephemeral" },
 * };
 * const back = anthropicAdapter.fromCanonical(anthropicAdapter.toCanonical(source).tool).tool;
 * assert.deepEqual(back.input_examples, [{ ticker: "AAPL" }]);
 * assert.deepEqual(back.cache_control, { type: "ephemeral" });
 * ```
 */
export const anthropicAdapter: Adapter<AnthropicTool> = {
  format: "anthropic",
  profile: ANTHROPIC_PROFILE,

  toCanonical(value: unknown, options?: ConvertOptions): CanonicalResult {
    const tool = requireObject("anthropic", value);
    const profile = options?.profile ?? ANTHROPIC_PROFILE;
    const sink = new WarningSink("anthropic", "canonical");
    const issues: ToolIssue[] = [];
    checkNameAndDescription(tool, "", issues);
    if (tool.input_schema === undefined) {
      issues.push({ path: "/input_schema", message: "is required" });
    }
    const inputSchema = readInputSchema(
      "anthropic",
      tool.input_schema,
      "/input_schema",
      sink,
      issues,
    );
    check("anthropic", issues);
    const canonical: CanonicalTool = {
      ...canonicalName(tool.name as string, profile, options, sink),
      ...(typeof tool.description === "string" ? { description: tool.description } : {}),
      inputSchema: inputSchema as CanonicalTool["inputSchema"],
    };
    const extra = otherFields(tool, FIELDS);
    if (Object.keys(extra).length > 0) canonical.providerFields = { anthropic: extra };
    return {
      tool: canonical,
      warnings: sink.list.map((w) => ({
        ...w,
        path: anthropicAdapter.sourcePointer(w.path, tool),
      })),
    };
  },

  fromCanonical(tool: CanonicalTool, options?: ConvertOptions): ConversionResult<AnthropicTool> {
    const profile = options?.profile ?? ANTHROPIC_PROFILE;
    const sink = new WarningSink("canonical", "anthropic");
    const name = providerName(tool, profile, options, sink);
    dropToolFields(tool, sink);
    const fields = fieldsOf(tool, "anthropic");
    const requested = options?.strict ??
      (typeof fields.strict === "boolean" ? fields.strict : false);
    const describe = options?.describeDropped ?? true;
    const decision = strictOrNot(
      requested,
      profile.strictSchema,
      sink,
      (strictProfile) =>
        walkSchema(tool.inputSchema, {
          profile: strictProfile ?? profile.schema,
          from: "canonical",
          to: "anthropic",
          base: "/inputSchema",
          describe,
        }),
    );
    const out: Obj = { name };
    if (tool.description !== undefined) out.description = tool.description;
    out.input_schema = decision.schema;
    if (decision.applied) out.strict = true;
    else if (typeof fields.strict === "boolean" || options?.strict !== undefined) {
      out.strict = false;
    }
    for (const [key, value] of Object.entries(fields)) {
      if (key !== "strict" && !Object.hasOwn(out, key)) {
        put(out, key, clone(value, `/providerFields/anthropic/${escapePointerToken(key)}`));
      }
    }
    return {
      tool: out as AnthropicTool,
      warnings: sink.list,
      normalizer: strictNormalizer(decision),
      strict: { requested, applied: decision.applied, reasons: decision.reasons },
    };
  },

  sourcePointer(pointer: string, _tool: unknown): string {
    return pointer.startsWith("/inputSchema") ? `/input_schema${pointer.slice(12)}` : pointer;
  },

  preflightTool(
    tool: Record<string, unknown>,
    path: string,
    problems: PreflightProblem[],
  ): PreflightTool {
    if (tool.input_schema === undefined) {
      problems.push({
        code: "invalid_shape",
        path: `${path}/input_schema`,
        message: "is required",
      });
    }
    return {
      name: tool.name,
      namePath: `${path}/name`,
      schemas: tool.input_schema === undefined
        ? []
        : [{ schema: tool.input_schema, path: `${path}/input_schema`, rootCombinators: false }],
      strict: tool.strict === true,
    };
  },

  readToolCall(call: Record<string, unknown>): ToolCallReading | undefined {
    if (call.type !== "tool_use") return undefined;
    return { name: call.name, callId: call.id, arguments: call.input ?? {} };
  },
};
