// Private: what the `run` and `chain` commands print on stdout for a result,
// a chain step and a chain.

import { serializeError } from "../../run/stream.ts";
import type { ChainResult, ChainStepResult, RunResult } from "../../run/mod.ts";

/** A chain step as printed: its structured result, or its serialized error. */
export function stepJson(s: ChainStepResult): unknown {
  return s.error === undefined
    ? { index: s.index, toolId: s.toolId, structured: s.result ? resultJson(s.result) : null }
    : { index: s.index, toolId: s.toolId, error: serializeError(s.error) };
}

/** The chain's JSON: every step that ran, and, when it failed, which step and what never ran. */
export function chainJson(name: string, result: ChainResult): unknown {
  const failed = result.failed;
  return {
    chain: name,
    ok: result.ok,
    steps: result.steps.map(stepJson),
    result: chainResultJson(result),
    ...(failed === undefined ? {} : {
      failed: { index: failed.index, toolId: failed.toolId, error: serializeError(failed.error) },
    }),
    notRun: result.notRun ?? [],
  };
}

/** Content block types that are text (the rest: image, audio, resource_link, resource, ...). */
const TEXT_BLOCK = "text";

/**
 * What the CLI prints for a result: its `structured` value (`null` when
 * none). An MCP result with `structuredContent` and also non-text content
 * blocks (image, audio, resource link, embedded resource) is printed as
 * `{"structured": <structuredContent>, "content": [<every block, as sent>]}`
 * so that nothing is dropped.
 */
export function resultJson(result: RunResult): unknown {
  const structured = result.structured === undefined ? null : result.structured;
  const mcp = result.mcpResult;
  const content = Array.isArray(mcp?.content) ? mcp.content : [];
  const mixed = mcp?.structuredContent !== undefined && mcp.structuredContent !== null &&
    content.some((b) => (b as { type?: unknown })?.type !== TEXT_BLOCK);
  return mixed ? { structured, content } : structured;
}

/** The result of the last step that succeeded, printed like `run` prints it. */
function chainResultJson(result: ChainResult): unknown {
  const last = result.steps.findLast((s) => s.error === undefined && s.result !== undefined);
  return last?.result === undefined ? (result.structured ?? null) : resultJson(last.result);
}
