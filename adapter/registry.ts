/**
 * The adapter registry: formats by name, and conversion between any two of
 * them through the canonical tool.
 *
 * @module
 */

import type { CanonicalTool } from "./canonical_tool.ts";
import { AdapterExistsError, UnknownFormatError } from "./errors.ts";
import { checkStructure, relocate } from "./_shape.ts";
import type { ToolNameMap } from "./names.ts";
import type { InputNormalizer } from "./normalizer.ts";
import type { ProviderProfile } from "./profile.ts";
import type { FeatureLossWarning } from "./warning.ts";

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
  names?: ToolNameMap;
  /** Gemini: write `parameters` (OpenAPI subset, the default) or `parametersJsonSchema`. */
  geminiSchema?: "parameters" | "parametersJsonSchema";
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

/** Converts between one format and the canonical tool, both ways. */
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
}

/** Options of {@linkcode AdapterRegistry.register}. */
export interface RegisterOptions {
  /** Replace an adapter already registered under the same format name. */
  replace?: boolean;
}

/**
 * Adapters by format name.
 *
 * @example Converting an MCP tool for Anthropic
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultRegistry } from "@toolfoundation/core/adapter";
 *
 * const registry = defaultRegistry();
 * assert.deepEqual(registry.list(), ["anthropic", "gemini", "mcp", "openai", "openai-responses"]);
 * const { tool, warnings } = registry.convert(
 *   { name: "add", namespace: "math", inputSchema: { type: "object", properties: { a: { type: "number" } } } },
 *   "mcp",
 *   "anthropic",
 * );
 * assert.deepEqual(tool, {
 *   name: "math__add",
 *   input_schema: { type: "object", properties: { a: { type: "number" } } },
 * });
 * assert.equal(warnings.length, 0);
 * ```
 */
export class AdapterRegistry {
  readonly #adapters = new Map<string, Adapter>();

  /**
   * Registers an adapter under its format name.
   *
   * @param adapter The adapter.
   * @param options `replace: true` to replace an existing one.
   * @returns This registry.
   * @throws {AdapterExistsError} When the name is taken and `replace` is not set.
   */
  register(adapter: Adapter, options?: RegisterOptions): this {
    if (this.#adapters.has(adapter.format) && options?.replace !== true) {
      throw new AdapterExistsError(adapter.format);
    }
    this.#adapters.set(adapter.format, adapter);
    return this;
  }

  /**
   * The adapter of a format.
   *
   * @param format The format name.
   * @returns The adapter.
   * @throws {UnknownFormatError} Listing the registered formats.
   */
  get(format: string): Adapter {
    const found = this.#adapters.get(format);
    if (found === undefined) throw new UnknownFormatError(format, this.list());
    return found;
  }

  /**
   * Whether a format is registered.
   *
   * @param format The format name.
   * @returns `true` when registered.
   */
  has(format: string): boolean {
    return this.#adapters.has(format);
  }

  /**
   * The registered format names, sorted.
   *
   * @returns The names.
   */
  list(): string[] {
    return [...this.#adapters.keys()].sort();
  }

  /**
   * Converts a tool from one format to another through the canonical form.
   * Warning paths point into the source tool; `from` and `to` name the formats.
   *
   * @param tool The tool in the `from` format.
   * @param from The source format name.
   * @param to The target format name (may equal `from`).
   * @param options Conversion options.
   * @returns The converted tool, warnings, normalizer and strict decision.
   * @throws {UnknownFormatError} When a format is not registered.
   * @throws {SchemaShapeError} When a schema nests too deeply or its `$ref`s loop
   *   without progress, located in the source tool.
   */
  convert(tool: unknown, from: string, to: string, options?: ConvertOptions): ConversionResult {
    const source = this.get(from);
    const target = this.get(to);
    const read = source.toCanonical(tool, options);
    let written: ConversionResult;
    try {
      checkStructure(read.tool.inputSchema, "/inputSchema");
      if (read.tool.outputSchema !== undefined) {
        checkStructure(read.tool.outputSchema, "/outputSchema");
      }
      written = target.fromCanonical(read.tool, options);
    } catch (error) {
      throw relocate(error, (at) => source.sourcePointer(at, tool));
    }
    const warnings: FeatureLossWarning[] = [];
    for (const w of read.warnings) warnings.push({ ...w, from, to });
    for (const w of written.warnings) {
      warnings.push({ ...w, path: source.sourcePointer(w.path, tool), from, to });
    }
    const result: ConversionResult = {
      tool: written.tool,
      warnings,
      normalizer: written.normalizer,
    };
    if (written.strict !== undefined) result.strict = written.strict;
    return result;
  }
}
