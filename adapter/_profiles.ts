// Private: look-up of the built-in profiles by format name.

import {
  ANTHROPIC_PROFILE,
  GEMINI_PROFILE,
  MCP_PROFILE,
  OPENAI_PROFILE,
  OPENAI_RESPONSES_PROFILE,
  type ProviderProfile,
} from "./profile.ts";
import { UnknownFormatError } from "./errors.ts";

const BUILTIN: Record<string, ProviderProfile> = {
  mcp: MCP_PROFILE,
  openai: OPENAI_PROFILE,
  "openai-responses": OPENAI_RESPONSES_PROFILE,
  anthropic: ANTHROPIC_PROFILE,
  gemini: GEMINI_PROFILE,
};

/** The built-in profile of a format, or the profile itself. */
export function resolveProfile(target: string | ProviderProfile): ProviderProfile {
  if (typeof target !== "string") return target;
  if (!Object.hasOwn(BUILTIN, target)) {
    throw new UnknownFormatError(target, Object.keys(BUILTIN).sort());
  }
  return BUILTIN[target];
}
