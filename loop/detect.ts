/**
 * Which provider format a response, a stream event or an error body is, from
 * the fields each provider documents. A reader given a response of another
 * format would find "no tool calls" in it and an agent loop would drop the
 * calls; the readers and accumulators use this to refuse it instead.
 *
 * @module
 */

import { isObject } from "./_call.ts";
import type { LoopFormat } from "./tool_call.ts";

/** The providers whose error bodies are recognised. */
export type ErrorProvider = "openai" | "anthropic" | "gemini";

/** What a value was recognised as. */
export interface DetectedResponse {
  /**
   * `response`: a whole response, or the part of one a reader accepts (an
   * Anthropic content array, a Chat Completions assistant message, ...);
   * `stream_event`: one event of a stream (or a JSON array of them);
   * `error`: a provider's error body: the request failed.
   */
  kind: "response" | "stream_event" | "error";
  /** The format of a response or stream event; absent for an error body. */
  format?: LoopFormat;
  /** The provider of an error body (OpenAI's serves both of its formats). */
  provider?: ErrorProvider;
  /** The provider's message of an error body. */
  message?: string;
  /** What it is, for messages: `an Anthropic Messages response (type "message", content blocks)`. */
  description: string;
}

/** The provider and API of each format, for messages. */
export const FORMAT_TITLES: Readonly<Record<LoopFormat, string>> = {
  "openai": "OpenAI Chat Completions",
  "openai-responses": "OpenAI Responses",
  "anthropic": "Anthropic Messages",
  "gemini": "Gemini",
};

/** The documented shape of a whole response of each format, for messages. */
export const FORMAT_SHAPES: Readonly<Record<LoopFormat, string>> = {
  "openai": 'an OpenAI Chat Completions response ({"choices": [{"message": ...}]})',
  "openai-responses": 'an OpenAI Responses response ({"object": "response", "output": [...]})',
  "anthropic": 'an Anthropic Messages response ({"type": "message", "content": [...]})',
  "gemini": 'a Gemini response ({"candidates": [{"content": {"parts": [...]}}]})',
};

const ANTHROPIC_EVENTS = new Set([
  "message_start",
  "message_delta",
  "message_stop",
  "content_block_start",
  "content_block_delta",
  "content_block_stop",
  "ping",
]);

const ANTHROPIC_BLOCK =
  /^(text|tool_use|thinking|redacted_thinking|server_tool_use|mcp_tool_use|container_upload|[a-z_]+_tool_result)$/;
const RESPONSES_ITEM =
  /^(message|reasoning|compaction|item_reference|mcp_list_tools|mcp_approval_request|mcp_approval_response|[a-z_]+_call|[a-z_]+_call_output)$/;

function typeOf(value: unknown): string | undefined {
  return isObject(value) && typeof value.type === "string" ? value.type : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** The format of a content or output array, from the `type` of its items. */
function ofItems(items: unknown[]): DetectedResponse | undefined {
  const types = items.map(typeOf);
  if (types.length === 0 || types.some((t) => t === undefined)) return undefined;
  const shown = [...new Set(types)].slice(0, 3).map((t) => JSON.stringify(t)).join(", ");
  if (types.every((t) => ANTHROPIC_BLOCK.test(t!))) {
    return {
      kind: "response",
      format: "anthropic",
      description: `an Anthropic Messages content array (blocks of type ${shown})`,
    };
  }
  if (types.every((t) => RESPONSES_ITEM.test(t!))) {
    return {
      kind: "response",
      format: "openai-responses",
      description: `an OpenAI Responses output array (items of type ${shown})`,
    };
  }
  return undefined;
}

function errorBody(v: Record<string, unknown>): DetectedResponse | undefined {
  const e = v.error;
  if (v.type === "error" && isObject(e)) {
    return {
      kind: "error",
      provider: "anthropic",
      ...(text(e.message) === undefined ? {} : { message: text(e.message) }),
      description: `an Anthropic error response (type "error"${
        text(e.type) === undefined ? "" : `, error.type ${JSON.stringify(e.type)}`
      })`,
    };
  }
  if (v.type === "error" && text(v.message) !== undefined) {
    // The Responses API's stream error event.
    return {
      kind: "error",
      provider: "openai",
      message: v.message as string,
      description: `an OpenAI Responses error event (type "error"${
        text(v.code) === undefined ? "" : `, code ${JSON.stringify(v.code)}`
      })`,
    };
  }
  if (typeof e === "string") {
    return { kind: "error", message: e, description: 'an error response ({"error": "..."})' };
  }
  if (!isObject(e)) return undefined;
  const message = text(e.message);
  const withMessage = message === undefined ? {} : { message };
  if (typeof e.code === "number" && text(e.status) !== undefined) {
    return {
      kind: "error",
      provider: "gemini",
      ...withMessage,
      description: `a Gemini error response (error.code ${e.code}, error.status ${
        JSON.stringify(e.status)
      })`,
    };
  }
  if (v.object === "response") {
    return {
      kind: "error",
      provider: "openai",
      ...withMessage,
      description: `a failed OpenAI Responses response (status ${
        JSON.stringify(v.status)
      }, error.code ${JSON.stringify(e.code)})`,
    };
  }
  if (Object.hasOwn(v, "choices") || Object.hasOwn(v, "candidates")) return undefined;
  if (message !== undefined && ("type" in e || "code" in e || "param" in e)) {
    return {
      kind: "error",
      provider: "openai",
      message,
      description: `an OpenAI error response (error.type ${JSON.stringify(e.type ?? null)}${
        e.code === undefined || e.code === null ? "" : `, error.code ${JSON.stringify(e.code)}`
      })`,
    };
  }
  return {
    kind: "error",
    ...withMessage,
    description: 'an error response ({"error": ...})',
  };
}

/**
 * What a response, a stream event or an error body is, from the fields its
 * provider documents; `undefined` when it is recognisably none of them (an
 * empty array, `{}`, `null`, a string, ...). A value is only recognised from
 * a field or item type that no other format has in that place, so a valid
 * response without tool calls (only text) is recognised as its own format.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { identifyResponse } from "@toolfoundation/core/loop";
 *
 * const found = identifyResponse({
 *   type: "message",
 *   role: "assistant",
 *   content: [{ type: "text", text: "Hello." }],
 *   stop_reason: "end_turn",
 * });
 * assert.equal(found?.kind, "response");
 * assert.equal(found?.format, "anthropic");
 * assert.equal(identifyResponse({ error: { code: 429, message: "quota", status: "RESOURCE_EXHAUSTED" } })?.provider, "gemini");
 * assert.equal(identifyResponse([]), undefined);
 * ```
 *
 * @param value The parsed JSON.
 * @returns What it is, or `undefined`.
 */
export function identifyResponse(value: unknown): DetectedResponse | undefined {
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every((v) => isObject(v) && Array.isArray(v.candidates))) {
      return {
        kind: "stream_event",
        format: "gemini",
        description: "a JSON array of Gemini responses (streamGenerateContent without alt=sse)",
      };
    }
    return ofItems(value);
  }
  if (!isObject(value)) return undefined;
  const v = value;
  const error = errorBody(v);
  if (error !== undefined) return error;
  const type = text(v.type);
  if (type !== undefined && type.startsWith("response.")) {
    return {
      kind: "stream_event",
      format: "openai-responses",
      description: `an OpenAI Responses stream event (type ${JSON.stringify(type)})`,
    };
  }
  if (type !== undefined && ANTHROPIC_EVENTS.has(type)) {
    return {
      kind: "stream_event",
      format: "anthropic",
      description: `an Anthropic Messages stream event (type ${JSON.stringify(type)})`,
    };
  }
  if (v.object === "response" || (Array.isArray(v.output) && v.type === undefined)) {
    return {
      kind: "response",
      format: "openai-responses",
      description: 'an OpenAI Responses response (object "response", output items)',
    };
  }
  if (v.object === "chat.completion.chunk") {
    return {
      kind: "stream_event",
      format: "openai",
      description: 'an OpenAI Chat Completions stream chunk (object "chat.completion.chunk")',
    };
  }
  if (Array.isArray(v.choices)) {
    const chunk = v.choices.some((c) => isObject(c) && Object.hasOwn(c, "delta"));
    return chunk
      ? {
        kind: "stream_event",
        format: "openai",
        description: "an OpenAI Chat Completions stream chunk (choices with a delta)",
      }
      : {
        kind: "response",
        format: "openai",
        description: "an OpenAI Chat Completions response (choices with a message)",
      };
  }
  if (Array.isArray(v.candidates)) {
    return { kind: "response", format: "gemini", description: "a Gemini response (candidates)" };
  }
  if (Array.isArray(v.parts) && (v.role === undefined || v.role === "model")) {
    return { kind: "response", format: "gemini", description: "a Gemini content (parts)" };
  }
  if (Array.isArray(v.content)) {
    if (v.type === "message" && !Object.hasOwn(v, "stop_reason") && Object.hasOwn(v, "status")) {
      return {
        kind: "response",
        format: "openai-responses",
        description: 'an OpenAI Responses output item (type "message")',
      };
    }
    if (v.type === "message" || Object.hasOwn(v, "stop_reason")) {
      return {
        kind: "response",
        format: "anthropic",
        description: 'an Anthropic Messages response (type "message", content blocks)',
      };
    }
    const items = ofItems(v.content);
    if (items?.format === "anthropic") {
      return {
        kind: "response",
        format: "anthropic",
        description: "an Anthropic Messages response (content blocks)",
      };
    }
    return undefined;
  }
  if (
    v.role === "assistant" &&
    (Object.hasOwn(v, "tool_calls") || typeof v.content === "string" || v.content === null)
  ) {
    return {
      kind: "response",
      format: "openai",
      description: 'an OpenAI Chat Completions assistant message (role "assistant")',
    };
  }
  return undefined;
}

/**
 * The provider format of a response or stream event; `undefined` for an
 * error body or a value that is no provider's response.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { detectFormat } from "@toolfoundation/core/loop";
 *
 * assert.equal(detectFormat({ choices: [{ message: { role: "assistant", content: "Hi." } }] }), "openai");
 * assert.equal(detectFormat({ object: "response", output: [] }), "openai-responses");
 * assert.equal(detectFormat({ type: "message", role: "assistant", content: [] }), "anthropic");
 * assert.equal(detectFormat({ candidates: [{ content: { role: "model", parts: [{ text: "Hi." }] } }] }), "gemini");
 * assert.equal(detectFormat({ error: { message: "Incorrect API key", type: "invalid_request_error" } }), undefined);
 * assert.equal(detectFormat({}), undefined);
 * ```
 *
 * @param value The parsed JSON.
 * @returns The format, or `undefined`.
 */
export function detectFormat(value: unknown): LoopFormat | undefined {
  return identifyResponse(value)?.format;
}

/**
 * A short description of a value that is no provider's response, for
 * messages: `an empty array`, `null`, `an object with keys "a", "b"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeValue } from "@toolfoundation/core/loop";
 *
 * assert.equal(describeValue([]), "an empty array");
 * assert.equal(describeValue({ model: "m", messages: [] }), 'an object with keys "model", "messages"');
 * ```
 *
 * @param value The parsed JSON.
 * @returns The description.
 */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) {
    return value.length === 0 ? "an empty array" : `an array of ${value.length} item(s)`;
  }
  if (!isObject(value)) return `a ${typeof value} (${JSON.stringify(value)?.slice(0, 40)})`;
  const keys = Object.keys(value);
  if (keys.length === 0) return "an empty object";
  const shown = keys.slice(0, 6).map((k) => JSON.stringify(k)).join(", ");
  return `an object with keys ${shown}${keys.length > 6 ? ", ..." : ""}`;
}
