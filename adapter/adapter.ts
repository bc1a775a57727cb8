/**
 * The one interface of a provider: an {@linkcode Adapter} carries a format's
 * dated profile, its tool conversion (both ways), its preflight rules and its
 * tool-call reader. The registry holds adapters by format name and derives
 * conversion, preflight and tool-call reading from them.
 *
 * @module
 */

import type { CanonicalTool } from "./canonical_tool.ts";
import type { InputNormalizer } from "./normalizer.ts";
import type { ProviderProfile } from "./profile.ts";
import type { FeatureLossWarning } from "./warning.ts";

/**
 * A two-way table of canonical tool IDs and provider names, as conversions
 * and tool-call reading use it. {@linkcode ToolNameMap} is the built-in one;
 * declared here so that the adapter contract does not depend on it.
 */
export interface NameTable {
  /** The number of tools in the table. */
  readonly size: number;
  /**
   * The provider name of a tool ID.
   *
   * @param id The canonical tool ID.
   * @returns The provider name.
   */
  toProvider(id: string): string;
  /**
   * The canonical ID of a provider name.
   *
   * @param providerName The name in the provider's tool call.
   * @returns The canonical tool ID.
   */
  toCanonical(providerName: string): string;
  /**
   * Whether a provider name is in the table.
   *
   * @param providerName The provider name.
   * @returns `true` when it maps to a tool.
   */
  has(providerName: string): boolean;
}

/** One problem the provider would reject. */
export interface PreflightProblem {
  /** Stable code, e.g. `invalid_name`, `not_closed`, `unsupported_keyword`, `budget_exceeded`. */
  code: string;
  /** JSON Pointer into the `tools` array, e.g. `/0/function/parameters/properties/x/default`. */
  path: string;
  /** The tool's name as written, when known. */
  tool?: string;
  /** What is wrong. */
  message: string;
}

/** Options of {@linkcode preflight}. */
export interface PreflightOptions {
  /** A profile that replaces the target's built-in one (other limits or names). */
  profile?: ProviderProfile;
}

/** A provider's tool call, read into canonical terms. */
export interface CanonicalToolCall {
  /** The format the call was recognised as (`openai`, `openai-responses`, `anthropic`, `gemini`, `mcp`, or a registered one). */
  format: string;
  /** The canonical tool ID. */
  toolId: string;
  /** The provider's call ID, when it has one. */
  callId?: string;
  /** The arguments (parsed from JSON text where the provider sends text, then normalized). */
  arguments: unknown;
}

/** Options of {@linkcode parseToolCall}. */
export interface ParseToolCallOptions {
  /** Name table of the request's tools (needed for hashed names). */
  names?: NameTable;
  /** Normalizers by canonical tool ID (from the strict conversions). */
  normalizers?: Readonly<Record<string, InputNormalizer>>;
}

/**
 * Options of one provider, by format name: each adapter reads its own entry
 * (e.g. `{ gemini: { schema: "parametersJsonSchema" } }`, see `GeminiOptions`).
 */
export type ProviderOptions = Readonly<Record<string, unknown>>;

/** Options of a conversion. Each adapter reads the ones that concern it. */
export interface ConvertOptions {
  /**
   * Strict mode for OpenAI and Anthropic: `true`, `false`, or `"auto"` (strict
   * only when that changes nothing about which inputs are accepted). Default:
   * the source tool's own `strict` flag, else `"auto"` for OpenAI and `false`
   * for Anthropic.
   */
  strict?: boolean | "auto";
  /** Write dropped scalar constraints (e.g. `minLength: 3`) into descriptions (default `true`). */
  describeDropped?: boolean;
  /** Name table for provider names (needed to decode hashed names). */
  names?: NameTable;
  /**
   * Gemini: write `parameters` (OpenAPI subset, the default) or `parametersJsonSchema`.
   *
   * @deprecated Use `providers: { gemini: { schema } }` (`GeminiOptions`); this
   * field keeps working and wins when both are given.
   */
  geminiSchema?: "parameters" | "parametersJsonSchema";
  /** Options of single providers, by format name (each adapter reads its own). */
  providers?: ProviderOptions;
  /** A profile that replaces the target's built-in one (e.g. other limits). */
  profile?: ProviderProfile;
}

/** Whether strict mode was asked for, whether it was applied, and why not. */
export interface StrictDecision {
  /** The `strict` value asked for. */
  requested: boolean | "auto";
  /** Whether the result is strict. */
  applied: boolean;
  /** Why `"auto"` did not go strict: the changes strict mode would have made. */
  reasons: string[];
}

/** The result of converting a canonical tool to a format. */
export interface ConversionResult<T = unknown> {
  /** The converted tool. */
  tool: T;
  /** Every feature dropped, rewritten or moved, in a deterministic order. */
  warnings: FeatureLossWarning[];
  /** Maps the model's arguments back to the original semantics (strict modes). */
  normalizer: InputNormalizer;
  /** The strict-mode decision, for targets that have a strict mode. */
  strict?: StrictDecision;
}

/** The result of reading a tool of some format into the canonical form. */
export interface CanonicalResult {
  /** The canonical tool. */
  tool: CanonicalTool;
  /** Features that could not be carried into the canonical form unchanged. */
  warnings: FeatureLossWarning[];
}

/** One schema of a tool, as preflight sees it. */
export interface PreflightSchema {
  /** The schema as written in the request. */
  schema: unknown;
  /** JSON Pointer of the schema into the `tools` array. */
  path: string;
  /** Whether the root may carry `anyOf`/`oneOf`/`allOf` outside strict mode (default `true`). */
  rootCombinators?: boolean;
  /** Whether the root may carry `$schema` (default `true`). */
  rootSchemaKeyword?: boolean;
  /**
   * The provider's own checks for a schema that is not JSON Schema (e.g.
   * Gemini's OpenAPI subset), instead of the JSON Schema checks.
   *
   * @param schema The schema.
   * @param path Its JSON Pointer into the `tools` array.
   * @param profile The profile in effect.
   * @param tool The tool's name, when known.
   * @returns The problems found.
   */
  check?(
    schema: unknown,
    path: string,
    profile: ProviderProfile,
    tool: string | undefined,
  ): PreflightProblem[];
}

/** One tool of a request, described by its adapter for the shared preflight checks. */
export interface PreflightTool {
  /** The tool's name as written. */
  name: unknown;
  /** JSON Pointer of the name into the `tools` array. */
  namePath: string;
  /** The tool's schemas, in the order they are checked. */
  schemas: PreflightSchema[];
  /** Whether the tool asks for strict mode (strict rules, limits and budgets apply). */
  strict: boolean;
  /** Whether the adapter has checked the name's characters and length itself. */
  nameChecked?: boolean;
}

/** A provider's tool call as its adapter reads it, before the name is mapped back. */
export interface ToolCallReading {
  /** The tool name as the provider wrote it. */
  name: unknown;
  /** The provider's call ID, when it has one. */
  callId?: unknown;
  /** The arguments (parsed, where the provider sends JSON text). */
  arguments: unknown;
  /** Whether `name` is the canonical tool ID itself (no provider encoding, e.g. MCP). */
  nameIsToolId?: boolean;
}

/**
 * One provider: its format name and dated profile, its tool conversion to and
 * from the canonical tool, and (optionally) its preflight rules and its
 * tool-call reader. Register it with {@linkcode AdapterRegistry.register}; the
 * registry's `convert`, `preflight` and `parseToolCall` then know the format.
 *
 * @example A provider whose tools are `{ id, about, args }`
 * ```ts
 * import assert from "node:assert/strict";
 * import { type Adapter, defaultRegistry, MCP_PROFILE } from "@toolfoundation/core/adapter";
 *
 * const toy: Adapter = {
 *   format: "toy",
 *   profile: { ...MCP_PROFILE, format: "toy" },
 *   toCanonical: (tool) => {
 *     const t = tool as { id: string; args: { type: "object" } };
 *     return { tool: { name: t.id, inputSchema: t.args }, warnings: [] };
 *   },
 *   fromCanonical: (tool) => ({
 *     tool: { id: tool.name, args: tool.inputSchema },
 *     warnings: [],
 *     normalizer: { identity: true, normalize: (a) => a, denormalize: (a) => a },
 *   }),
 *   sourcePointer: (pointer) => pointer.replace(/^\/inputSchema/, "/args"),
 * };
 * const registry = defaultRegistry().register(toy);
 * const out = registry.convert({ name: "add", inputSchema: { type: "object" } }, "mcp", "toy");
 * assert.deepEqual(out.tool, { id: "add", args: { type: "object" } });
 * ```
 */
export interface Adapter<T = unknown> {
  /** The format name, e.g. `openai`. */
  readonly format: string;
  /** The target's dated rules. */
  readonly profile: ProviderProfile;
  /**
   * Reads a tool of this format. Warning paths point into `tool`.
   *
   * @param tool The tool in this format (any value; it is checked).
   * @param options Conversion options.
   * @returns The canonical tool and warnings.
   */
  toCanonical(tool: unknown, options?: ConvertOptions): CanonicalResult;
  /**
   * Writes a canonical tool in this format. Warning paths point into the
   * canonical tool (see {@linkcode Adapter.sourcePointer}).
   *
   * @param tool The canonical tool.
   * @param options Conversion options.
   * @returns The converted tool, warnings, normalizer and strict decision.
   */
  fromCanonical(tool: CanonicalTool, options?: ConvertOptions): ConversionResult<T>;
  /**
   * Maps a pointer into the canonical tool (e.g. `/inputSchema/properties/x`)
   * to the same place in a tool of this format.
   *
   * @param pointer The canonical pointer.
   * @param tool The tool of this format the canonical one was read from.
   * @returns The pointer into `tool`.
   */
  sourcePointer(pointer: string, tool: unknown): string;
  /**
   * The preflight rules: describes one tool of a request in this format (its
   * name, schemas and strictness) for the shared checks, after adding the
   * problems of its shape to `problems`. `undefined` skips the tool's other
   * checks. Without this hook a tool's name is read from `name` and it has no
   * schemas.
   *
   * @param tool The tool (an object).
   * @param path Its JSON Pointer into the `tools` array, e.g. `/0`.
   * @param problems Where to add shape problems.
   * @returns The tool's description, or `undefined`.
   */
  preflightTool?(
    tool: Record<string, unknown>,
    path: string,
    problems: PreflightProblem[],
  ): PreflightTool | undefined;
  /**
   * The tool-call reader: reads a call of this format, or returns `undefined`
   * when the call has another shape. Readers are tried in registration
   * order, fallback readers last.
   *
   * @param call The call (an object).
   * @returns The name, call ID and arguments, or `undefined`.
   * @throws {InvalidToolCallError} When the call has this format's shape but is broken.
   */
  readToolCall?(call: Record<string, unknown>): ToolCallReading | undefined;
  /** Whether {@linkcode Adapter.readToolCall} accepts most shapes, so it is tried after all others. */
  readonly toolCallFallback?: boolean;
}
