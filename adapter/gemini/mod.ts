/**
 * The Gemini provider: its adapter (conversion, preflight, tool-call reader),
 * its options and its dated profiles.
 *
 * @module
 */

export { geminiAdapter, type GeminiFunctionDeclaration, type GeminiOptions } from "./adapter.ts";
export { GEMINI_JSON_SCHEMA_PROFILE, GEMINI_PROFILE, GEMINI_VERTEX_PROFILE } from "./profile.ts";
