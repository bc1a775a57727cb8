// Private: a reader or accumulator refuses a response or event that is recognisably of
// another format, or a provider's error body, rather than finding "no tool calls" in it.

import { identifyResponse } from "./detect.ts";
import { ProviderErrorResponseError, WrongFormatError } from "./errors.ts";
import type { LoopFormat } from "./tool_call.ts";

/**
 * Throws when `value` is a provider's error body or recognisably not of
 * `expected`. A whole-response reader (`eventIndex` absent) also refuses a
 * stream event of its own format; an accumulator takes whole responses of
 * its format (a Gemini chunk is one), so it does not.
 */
export function refuseOtherFormat(expected: LoopFormat, value: unknown, eventIndex?: number): void {
  const found = identifyResponse(value);
  if (found === undefined) return;
  if (found.kind === "error") throw new ProviderErrorResponseError(expected, found, eventIndex);
  if (found.format !== expected) throw new WrongFormatError(expected, found, eventIndex);
  if (eventIndex === undefined && found.kind === "stream_event") {
    throw new WrongFormatError(expected, found);
  }
}
