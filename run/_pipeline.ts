// Private: the pipeline behind run, runStream and runChain. Resolve the tool,
// select a backend, validate the arguments (nothing runs when they fail),
// execute under the deadline and the caller's signal, normalize the result and
// validate it against the output schema.

import { type BackendKind, DefaultValidator } from "../model/mod.ts";
import { RunCancelledError, ToolResultError } from "./errors.ts";
import { normalizeProgress, type ToolContext } from "./local.ts";
import type { ToolRegistry } from "./registry.ts";
import {
  type McpCallResult,
  normalizeMcpResult,
  type OutputValidationError,
  type RunResult,
} from "./result.ts";
import type { RunnerOptions, RunOptions } from "./runner_options.ts";
import type { Backends } from "./_backends.ts";
import { type Checkers, ToolChecks } from "./_checks.ts";
import { classify, collect, guard, isAsyncIterable, isPromiseLike, LazyAbort } from "./_execute.ts";
import type { RunHooks } from "./_hooks.ts";
import type { InFlight } from "./_in_flight.ts";
import { resolveTool, selectBackend } from "./_resolve.ts";

const DEFAULT_ORDER: readonly BackendKind[] = ["local", "provider", "mcp"];
const EMPTY_ARGS: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/** A runner's pipeline, configured by its options. */
export class Pipeline {
  readonly #registry: ToolRegistry;
  readonly #backends: Backends;
  readonly #inFlight: InFlight;
  readonly #checks: ToolChecks;
  readonly #validateInput: boolean;
  readonly #validateOutput: boolean;
  readonly #warn: boolean;
  readonly #onWarning: ((warning: OutputValidationError) => void) | undefined;
  readonly #timeoutMs: number;
  readonly #order: readonly BackendKind[];
  readonly #redact: ((text: string) => string) | undefined;

  constructor(
    registry: ToolRegistry,
    backends: Backends,
    inFlight: InFlight,
    options: RunnerOptions,
  ) {
    this.#registry = registry;
    this.#backends = backends;
    this.#inFlight = inFlight;
    this.#redact = options.redact;
    this.#checks = new ToolChecks(options.validator ?? new DefaultValidator());
    this.#validateInput = options.validateInput ?? true;
    this.#validateOutput = options.validateOutput ?? true;
    this.#warn = options.outputValidation === "warn";
    this.#onWarning = options.onWarning;
    this.#timeoutMs = options.timeoutMs ?? 60_000;
    this.#order = options.backendOrder ?? DEFAULT_ORDER;
  }

  /** Runs one tool; `hooks` receive its progress and chunks. */
  async execute(
    toolId: string,
    args: Record<string, unknown> | undefined,
    options: RunOptions | undefined,
    hooks: RunHooks | undefined,
  ): Promise<RunResult> {
    const started = performance.now();
    const signal = options?.signal;
    if (signal?.aborted) throw new RunCancelledError({ toolId, cause: signal.reason });
    const entry = resolveTool(this.#registry, toolId);
    const backend = selectBackend(entry, this.#order, this.#backends);
    const input = args ?? EMPTY_ARGS;
    const tool = entry.tool;

    let checkers: Checkers | undefined;
    if (this.#validateInput || this.#validateOutput) {
      const found = this.#checks.get(entry);
      checkers = found instanceof Promise ? await found : found;
    }
    if (this.#validateInput) {
      const pending = this.#checks.input(entry, backend, input, checkers!);
      if (pending !== undefined) await pending;
    }

    const control = new LazyAbort();
    const onProgress = options?.onProgress;
    const hookProgress = hooks?.onProgress;
    const ctx: ToolContext = {
      toolId,
      get signal() {
        return control.signal;
      },
      progress(update) {
        if (control.aborted) return;
        const normalized = normalizeProgress(update);
        if (normalized === undefined) return;
        hookProgress?.(normalized);
        onProgress?.(normalized);
      },
    };
    const site = { toolId, backend };
    const timeoutMs = options?.timeoutMs ?? this.#timeoutMs;
    const spentMs = Math.max(0, options?.spentMs ?? 0);

    let outcome: unknown;
    try {
      outcome = this.#backends.start(tool, backend, input, ctx, timeoutMs, spentMs);
    } catch (error) {
      throw classify(error, site);
    }
    let value = outcome;
    if (isPromiseLike(outcome) || isAsyncIterable(outcome)) {
      const work = isAsyncIterable(outcome)
        ? collect(outcome, control, hooks?.onChunk)
        : Promise.resolve(outcome);
      if (backend.kind !== "mcp") this.#inFlight.track(work); // MCP calls settle when connections close
      // An MCP call keeps the deadline itself, over all its phases (connect,
      // call), and names the phase when it passes; the caller's signal is
      // still watched here.
      value = await guard(
        work,
        control,
        site,
        backend.kind === "mcp" ? 0 : timeoutMs,
        signal,
        spentMs,
      );
    }

    let structured = value;
    let mcpResult: McpCallResult | undefined;
    if (backend.kind === "mcp") {
      mcpResult = value as McpCallResult;
      if (mcpResult.isError === true) {
        throw new ToolResultError(mcpResult.content ?? [], {
          ...site,
          mcpResult,
          redact: this.#redact,
        });
      }
      structured = normalizeMcpResult(mcpResult);
    }
    const result: RunResult = { tool, backend, structured, durationMs: 0 };
    if (mcpResult !== undefined) result.mcpResult = mcpResult;
    if (this.#validateOutput && tool.outputSchema !== undefined) {
      const error = await this.#checks.output(entry, result, checkers!);
      if (error !== undefined) {
        if (!this.#warn) throw error;
        (result.warnings ??= []).push(error);
        this.#onWarning?.(error);
      }
    }
    result.durationMs = performance.now() - started;
    return result;
  }
}
