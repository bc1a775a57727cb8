// Private: the tool-call reader of Gemini: a part's `{functionCall: {id?, name,
// args}}`, or the function call itself (`{name, args}`).

import { isNonArrayObject } from "../../model/plain_object.ts";
import type { ToolCallReading } from "../adapter.ts";

/** Reads a Gemini function call. */
export function readGeminiCall(call: Record<string, unknown>): ToolCallReading | undefined {
  if (isNonArrayObject(call.functionCall)) {
    const fn = call.functionCall;
    return { name: fn.name, callId: fn.id, arguments: fn.args ?? {} };
  }
  if (typeof call.name === "string" && Object.hasOwn(call, "args")) {
    return { name: call.name, callId: call.id, arguments: call.args ?? {} };
  }
  return undefined;
}
