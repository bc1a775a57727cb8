/**
 * The OpenAI Chat Completions provider: its adapter (conversion, preflight,
 * tool-call reader) and its dated profile.
 *
 * @module
 */

export { openaiAdapter, type OpenAIChatTool } from "./adapter.ts";
export { OPENAI_PROFILE } from "./profile.ts";
