/**
 * Running the calls of one response: a concurrency limit, results in call
 * order, one failing call never discarding the others, an approval hook, a
 * per-tool retry budget, and cancellation.
 *
 * @module
 */

import { encodeToolName, type ToolNameMap } from "../adapter/mod.ts";
import {
  DefaultValidator,
  type SchemaValidator,
  type Tool,
  type ToolAnnotations,
} from "../model/mod.ts";
import type { Runner, RunResult } from "../run/mod.ts";
import { LoopError, RetryBudgetExhaustedError } from "./errors.ts";
import { cleanText, type ToolFailure } from "./failure.ts";
import { failureOf } from "./_failure_of.ts";
import type { RetryBudget } from "./retry_budget.ts";
import type { ToolCall } from "./tool_call.ts";

/** What the approval hook sees before a call runs. */
export interface ApprovalRequest {
  /** The call. */
  call: ToolCall;
  /** The canonical tool ID. */
  toolId: string;
  /** The tool's definition (frozen). */
  tool: Tool;
  /** The tool's annotations (`readOnlyHint`, `destructiveHint`, ...), when it has any. */
  annotations: ToolAnnotations | undefined;
  /** The arguments (a frozen copy: the hook cannot change them). */
  arguments: Readonly<Record<string, unknown>>;
  /** Aborted when the step is cancelled. */
  signal: AbortSignal;
}

/** The hook's answer: run the call, or do not and tell the model why. */
export type ApprovalDecision = { allow: true } | { allow: false; reason: string };

/**
 * Decides whether a call runs. `true` allows; `false` denies without a
 * reason. A hook that throws denies (the error is the failure's `cause`).
 */
export type ApprovalHook = (
  request: ApprovalRequest,
) => ApprovalDecision | boolean | Promise<ApprovalDecision | boolean>;

/** The outcome of one call. */
export interface CallOutcome {
  /** The call. */
  call: ToolCall;
  /** `ok`: it ran and succeeded; `failed`: it could not run or failed; `denied`: the hook said no. */
  status: "ok" | "failed" | "denied";
  /** The result, when it succeeded. */
  result?: RunResult;
  /** Why it failed or was denied. */
  failure?: ToolFailure;
}

/**
 * The caller aborted the step. `outcomes` holds every call that finished
 * before (in call order; the others are absent); `cause` is the signal's reason.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ToolStepCancelledError } from "@toolfoundation/core/loop";
 *
 * assert.equal(new ToolStepCancelledError([]).code, "cancelled");
 * ```
 */
export class ToolStepCancelledError extends LoopError {
  /** The calls that finished before the abort. */
  readonly outcomes: readonly CallOutcome[];

  /**
   * Creates the instance.
   *
   * @param outcomes The finished calls.
   * @param options The abort reason.
   */
  constructor(outcomes: readonly CallOutcome[], options?: { cause?: unknown }) {
    super(
      "cancelled",
      `the tool step was cancelled; ${outcomes.length} call(s) had finished`,
      options,
    );
    this.outcomes = outcomes;
  }
}

/** The runner a tool step needs: `run` and the registry (a `Runner` has both). */
export type ToolStepRunner = Pick<Runner, "run" | "registry">;

/** Options of {@linkcode runToolCalls}. */
export interface RunToolCallsOptions {
  /** Calls running at once (default 4). */
  concurrency?: number;
  /** Asked before each call runs (after its arguments were validated). */
  approve?: ApprovalHook;
  /** Counts failures per tool across steps; when used up the model is told to stop. */
  retryBudget?: RetryBudget;
  /** Aborting it cancels running calls and rejects with `ToolStepCancelledError`. */
  signal?: AbortSignal;
  /** Deadline of each call in milliseconds, or a function of the call (default: the runner's). */
  timeoutMs?: number | ((call: ToolCall) => number | undefined);
  /** The request's name table: to list the names that exist for an unknown tool. */
  names?: ToolNameMap;
  /**
   * The tool IDs offered to the model (default: every tool of the runner's
   * registry); a call of any other tool is an unknown tool.
   */
  offered?: readonly string[];
  /** Validates arguments before the approval hook is asked (default: a `DefaultValidator`). */
  validator?: SchemaValidator;
  /** Scrubs secrets from every text that goes to the model. */
  redact?: (text: string) => string;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

function budgetKey(call: ToolCall): string {
  return call.toolId ?? call.name;
}

/**
 * Runs every call of one response on a runner: at most `concurrency` at once,
 * outcomes in call order, each call's failure its own (never thrown). Calls
 * with a `problem`, of a tool not offered, or whose arguments the schema
 * rejects do not run; the approval hook sees the others first. With a retry
 * budget, failures are counted per tool in call order once all calls are
 * done; the failure that uses the budget up is `final` and carries a
 * `RetryBudgetExhaustedError`, and later calls of that tool do not run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readToolCalls, runToolCalls } from "@toolfoundation/core/loop";
 * import { Runner } from "@toolfoundation/core/run";
 *
 * const runner = new Runner();
 * runner.addLocalTool({
 *   name: "add",
 *   namespace: "math",
 *   inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
 *   annotations: { readOnlyHint: true },
 * }, (args) => (args.a as number) + (args.b as number));
 * const calls = readToolCalls("anthropic", {
 *   content: [
 *     { type: "tool_use", id: "toolu_1", name: "math__add", input: { a: 1, b: 2 } },
 *     { type: "tool_use", id: "toolu_2", name: "math__add", input: { a: "1" } },
 *     { type: "tool_use", id: "toolu_3", name: "math__sub", input: {} },
 *   ],
 * });
 * const outcomes = await runToolCalls(runner, calls, {
 *   approve: ({ annotations }) => annotations?.readOnlyHint === true || { allow: false, reason: "writes" },
 * });
 * assert.deepEqual(outcomes.map((o) => o.status), ["ok", "failed", "failed"]);
 * assert.equal(outcomes[0].result?.structured, 3);
 * assert.deepEqual(outcomes[1].failure?.issues?.map((i) => i.path), ["/a", "/b"]);
 * assert.deepEqual(outcomes[2].failure?.available, ["math__add"]);
 * await runner.close();
 * ```
 *
 * @param runner The runner (its registry holds the tools).
 * @param calls The calls of one response.
 * @param options Concurrency, approval, retry budget, signal, deadline.
 * @returns One outcome per call, in call order.
 * @throws {ToolStepCancelledError} When `signal` aborts (with the outcomes that finished).
 */
export async function runToolCalls(
  runner: ToolStepRunner,
  calls: readonly ToolCall[],
  options: RunToolCallsOptions = {},
): Promise<CallOutcome[]> {
  const limit = options.concurrency ?? 4;
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new RangeError(`concurrency must be a whole number >= 1, got ${limit}`);
  }
  const signal = options.signal;
  if (signal?.aborted) throw new ToolStepCancelledError([], { cause: signal.reason });
  const step = new AbortController();
  const onAbort = () => step.abort(signal?.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  const context = new StepContext(runner, options, step.signal);
  const outcomes: Array<CallOutcome | undefined> = new Array(calls.length);
  const blocked = new Set(
    calls.map(budgetKey).filter((key) => options.retryBudget?.exhausted(key) === true),
  );
  let next = 0;
  const worker = async () => {
    while (next < calls.length && !step.signal.aborted) {
      const i = next++;
      const call = calls[i];
      outcomes[i] = blocked.has(budgetKey(call)) ? context.spent(call) : await context.runOne(call);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(limit, calls.length) }, worker));
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
  if (step.signal.aborted) {
    const finished = outcomes.filter((o): o is CallOutcome =>
      o !== undefined && o.failure?.code !== "cancelled"
    );
    throw new ToolStepCancelledError(finished, { cause: signal?.reason });
  }
  const done = outcomes as CallOutcome[];
  if (options.retryBudget !== undefined) charge(options.retryBudget, done, blocked);
  return done;
}

/** Counts failures in call order; marks the failure that uses a budget up. */
function charge(budget: RetryBudget, outcomes: CallOutcome[], blocked: Set<string>): void {
  for (const outcome of outcomes) {
    const key = budgetKey(outcome.call);
    if (blocked.has(key)) continue;
    if (outcome.status === "ok") {
      budget.succeed(key);
      continue;
    }
    const failure = outcome.failure!;
    if (outcome.status === "denied" || failure.code === "cancelled") continue;
    const attempts = budget.fail(key);
    if (attempts < budget.limit(key)) continue;
    blocked.add(key);
    failure.final = true;
    failure.message +=
      ` This was attempt ${attempts}: the retry budget of this tool is used up; do not call it again.`;
    failure.exhausted = new RetryBudgetExhaustedError(
      outcome.call.name,
      outcome.call.toolId,
      attempts,
      failure.code,
      { cause: failure.cause },
    );
  }
}

class StepContext {
  #validator: SchemaValidator | undefined;
  #available: string[] | undefined;

  constructor(
    readonly runner: ToolStepRunner,
    readonly options: RunToolCallsOptions,
    readonly signal: AbortSignal,
  ) {}

  #clean(text: string): string {
    return cleanText(text, this.options.redact);
  }

  available(call: ToolCall): string[] {
    if (this.#available === undefined) {
      const ids = this.options.offered ?? this.runner.registry.list().map((e) => e.id);
      const names = this.options.names;
      this.#available = [
        ...new Set(ids.map((id) => names?.toProvider(id) ?? encodeToolName(id, call.format))),
      ].sort();
    }
    return this.#available;
  }

  #unknown(call: ToolCall, cause?: unknown): CallOutcome {
    const available = this.available(call);
    const shown = available.length > 50 ? available.slice(0, 50) : available;
    return {
      call,
      status: "failed",
      failure: {
        code: "unknown_tool",
        message: `no tool is named ${JSON.stringify(call.name)}; call one of the available tools${
          available.length > 50 ? ` (the first 50 of ${available.length})` : ""
        }`,
        available: shown,
        ...(cause === undefined ? {} : { cause }),
      },
    };
  }

  spent(call: ToolCall): CallOutcome {
    return {
      call,
      status: "failed",
      failure: {
        code: "retry_budget_exhausted",
        message: `the call was not run: ${
          JSON.stringify(call.name)
        } failed too often and its retry budget is used up; do not call it again`,
        final: true,
      },
    };
  }

  async runOne(call: ToolCall): Promise<CallOutcome> {
    const problem = call.problem;
    if (problem?.code === "unknown_tool") return this.#unknown(call);
    if (problem !== undefined) {
      return {
        call,
        status: "failed",
        failure: {
          code: problem.code,
          message: `${this.#clean(problem.message)}; the call was not run`,
        },
      };
    }
    const toolId = call.toolId!;
    const offered = this.options.offered;
    const entry = offered === undefined || offered.includes(toolId)
      ? this.runner.registry.get(toolId)
      : undefined;
    if (entry === undefined) return this.#unknown(call);
    const args = call.arguments ?? {};
    if (this.options.approve !== undefined) {
      const invalid = await this.#validate(call, entry.tool, args);
      if (invalid !== undefined) return invalid;
      const denied = await this.#approve(call, toolId, entry.tool, args);
      if (denied !== undefined) return denied;
    }
    try {
      const deadline = this.options.timeoutMs;
      const timeoutMs = typeof deadline === "function" ? deadline(call) : deadline;
      const result = await this.runner.run(toolId, args, {
        signal: this.signal,
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
      });
      return { call, status: "ok", result };
    } catch (error) {
      return { call, status: "failed", failure: this.#failure(call, error) };
    }
  }

  async #validate(call: ToolCall, tool: Tool, args: Record<string, unknown>) {
    this.#validator ??= this.options.validator ?? new DefaultValidator();
    try {
      await this.#validator.validateInput(tool, args);
      return undefined;
    } catch (error) {
      return { call, status: "failed" as const, failure: this.#failure(call, error) };
    }
  }

  async #approve(
    call: ToolCall,
    toolId: string,
    tool: Tool,
    args: Record<string, unknown>,
  ): Promise<CallOutcome | undefined> {
    let decision: ApprovalDecision | boolean;
    try {
      decision = await this.options.approve!({
        call,
        toolId,
        tool,
        annotations: tool.annotations,
        arguments: deepFreeze(structuredClone(args)),
        signal: this.signal,
      });
    } catch (cause) {
      return this.#denied(call, "the approval check failed", cause);
    }
    if (decision === true || (typeof decision === "object" && decision?.allow === true)) {
      return undefined;
    }
    const reason = typeof decision === "object" && typeof decision?.reason === "string"
      ? decision.reason
      : "no reason was given";
    return this.#denied(call, reason);
  }

  #denied(call: ToolCall, reason: string, cause?: unknown): CallOutcome {
    return {
      call,
      status: "denied",
      failure: {
        code: "denied",
        message: `the call was not run: it was denied (${this.#clean(reason)})`,
        ...(cause === undefined ? {} : { cause }),
      },
    };
  }

  #failure(call: ToolCall, error: unknown): ToolFailure {
    return failureOf(error, {
      toolName: call.name,
      clean: (text) => this.#clean(text),
      unknown: (cause) => this.#unknown(call, cause).failure!,
    });
  }
}
