/**
 * The Anthropic provider: its adapter (conversion, preflight, tool-call
 * reader) and its dated profile.
 *
 * @module
 */

export { anthropicAdapter, type AnthropicTool } from "./adapter.ts";
export { ANTHROPIC_PROFILE } from "./profile.ts";
