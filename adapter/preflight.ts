/**
 * Preflight: the problems a provider would reject a request for, found before
 * anything is sent.
 *
 * @module
 */

import { builtinRegistry } from "./default_registry.ts";
import type { PreflightOptions, PreflightProblem } from "./adapter.ts";

/**
 * Finds what the provider would reject in a request with these tools (in the
 * target's format): root not an object, illegal, too long or duplicate names,
 * strict-incompatible keywords, unresolvable references, size limits,
 * Gemini `OBJECT`s without properties (at any depth of `parameters` and
 * `response`), and Anthropic's request-wide strict budgets. Every problem has a JSON Pointer
 * into the `tools` array. An empty list means no known problem.
 *
 * The rules are the built-in target adapter's (its `preflightTool` hook and
 * profile); `AdapterRegistry.preflight` does the same for any registered format.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { preflight } from "@toolfoundation/core/adapter";
 *
 * const problems = preflight([{
 *   type: "function",
 *   function: {
 *     name: "math:add",
 *     parameters: { type: "object", properties: { a: { type: "number", default: 1 } } },
 *     strict: true,
 *   },
 * }], "openai");
 * assert.deepEqual(problems.map((p) => `${p.code} ${p.path}`), [
 *   "invalid_name /0/function/name",
 *   "not_required /0/function/parameters/properties/a",
 *   "not_closed /0/function/parameters/additionalProperties",
 *   "unsupported_keyword /0/function/parameters/properties/a/default",
 * ]);
 * ```
 *
 * @param tools The tools, in the target's format.
 * @param target A built-in format name (`mcp`, `openai`, `openai-responses`, `anthropic`, `gemini`).
 * @param options A replacement profile.
 * @returns The problems, in tool order (request-wide budgets last).
 * @throws {UnknownFormatError} When the target is not a built-in format.
 */
export function preflight(
  tools: readonly unknown[],
  target: string,
  options?: PreflightOptions,
): PreflightProblem[] {
  return builtinRegistry().preflight(tools, target, options);
}
