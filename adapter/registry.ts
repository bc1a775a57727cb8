/**
 * The adapter registry: the one list of formats. Conversion between any two
 * of them (through the canonical tool), preflight and tool-call reading are
 * dispatched to the registered adapters.
 *
 * @module
 */

import { isNonArrayObject } from "../model/plain_object.ts";
import type {
  Adapter,
  CanonicalToolCall,
  ConversionResult,
  ConvertOptions,
  ParseToolCallOptions,
  PreflightOptions,
  PreflightProblem,
  ToolCallReading,
} from "./adapter.ts";
import {
  AdapterExistsError,
  InvalidToolCallError,
  UnknownFormatError,
  UnknownToolNameError,
} from "./errors.ts";
import { checkStructure, relocate } from "./_schema/mod.ts";
import { decodeWith } from "./_provider/mod.ts";
import { runPreflight } from "./_preflight/mod.ts";
import type { FeatureLossWarning } from "./warning.ts";

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

  /**
   * Finds what the provider of `target` would reject in a request with these
   * tools (in that format), with the adapter's preflight rules and profile.
   * See {@linkcode preflight} for the checks.
   *
   * @example A request-wide budget of Anthropic strict tool use
   * ```ts
   * import assert from "node:assert/strict";
   * import { defaultRegistry } from "@toolfoundation/core/adapter";
   *
   * const tools = Array.from({ length: 21 }, (_, i) => ({
   *   name: `t${i}`,
   *   input_schema: { type: "object", additionalProperties: false },
   *   strict: true,
   * }));
   * const problems = defaultRegistry().preflight(tools, "anthropic");
   * assert.deepEqual(problems.map((p) => p.code), ["budget_exceeded"]);
   * ```
   *
   * @param tools The tools, in the target's format.
   * @param target The format name.
   * @param options A replacement profile.
   * @returns The problems, in tool order (request-wide budgets last).
   * @throws {UnknownFormatError} When the target is not registered.
   */
  preflight(
    tools: readonly unknown[],
    target: string,
    options?: PreflightOptions,
  ): PreflightProblem[] {
    return runPreflight(this.get(target), tools, options);
  }

  /**
   * Reads a tool call of any registered format (each adapter's reader is
   * tried in registration order, fallback readers last) and maps its name
   * back to the canonical tool ID. See {@linkcode parseToolCall}.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { defaultRegistry } from "@toolfoundation/core/adapter";
   *
   * const call = defaultRegistry().parseToolCall({ functionCall: { name: "math:add", args: { a: 1 } } });
   * assert.deepEqual(call, { format: "gemini", toolId: "math:add", arguments: { a: 1 } });
   * ```
   *
   * @param call The provider's tool call object.
   * @param options Name table and normalizers.
   * @returns The format, canonical tool ID, call ID and arguments.
   * @throws {InvalidToolCallError} When no reader knows the shape or the arguments are not JSON.
   * @throws {UnknownToolNameError} When the name maps to no tool.
   */
  parseToolCall(call: unknown, options?: ParseToolCallOptions): CanonicalToolCall {
    if (!isNonArrayObject(call)) throw new InvalidToolCallError("a tool call must be an object");
    const adapters = [...this.#adapters.values()].filter((a) => a.readToolCall !== undefined);
    const ordered = [
      ...adapters.filter((a) => a.toolCallFallback !== true),
      ...adapters.filter((a) => a.toolCallFallback === true),
    ];
    let reader: Adapter | undefined;
    let reading: ToolCallReading | undefined;
    for (const adapter of ordered) {
      reading = adapter.readToolCall!(call);
      if (reading !== undefined) {
        reader = adapter;
        break;
      }
    }
    if (reader === undefined || reading === undefined) {
      throw new InvalidToolCallError("unknown tool call shape");
    }
    const name = reading.name;
    if (typeof name !== "string" || name === "") {
      throw new InvalidToolCallError("the call has no tool name");
    }
    let toolId: string | undefined;
    if (options?.names !== undefined) toolId = options.names.toCanonical(name);
    else toolId = reading.nameIsToolId === true ? name : decodeWith(name, reader.profile.names);
    if (toolId === undefined) {
      throw new UnknownToolNameError(
        name,
        "it carries a hash suffix; pass the request's ToolNameMap",
      );
    }
    const normalizers = options?.normalizers;
    const normalizer = normalizers !== undefined && Object.hasOwn(normalizers, toolId)
      ? normalizers[toolId]
      : undefined;
    return {
      format: reader.format,
      toolId,
      ...(typeof reading.callId === "string" ? { callId: reading.callId } : {}),
      arguments: normalizer === undefined
        ? reading.arguments
        : normalizer.normalize(reading.arguments),
    };
  }
}
