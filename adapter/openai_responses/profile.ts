/**
 * The OpenAI Responses profile: the same rules as Chat Completions, under its own format name.
 *
 * @module
 */

import type { ProviderProfile } from "../profile.ts";
import { OPENAI_PROFILE } from "../openai/profile.ts";

/**
 * OpenAI Responses API function tools: the same rules as {@linkcode OPENAI_PROFILE}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { OPENAI_RESPONSES_PROFILE } from "@toolfoundation/core/adapter";
 *
 * assert.equal(OPENAI_RESPONSES_PROFILE.format, "openai-responses");
 * ```
 */
export const OPENAI_RESPONSES_PROFILE: ProviderProfile = {
  ...OPENAI_PROFILE,
  format: "openai-responses",
};
