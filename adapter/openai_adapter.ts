/**
 * The OpenAI adapters: Chat Completions (`{type, function: {...}}`) and the
 * Responses API (flat) function tools, with strict mode.
 *
 * @module
 */

import type { ToolIssue } from "../model/errors.ts";
import type { CanonicalTool } from "./canonical_tool.ts";
import { clone, type Obj, put } from "./_json.ts";
import { escapePointerToken, isNonArrayObject } from "../model/_json_pointer.ts";
import { OPENAI_PROFILE, OPENAI_RESPONSES_PROFILE, type ProviderProfile } from "./profile.ts";
import type { Adapter, CanonicalResult, ConversionResult, ConvertOptions } from "./registry.ts";
import { WarningSink } from "./_sink.ts";
import { walkSchema } from "./_walk.ts";
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
} from "./_provider.ts";
import { strictNormalizer, strictOrNot } from "./_strict.ts";

/** An OpenAI Chat Completions function tool. */
export interface OpenAIChatTool {
  /** Always `"function"`. */
  type: "function";
  /** The function. */
  function: {
    /** The function name (`[A-Za-z0-9_-]`, at most 64). */
    name: string;
    /** What the function does. */
    description?: string;
    /** JSON Schema of the arguments. */
    parameters?: Record<string, unknown>;
    /** Strict mode. */
    strict?: boolean;
  };
}

/** An OpenAI Responses API function tool. */
export interface OpenAIResponsesTool {
  /** Always `"function"`. */
  type: "function";
  /** The function name (`[A-Za-z0-9_-]`, at most 64). */
  name: string;
  /** What the function does. */
  description?: string;
  /** JSON Schema of the arguments. */
  parameters?: Record<string, unknown>;
  /** Strict mode (the API's default is strict when absent, so it is always written). */
  strict?: boolean;
}

const FIELDS = ["name", "description", "parameters", "strict"];

function make<T>(format: string, flat: boolean, builtin: ProviderProfile): Adapter<T> {
  const root = flat ? "" : "/function";
  const sourcePointer = (pointer: string): string => {
    if (pointer.startsWith("/inputSchema")) return `${root}/parameters${pointer.slice(12)}`;
    if (pointer === "/name" || pointer === "/description") return `${root}${pointer}`;
    return pointer;
  };
  return {
    format,
    profile: builtin,

    toCanonical(value: unknown, options?: ConvertOptions): CanonicalResult {
      const tool = requireObject(format, value);
      const profile = options?.profile ?? builtin;
      const sink = new WarningSink(format, "canonical");
      const issues: ToolIssue[] = [];
      if (tool.type !== "function") issues.push({ path: "/type", message: 'must be "function"' });
      const fn = flat ? tool : tool.function;
      if (!isNonArrayObject(fn)) {
        issues.push({ path: "/function", message: "must be an object with name and parameters" });
        check(format, issues);
        return undefined as never;
      }
      checkNameAndDescription(fn, root, issues);
      const inputSchema = readInputSchema(
        format,
        fn.parameters,
        `${root}/parameters`,
        sink,
        issues,
      );
      check(format, issues);
      const canonical: CanonicalTool = {
        ...canonicalName(fn.name as string, profile, options, sink),
        ...(typeof fn.description === "string" ? { description: fn.description } : {}),
        inputSchema: inputSchema as CanonicalTool["inputSchema"],
      };
      const extra: Obj = otherFields(fn, flat ? [...FIELDS, "type"] : FIELDS, root);
      if (fn.strict !== undefined) extra.strict = fn.strict;
      if (Object.keys(extra).length > 0) canonical.providerFields = { openai: extra };
      return {
        tool: canonical,
        warnings: sink.list.map((w) => ({ ...w, path: sourcePointer(w.path) })),
      };
    },

    fromCanonical(tool: CanonicalTool, options?: ConvertOptions): ConversionResult<T> {
      const profile = options?.profile ?? builtin;
      const sink = new WarningSink("canonical", format);
      const name = providerName(tool, profile, options, sink);
      dropToolFields(tool, sink);
      const fields = fieldsOf(tool, "openai");
      const requested = options?.strict ??
        (typeof fields.strict === "boolean" ? fields.strict : "auto");
      const decision = strictOrNot(
        requested,
        profile.strictSchema,
        sink,
        (strictProfile) =>
          strictProfile === undefined
            ? {
              schema: clone(tool.inputSchema, "/inputSchema") as Obj,
              warnings: [],
              nullable: new Map(),
            }
            : walkSchema(tool.inputSchema, {
              profile: strictProfile,
              from: "canonical",
              to: format,
              base: "/inputSchema",
              describe: options?.describeDropped ?? true,
            }),
      );
      const fn: Obj = { name };
      if (tool.description !== undefined) fn.description = tool.description;
      fn.parameters = decision.schema;
      fn.strict = decision.applied;
      for (const [key, value] of Object.entries(fields)) {
        if (key !== "strict" && !Object.hasOwn(fn, key)) {
          put(fn, key, clone(value, `/providerFields/openai/${escapePointerToken(key)}`));
        }
      }
      const out = flat ? { type: "function", ...fn } : { type: "function", function: fn };
      const normalizer = strictNormalizer(decision);
      return {
        tool: out as T,
        warnings: sink.list,
        normalizer,
        strict: { requested, applied: decision.applied, reasons: decision.reasons },
      };
    },

    sourcePointer(pointer: string, _tool: unknown): string {
      return sourcePointer(pointer);
    },
  };
}

/**
 * OpenAI Chat Completions function tools. `strict` defaults to `"auto"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mcpAdapter, openaiAdapter } from "@toolfoundation/core/adapter";
 *
 * const canonical = mcpAdapter.toCanonical({
 *   name: "get_weather",
 *   inputSchema: {
 *     type: "object",
 *     properties: { city: { type: "string" }, unit: { enum: ["c", "f"] } },
 *     required: ["city"],
 *     additionalProperties: false,
 *   },
 * }).tool;
 * const { tool, strict } = openaiAdapter.fromCanonical(canonical);
 * assert.equal(strict?.applied, true);
 * assert.deepEqual(tool.function.parameters?.required, ["city", "unit"]);
 * ```
 */
export const openaiAdapter: Adapter<OpenAIChatTool> = make<OpenAIChatTool>(
  "openai",
  false,
  OPENAI_PROFILE,
);

/**
 * OpenAI Responses API function tools (flat shape). `strict` is always
 * written, because the API treats an absent flag as strict.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openaiResponsesAdapter } from "@toolfoundation/core/adapter";
 *
 * const { tool } = openaiResponsesAdapter.toCanonical({
 *   type: "function",
 *   name: "math__add",
 *   parameters: { type: "object", properties: { a: { type: "number" } } },
 *   strict: false,
 * });
 * assert.equal(tool.namespace, "math");
 * assert.equal(tool.name, "add");
 * ```
 */
export const openaiResponsesAdapter: Adapter<OpenAIResponsesTool> = make<OpenAIResponsesTool>(
  "openai-responses",
  true,
  OPENAI_RESPONSES_PROFILE,
);
