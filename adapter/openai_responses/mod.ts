/**
 * The OpenAI Responses provider: its adapter (conversion, preflight, tool-call
 * reader) and its dated profile.
 *
 * @module
 */

export { openaiResponsesAdapter, type OpenAIResponsesTool } from "./adapter.ts";
export { OPENAI_RESPONSES_PROFILE } from "./profile.ts";
