// Private: runChain and runChainStream.

import { ChainReferenceError, RunError } from "./errors.ts";
import type {
  ChainInputOptions,
  ChainResult,
  ChainStep,
  ChainStepResult,
  ChainStreamEvent,
} from "./chain.ts";
import { resolveReferences } from "./chain_pointer.ts";
import { classify, linkedSignal } from "./_execute.ts";
import { AsyncQueue } from "./_queue.ts";
import type { Execute, RunHooks } from "./_hooks.ts";
import type { ChainOptions } from "./chain.ts";
import { StreamClosedError } from "./_stream_run.ts";
import { serializeError } from "./stream.ts";

interface ChainHooks {
  started?(index: number, step: ChainStep, args: Record<string, unknown>): void;
  finished?(step: ChainStepResult): void;
  hooks?(index: number, step: ChainStep): RunHooks;
}

function stepArgs(
  steps: readonly ChainStep[],
  index: number,
  results: readonly ChainStepResult[],
  input: unknown,
): Record<string, unknown> {
  const step = steps[index];
  const previous = results[index - 1];
  const args = resolveReferences(step.args ?? {}, {
    input,
    results: results.map((r) => r.result?.structured),
    ids: steps.map((s) => s.id),
    index,
  });
  if (step.usePrevious && previous?.result !== undefined) {
    args.previous = previous.result.structured;
  }
  return args;
}

async function drive(
  execute: Execute,
  steps: readonly ChainStep[],
  options: (ChainOptions & ChainInputOptions) | undefined,
  on: ChainHooks,
): Promise<ChainResult> {
  if (!Array.isArray(steps)) throw new TypeError("runChain: steps must be an array");
  const results: ChainStepResult[] = [];
  let previous: ChainStepResult | undefined;
  for (let index = 0; index < steps.length; index++) {
    const step = steps[index];
    let args: Record<string, unknown>;
    let failed: RunError | undefined;
    try {
      args = stepArgs(steps, index, results, options?.input);
    } catch (error) {
      args = { ...(step.args ?? {}) };
      failed = new ChainReferenceError((error as Error).message, {
        toolId: step.toolId,
        cause: error,
      });
    }
    on.started?.(index, step, args);
    const record: ChainStepResult = { index, toolId: step.toolId, args };
    try {
      if (failed !== undefined) throw failed;
      record.result = await execute(step.toolId, args, {
        signal: options?.signal,
        timeoutMs: step.timeoutMs ?? options?.timeoutMs,
      }, on.hooks?.(index, step));
    } catch (error) {
      record.error = error instanceof RunError ? error : classify(error, { toolId: step.toolId });
    }
    results.push(record);
    on.finished?.(record);
    if (record.error !== undefined) {
      return {
        ok: false,
        steps: results,
        failed: record,
        notRun: steps.slice(index + 1).map((s, i) => ({ index: index + 1 + i, toolId: s.toolId })),
        structured: previous?.result?.structured,
      };
    }
    previous = record;
  }
  return { ok: true, steps: results, notRun: [], structured: previous?.result?.structured };
}

export function runChainSteps(
  execute: Execute,
  steps: readonly ChainStep[],
  options: (ChainOptions & ChainInputOptions) | undefined,
): Promise<ChainResult> {
  try {
    return drive(execute, steps, options, {});
  } catch (error) {
    return Promise.reject(error);
  }
}

export async function* streamChain(
  execute: Execute,
  steps: readonly ChainStep[],
  options: (ChainOptions & ChainInputOptions) | undefined,
): AsyncGenerator<ChainStreamEvent, void, undefined> {
  const queue = new AsyncQueue<ChainStreamEvent>();
  const stop = new AbortController();
  const signal = linkedSignal(options?.signal, stop);
  const running = drive(execute, steps, { ...options, signal }, {
    started: (index, step, args) =>
      queue.push({ kind: "step_started", index, toolId: step.toolId, data: { args } }),
    finished: (record) =>
      queue.push({
        kind: "step_finished",
        index: record.index,
        toolId: record.toolId,
        data: record,
      }),
    hooks: (index, step) => ({
      onProgress: (data) => queue.push({ kind: "progress", index, toolId: step.toolId, data }),
      onChunk: (data) => queue.push({ kind: "chunk", index, toolId: step.toolId, data }),
    }),
  }).then(
    (chain) => {
      const last = chain.steps[chain.steps.length - 1];
      if (chain.ok) {
        queue.push({
          kind: "done",
          index: last?.index ?? -1,
          toolId: last?.toolId ?? "",
          data: chain,
        });
      } else {
        queue.push({
          kind: "error",
          index: chain.failed!.index,
          toolId: chain.failed!.toolId,
          data: serializeError(chain.failed!.error),
          chain,
        });
      }
    },
    (error) => {
      const chain: ChainResult = {
        ok: false,
        steps: [],
        notRun: Array.isArray(steps) ? steps.map((s, index) => ({ index, toolId: s.toolId })) : [],
      };
      queue.push({ kind: "error", index: -1, toolId: "", data: serializeError(error), chain });
    },
  ).finally(() => queue.end());
  try {
    for await (const event of queue) yield event;
  } finally {
    stop.abort(new StreamClosedError());
    await running;
  }
}
