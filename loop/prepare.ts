/**
 * The request side of the loop: a set of tools converted to one provider
 * format, with the name table and normalizers that read the model's calls
 * back.
 *
 * @module
 */

import {
  type AnthropicTool,
  type ConvertOptions,
  defaultRegistry,
  type FeatureLossWarning,
  type GeminiFunctionDeclaration,
  type InputNormalizer,
  type OpenAIChatTool,
  type OpenAIResponsesTool,
  ToolNameMap,
} from "../adapter/mod.ts";
import { type Tool, toolId } from "../model/mod.ts";
import type { LoopFormat, ReadCallsOptions } from "./tool_call.ts";

/** Options of {@linkcode prepareTools}. */
export interface PrepareToolsOptions {
  /** Strict mode for OpenAI and Anthropic (see `ConvertOptions.strict`). */
  strict?: boolean | "auto";
  /** Gemini: `parameters` (default) or `parametersJsonSchema`. */
  geminiSchema?: "parameters" | "parametersJsonSchema";
}

/** The tool definition each format's request carries, by format. */
export interface LoopToolDefinitions {
  /** Chat Completions: `{ type: "function", function: { name, description, parameters, strict } }`. */
  "openai": OpenAIChatTool;
  /** Responses: `{ type: "function", name, description, parameters, strict }`. */
  "openai-responses": OpenAIResponsesTool;
  /** Messages: `{ name, description, input_schema, strict? }`. */
  "anthropic": AnthropicTool;
  /** Gemini: a function declaration (the request wraps them in one `Tool`). */
  "gemini": GeminiFunctionDeclaration;
}

/** A Gemini request's `Tool`: the function declarations, together. */
export interface GeminiRequestTool {
  /** The functions offered to the model. */
  functionDeclarations: GeminiFunctionDeclaration[];
}

/**
 * The value of a request's `tools` field for a format: the definitions, or
 * for Gemini one `Tool` holding them all.
 */
export type LoopRequestTools<F extends LoopFormat> = F extends "gemini" ? GeminiRequestTool[]
  : LoopToolDefinitions[F][];

/**
 * Tools converted for one request, and what reads the model's calls back.
 * `F` is the format: with a literal format, the definitions and the request's
 * `tools` have that provider's own type.
 */
export interface PreparedTools<F extends LoopFormat = LoopFormat> extends ReadCallsOptions {
  /** The format. */
  format: F;
  /** The canonical tool IDs, in order (the tools offered to the model). */
  offered: string[];
  /** The converted tool definitions, in order. */
  definitions: LoopToolDefinitions[F][];
  /**
   * The value of the request's `tools` field: the definitions, or for Gemini
   * `[{ functionDeclarations: definitions }]`.
   */
  requestTools: LoopRequestTools<F>;
  /** The request's name table. */
  names: ToolNameMap;
  /** Normalizers by canonical tool ID. */
  normalizers: Record<string, InputNormalizer>;
  /** Every feature-loss warning of the conversions, each with `toolId`. */
  warnings: Array<FeatureLossWarning & { toolId: string }>;
}

/**
 * Converts tools for one request of `format` and keeps the name table and
 * normalizers the readers need: pass the result as the options of
 * {@linkcode readToolCalls}, the accumulators and {@linkcode toolStep}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { prepareTools, readToolCalls } from "@toolfoundation/core/loop";
 *
 * const prepared = prepareTools([
 *   { name: "read", namespace: "files.v2", inputSchema: { type: "object", properties: { path: { type: "string" } } } },
 * ], "openai");
 * const name = prepared.definitions[0].function.name; // typed: an OpenAIChatTool
 * assert.equal(name, "files_v2__read_35f1165c");
 * const [call] = readToolCalls("openai", {
 *   choices: [{ message: { role: "assistant", tool_calls: [{ id: "c1", type: "function", function: { name, arguments: "{}" } }] } }],
 * }, prepared);
 * assert.equal(call.toolId, "files.v2:read");
 * ```
 *
 * @param tools The tools.
 * @param format The provider format.
 * @param options Strict mode and Gemini schema form.
 * @returns The definitions, name table, normalizers and warnings.
 * @throws {NameCollisionError} When two tools map to one provider name.
 */
export function prepareTools<F extends LoopFormat>(
  tools: readonly Tool[],
  format: F,
  options: PrepareToolsOptions = {},
): PreparedTools<F> {
  const offered = tools.map((t) => toolId(t));
  const names = new ToolNameMap(offered, format);
  const registry = defaultRegistry();
  const convert: ConvertOptions = { names };
  if (options.strict !== undefined) convert.strict = options.strict;
  if (options.geminiSchema !== undefined) convert.geminiSchema = options.geminiSchema;
  const definitions: LoopToolDefinitions[F][] = [];
  const normalizers: Record<string, InputNormalizer> = {};
  const warnings: PreparedTools<F>["warnings"] = [];
  tools.forEach((tool, i) => {
    const result = registry.convert(tool, "mcp", format, convert);
    definitions.push(result.tool as LoopToolDefinitions[F]);
    normalizers[offered[i]] = result.normalizer;
    for (const w of result.warnings) warnings.push({ ...w, toolId: offered[i] });
  });
  return {
    format,
    offered,
    definitions,
    requestTools:
      (format === "gemini"
        ? [{ functionDeclarations: definitions }]
        : definitions) as LoopRequestTools<F>,
    names,
    normalizers,
    warnings,
  };
}
