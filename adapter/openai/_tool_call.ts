// Private: the tool-call readers of OpenAI: Chat Completions'
// `{id, type: "function", function: {name, arguments}}`, whose arguments are
// JSON text.

import { isNonArrayObject } from "../../model/plain_object.ts";
import type { ToolCallReading } from "../adapter.ts";
import { InvalidToolCallError } from "../errors.ts";

/** Arguments sent as JSON text, parsed (an empty text is `{}`). */
export function parseArguments(value: unknown): unknown {
  if (typeof value !== "string") return value ?? {};
  try {
    return value.trim() === "" ? {} : JSON.parse(value);
  } catch (cause) {
    throw new InvalidToolCallError(`arguments are not valid JSON (${(cause as Error).message})`, {
      cause,
    });
  }
}

/** Reads a Chat Completions tool call. */
export function readChatCall(call: Record<string, unknown>): ToolCallReading | undefined {
  if (call.type !== "function" || !isNonArrayObject(call.function)) return undefined;
  return {
    name: call.function.name,
    callId: call.id,
    arguments: parseArguments(call.function.arguments),
  };
}
