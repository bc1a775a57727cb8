/**
 * Provider tool calls back to canonical tool IDs and arguments.
 *
 * @module
 */

import { isNonArrayObject } from "../model/_json_pointer.ts";
import { InvalidToolCallError, UnknownToolNameError } from "./errors.ts";
import { decodeToolName, type ToolNameMap } from "./names.ts";
import type { InputNormalizer } from "./normalizer.ts";

/** A provider's tool call, read into canonical terms. */
export interface CanonicalToolCall {
  /** The format the call was recognised as. */
  format: "openai" | "openai-responses" | "anthropic" | "gemini" | "mcp";
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
  names?: ToolNameMap;
  /** Normalizers by canonical tool ID (from the strict conversions). */
  normalizers?: Readonly<Record<string, InputNormalizer>>;
}

function parseArgs(value: unknown): unknown {
  if (typeof value !== "string") return value ?? {};
  try {
    return value.trim() === "" ? {} : JSON.parse(value);
  } catch (cause) {
    throw new InvalidToolCallError(`arguments are not valid JSON (${(cause as Error).message})`, {
      cause,
    });
  }
}

/**
 * Reads a tool call of any supported provider: OpenAI Chat Completions
 * (`{id, type: "function", function: {name, arguments}}`), OpenAI Responses
 * (`{type: "function_call", call_id, name, arguments}`), Anthropic
 * (`{type: "tool_use", id, name, input}`), Gemini (`{functionCall: {name, args}}`)
 * and MCP (`{name, arguments}`), and maps its name back to the canonical tool ID.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseToolCall, ToolNameMap } from "@toolfoundation/core/adapter";
 *
 * const names = new ToolNameMap(["math:add"], "anthropic");
 * const call = parseToolCall(
 *   { type: "tool_use", id: "toolu_1", name: "math__add", input: { a: 1, b: 2 } },
 *   { names },
 * );
 * assert.deepEqual(call, { format: "anthropic", toolId: "math:add", callId: "toolu_1", arguments: { a: 1, b: 2 } });
 * ```
 *
 * @param call The provider's tool call object.
 * @param options Name table and normalizers.
 * @returns The canonical tool ID, call ID and arguments.
 * @throws {InvalidToolCallError} When the shape is unknown or the arguments are not JSON.
 * @throws {UnknownToolNameError} When the name maps to no tool.
 */
export function parseToolCall(call: unknown, options?: ParseToolCallOptions): CanonicalToolCall {
  if (!isNonArrayObject(call)) throw new InvalidToolCallError("a tool call must be an object");
  let format: CanonicalToolCall["format"];
  let name: unknown;
  let callId: unknown;
  let args: unknown;
  if (call.type === "function" && isNonArrayObject(call.function)) {
    [format, name, callId, args] = [
      "openai",
      call.function.name,
      call.id,
      parseArgs(call.function.arguments),
    ];
  } else if (call.type === "function_call") {
    [format, name, callId, args] = [
      "openai-responses",
      call.name,
      call.call_id,
      parseArgs(call.arguments),
    ];
  } else if (call.type === "tool_use") {
    [format, name, callId, args] = ["anthropic", call.name, call.id, call.input ?? {}];
  } else if (isNonArrayObject(call.functionCall)) {
    [format, name, callId, args] = [
      "gemini",
      call.functionCall.name,
      call.functionCall.id,
      call.functionCall.args ?? {},
    ];
  } else if (typeof call.name === "string" && Object.hasOwn(call, "args")) {
    [format, name, callId, args] = ["gemini", call.name, call.id, call.args ?? {}];
  } else if (typeof call.name === "string") {
    [format, name, callId, args] = ["mcp", call.name, undefined, call.arguments ?? {}];
  } else {
    throw new InvalidToolCallError("unknown tool call shape");
  }
  if (typeof name !== "string" || name === "") {
    throw new InvalidToolCallError("the call has no tool name");
  }
  let toolId: string | undefined;
  if (options?.names !== undefined) toolId = options.names.toCanonical(name);
  else toolId = format === "mcp" ? name : decodeToolName(name, format);
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
  const result: CanonicalToolCall = {
    format,
    toolId,
    arguments: normalizer === undefined ? args : normalizer.normalize(args),
  };
  if (typeof callId === "string") result.callId = callId;
  return {
    format: result.format,
    toolId: result.toolId,
    ...(result.callId === undefined ? {} : { callId: result.callId }),
    arguments: result.arguments,
  };
}
