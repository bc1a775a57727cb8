// Private: one call of a served tool, by what serves it: the runner's tool
// (its own checks run there), a chain (its arguments checked here, then its
// steps run in order), or an upstream's tool (see _gateway_upstream_call.ts).

import { InputValidationError, type McpCallResult } from "../run/mod.ts";
import type { ServedTool } from "./catalog.ts";
import type { GatewayCore } from "./_gateway_core.ts";
import { refusedState } from "./_gateway_errors.ts";
import type { CallContext } from "./_gateway_options.ts";
import { type CallOutcome, detail, failed, fromRunResult } from "./_gateway_results.ts";
import { callUpstreamTool } from "./_gateway_upstream_call.ts";
import { RequestStateRefused } from "./_request_state.ts";

/** The deadline of a call when neither the tool nor the gateway sets one, in ms. */
const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * Runs one call of a served tool: invalid arguments, a tool error, a
 * deadline or an output problem end as `isError` results with their
 * outcome; a `requestState` for a tool that never asks for input throws.
 */
export async function callServed(
  core: GatewayCore,
  served: ServedTool,
  args: Record<string, unknown>,
  context: CallContext,
): Promise<CallOutcome> {
  const target = served.target;
  const timeoutMs =
    (target.kind === "chain" ? undefined : core.options.toolTimeouts?.[target.toolId]) ??
      core.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (target.kind !== "upstream" && context.requestState !== undefined) {
    throw refusedState(
      new RequestStateRefused(`tool ${JSON.stringify(served.name)} never asks for input`),
    );
  }
  if (target.kind === "runner") {
    try {
      const result = await core.runner.run(target.toolId, args, {
        signal: context.signal,
        timeoutMs,
        ...(context.onProgress === undefined ? {} : { onProgress: context.onProgress }),
      });
      return { result: fromRunResult(result), outcome: "ok" };
    } catch (error) {
      return failed(error);
    }
  }
  if (target.kind === "chain") {
    try {
      await core.validator.validateInput(served.tool, args);
    } catch (failure) {
      return failed(new InputValidationError(served.name, args, detail(failure)));
    }
    const steps = target.steps.map((s, i) =>
      i === 0 ? { ...s, args: { ...(s.args ?? {}), ...args } } : s
    );
    const chain = await core.runner.runChain(steps, { signal: context.signal, timeoutMs });
    if (!chain.ok) {
      const failedStep = chain.failed!;
      return failed(
        Object.assign(
          new Error(
            `chain ${
              JSON.stringify(served.name)
            } failed at step ${failedStep.index} (${failedStep.toolId}): ${failedStep.error?.message}`,
          ),
          { code: failedStep.error?.code },
        ),
      );
    }
    const last = chain.steps.at(-1)?.result;
    const result: McpCallResult = last === undefined ? { content: [] } : fromRunResult(last);
    return { result, outcome: "ok" };
  }
  return await callUpstreamTool(core, served, target, args, context, timeoutMs);
}
