/**
 * The runner: resolves a tool, selects a backend, validates the arguments,
 * executes, normalizes and validates the result, under a deadline and the
 * caller's signal.
 *
 * @module
 */

import {
  type BackendKind,
  DefaultValidator,
  localBackend,
  parseToolId,
  type SchemaValidator,
  type Tool,
  type ToolBackend,
  toolId as idOf,
} from "../model/mod.ts";
import {
  NoBackendError,
  type OutputValidationError,
  RunCancelledError,
  ToolIdError,
  ToolNotFoundError,
  ToolResultError,
} from "./errors.ts";
import {
  type LocalHandler,
  normalizeProgress,
  type ProgressUpdate,
  type ToolContext,
} from "./local.ts";
import type { ToolProvider } from "./provider.ts";
import { type RegisteredTool, ToolRegistry } from "./registry.ts";
import { type McpCallResult, normalizeMcpResult, type RunResult } from "./result.ts";
import {
  type ElicitationHandler,
  fromMcpTool,
  type ImportMcpToolsOptions,
  type ImportMcpToolsResult,
  type McpServerConfig,
} from "./mcp.ts";
import type { StreamEvent } from "./stream.ts";
import type { ChainResult, ChainStep, ChainStreamEvent } from "./chain.ts";
import { classify, collect, guard, isAsyncIterable, isPromiseLike, LazyAbort } from "./_execute.ts";
import { McpPool } from "./_mcp_pool.ts";
import { type Checkers, ToolChecks } from "./_checks.ts";
import type { Execute, RunHooks } from "./_hooks.ts";
import { streamRun } from "./_stream_run.ts";
import { runChainSteps, streamChain } from "./_chain_run.ts";

/** Options of a {@linkcode Runner}. */
export interface RunnerOptions {
  /** The registry to run from (default: a new, empty one). */
  registry?: ToolRegistry;
  /** The schema validator (default: a `DefaultValidator`). */
  validator?: SchemaValidator;
  /** Validate arguments before executing (default `true`). */
  validateInput?: boolean;
  /** Validate results against the output schema (default `true`). */
  validateOutput?: boolean;
  /** `error` (default) throws `OutputValidationError`; `warn` returns the result with `warnings`. */
  outputValidation?: "error" | "warn";
  /** Called with each output-validation failure in `warn` mode. */
  onWarning?: (warning: OutputValidationError) => void;
  /** Default deadline of a run in milliseconds (default 60000; `0` or `Infinity` for none). */
  timeoutMs?: number;
  /** How long `close()` waits for abandoned executions to settle, in ms (default 5000). */
  closeTimeoutMs?: number;
  /** Backend preference, best first (default `["local", "provider", "mcp"]`). */
  backendOrder?: readonly BackendKind[];
  /** Local handlers, by the name local backends give. */
  handlers?: Readonly<Record<string, LocalHandler>>;
  /** External providers. */
  providers?: readonly ToolProvider[];
  /** MCP servers, by the server name mcp backends give. */
  mcpServers?: Readonly<Record<string, McpServerConfig>>;
  /** Answers MCP servers' elicitation requests (without it, elicitation is not offered). */
  onElicitation?: ElicitationHandler;
}

/** Options of one run. */
export interface RunOptions {
  /** Aborting it cancels the run (`RunCancelledError`). */
  signal?: AbortSignal;
  /** Deadline of this run in milliseconds, overriding the runner's default. */
  timeoutMs?: number;
  /** Receives normalized progress reports. */
  onProgress?: (update: ProgressUpdate) => void;
}

/** Options of a chain. */
export interface ChainOptions {
  /** Aborting it cancels the running step and stops the chain. */
  signal?: AbortSignal;
  /** Per-step deadline in milliseconds, unless a step sets its own. */
  timeoutMs?: number;
}

const DEFAULT_ORDER: readonly BackendKind[] = ["local", "provider", "mcp"];
const EMPTY_ARGS: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/**
 * Runs tools on local handlers, external providers and MCP servers.
 *
 * @example A local tool with validation
 * ```ts
 * import { Runner } from "@toolfoundation/core/run";
 *
 * const runner = new Runner();
 * runner.addLocalTool({
 *   name: "add",
 *   namespace: "math",
 *   inputSchema: {
 *     type: "object",
 *     properties: { a: { type: "number" }, b: { type: "number" } },
 *     required: ["a", "b"],
 *   },
 *   outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
 * }, (args) => ({ sum: (args.a as number) + (args.b as number) }));
 *
 * const result = await runner.run("math:add", { a: 1, b: 2 });
 * console.log(result.structured, result.backend.kind); // { sum: 3 } local
 * const error = await runner.run("math:add", { a: 1 }).catch((e) => e);
 * console.log(error.code); // input_validation
 * await runner.close();
 * ```
 */
export class Runner {
  readonly #registry: ToolRegistry;
  readonly #validateInput: boolean;
  readonly #validateOutput: boolean;
  readonly #warn: boolean;
  readonly #onWarning: ((warning: OutputValidationError) => void) | undefined;
  readonly #timeoutMs: number;
  readonly #closeTimeoutMs: number;
  readonly #order: readonly BackendKind[];
  readonly #handlers = new Map<string, LocalHandler>();
  readonly #providers = new Map<string, ToolProvider>();
  readonly #mcp = new McpPool();
  readonly #checks: ToolChecks;
  readonly #pending = new Set<Promise<unknown>>();

  /**
   * Creates the instance.
   *
   * @param options Registry, validation, deadline, backend order and backends.
   */
  constructor(options: RunnerOptions = {}) {
    this.#registry = options.registry ?? new ToolRegistry();
    this.#checks = new ToolChecks(options.validator ?? new DefaultValidator());
    this.#validateInput = options.validateInput ?? true;
    this.#validateOutput = options.validateOutput ?? true;
    this.#warn = options.outputValidation === "warn";
    this.#onWarning = options.onWarning;
    this.#timeoutMs = options.timeoutMs ?? 60_000;
    this.#closeTimeoutMs = options.closeTimeoutMs ?? 5000;
    this.#order = options.backendOrder ?? DEFAULT_ORDER;
    for (const [name, handler] of Object.entries(options.handlers ?? {})) {
      this.#handlers.set(name, handler);
    }
    for (const provider of options.providers ?? []) this.#providers.set(provider.id, provider);
    this.#mcp.onElicitation = options.onElicitation;
    for (const [name, config] of Object.entries(options.mcpServers ?? {})) {
      void this.#mcp.add(name, config);
    }
  }

  /** The registry this runner runs from. */
  get registry(): ToolRegistry {
    return this.#registry;
  }

  /**
   * Registers a local handler under a name (replacing one of the same name).
   *
   * @example
   * ```ts
   * import { localBackend } from "@toolfoundation/core/model";
   * import { Runner } from "@toolfoundation/core/run";
   *
   * const runner = new Runner();
   * runner.setHandler("now", () => ({ ok: true }));
   * runner.registry.add({ name: "now", inputSchema: { type: "object" } }, localBackend("now"));
   * console.log((await runner.run("now", {})).structured); // { ok: true }
   * ```
   *
   * @param name The name local backends use.
   * @param handler The handler.
   */
  setHandler(name: string, handler: LocalHandler): void {
    this.#handlers.set(name, handler);
  }

  /**
   * Registers a tool implemented by a local handler named after the tool ID.
   *
   * @example
   * ```ts
   * import { Runner } from "@toolfoundation/core/run";
   *
   * const runner = new Runner();
   * const entry = runner.addLocalTool({ name: "ping", inputSchema: { type: "object" } }, () => "pong");
   * console.log(entry.id, (await runner.run("ping", {})).structured); // ping pong
   * ```
   *
   * @param tool The tool definition.
   * @param handler Its implementation.
   * @returns The registry entry.
   */
  addLocalTool(tool: Tool, handler: LocalHandler): RegisteredTool {
    const id = idOf(tool);
    const entry = this.#registry.add(tool, localBackend(id));
    this.#handlers.set(id, handler);
    return entry;
  }

  /**
   * Registers an external provider (replacing one with the same ID).
   *
   * @example
   * ```ts
   * import { Runner } from "@toolfoundation/core/run";
   *
   * const runner = new Runner();
   * runner.setProvider({ id: "p", call: () => 1 });
   * ```
   *
   * @param provider The provider.
   */
  setProvider(provider: ToolProvider): void {
    this.#providers.set(provider.id, provider);
  }

  /**
   * Configures an MCP server by name. Nothing connects until a tool of that
   * server runs; an open connection of a previous configuration is closed.
   *
   * @example
   * ```ts
   * import { Runner } from "@toolfoundation/core/run";
   *
   * const runner = new Runner();
   * await runner.setMcpServer("everything", {
   *   transport: "stdio",
   *   command: "npx",
   *   args: ["-y", "@modelcontextprotocol/server-everything@2026.8.31"],
   * });
   * await runner.close();
   * ```
   *
   * @param name The server name mcp backends use.
   * @param config How to reach it.
   */
  async setMcpServer(name: string, config: McpServerConfig): Promise<void> {
    await this.#mcp.add(name, config);
  }

  /**
   * Lists an MCP server's tools and registers each as a model tool with an
   * mcp backend (namespace: the server name unless given).
   *
   * @example
   * ```ts ignore
   * import { Runner } from "@toolfoundation/core/run";
   *
   * const runner = new Runner({
   *   mcpServers: { everything: { transport: "http", url: "http://127.0.0.1:3001/mcp" } },
   * });
   * const { imported } = await runner.importMcpTools("everything");
   * console.log(imported.map((entry) => entry.id)); // [ "everything:echo", ... ]
   * await runner.close();
   * ```
   *
   * @param server The configured server name.
   * @param options Namespace and signal.
   * @returns The imported and skipped tools.
   * @throws {ExecutionError} When the server cannot be reached or listed.
   */
  async importMcpTools(
    server: string,
    options: ImportMcpToolsOptions = {},
  ): Promise<ImportMcpToolsResult> {
    const listed = await this.#mcp.listTools(server, options.signal);
    const namespace = options.namespace === undefined ? server : options.namespace ?? undefined;
    const result: ImportMcpToolsResult = { imported: [], skipped: [] };
    for (const item of listed) {
      try {
        result.imported.push(
          this.#registry.add(fromMcpTool(item, namespace), {
            kind: "mcp",
            mcp: { serverName: server },
          }),
        );
      } catch (error) {
        result.skipped.push({ name: String(item.name), error: error as Error });
      }
    }
    return result;
  }

  /**
   * Runs a tool: resolve, select backend, validate input (nothing runs when
   * it fails), execute, normalize, validate output.
   *
   * @example Cancelling and timing out
   * ```ts
   * import { Runner } from "@toolfoundation/core/run";
   *
   * const runner = new Runner();
   * runner.addLocalTool(
   *   { name: "sleep", inputSchema: { type: "object" } },
   *   (_args, ctx) =>
   *     new Promise((resolve, reject) => {
   *       const timer = setTimeout(resolve, 10_000);
   *       ctx.signal.addEventListener("abort", () => {
   *         clearTimeout(timer);
   *         reject(ctx.signal.reason);
   *       });
   *     }),
   * );
   * const error = await runner.run("sleep", {}, { timeoutMs: 20 }).catch((e) => e);
   * console.log(error.code); // timeout
   * const aborted = await runner.run("sleep", {}, { signal: AbortSignal.abort() }).catch((e) => e);
   * console.log(aborted.code); // cancelled
   * await runner.close();
   * ```
   *
   * @param toolId The tool ID.
   * @param args The arguments (default `{}`).
   * @param options Signal, deadline and progress callback.
   * @returns The result.
   * @throws {RunError} One of the run error classes, by `code`.
   */
  run(toolId: string, args?: Record<string, unknown>, options?: RunOptions): Promise<RunResult> {
    return this.#execute(toolId, args, options, undefined);
  }

  /**
   * Runs a tool as a stream of events: progress and chunks as they come, then
   * exactly one `done` (with the result) or `error` (with the serializable
   * error). Breaking out of the loop cancels the run.
   *
   * @example
   * ```ts
   * import { Runner } from "@toolfoundation/core/run";
   *
   * const runner = new Runner();
   * runner.addLocalTool({ name: "count", inputSchema: { type: "object" } }, async function* (_args, ctx) {
   *   ctx.progress({ progress: 0, total: 2 });
   *   yield "a";
   *   yield "b";
   * });
   * for await (const event of runner.runStream("count", {})) {
   *   console.log(event.kind); // progress, chunk, chunk, done
   * }
   * ```
   *
   * @param toolId The tool ID.
   * @param args The arguments.
   * @param options Signal and deadline.
   * @returns The events.
   */
  runStream(
    toolId: string,
    args?: Record<string, unknown>,
    options?: RunOptions,
  ): AsyncIterable<StreamEvent> {
    return streamRun(this.#exec, toolId, args, options);
  }

  /**
   * Runs steps in order; `usePrevious` passes the previous step's structured
   * result as `args.previous` (on a copy). Stops at the first failure and
   * returns every step so far, the failing one included.
   *
   * @example
   * ```ts
   * import { Runner } from "@toolfoundation/core/run";
   *
   * const runner = new Runner();
   * const any = { type: "object" as const };
   * runner.addLocalTool({ name: "one", inputSchema: any }, () => 1);
   * runner.addLocalTool({ name: "inc", inputSchema: any }, (args) => (args.previous as number) + 1);
   * const chain = await runner.runChain([
   *   { toolId: "one" },
   *   { toolId: "inc", usePrevious: true },
   *   { toolId: "inc", usePrevious: true },
   * ]);
   * console.log(chain.ok, chain.structured); // true 3
   * ```
   *
   * @param steps The steps.
   * @param options Signal and per-step deadline.
   * @returns Every step result so far.
   */
  runChain(steps: readonly ChainStep[], options?: ChainOptions): Promise<ChainResult> {
    return runChainSteps(this.#exec, steps, options);
  }

  /**
   * The stream form of {@linkcode Runner.runChain}: `step_started`, the step's
   * progress and chunks, `step_finished`, and finally one `done` or `error`.
   *
   * @example
   * ```ts
   * import { Runner } from "@toolfoundation/core/run";
   *
   * const runner = new Runner();
   * runner.addLocalTool({ name: "one", inputSchema: { type: "object" } }, () => 1);
   * const kinds = [];
   * for await (const event of runner.runChainStream([{ toolId: "one" }])) kinds.push(event.kind);
   * console.log(kinds); // [ "step_started", "step_finished", "done" ]
   * ```
   *
   * @param steps The steps.
   * @param options Signal and per-step deadline.
   * @returns The events.
   */
  runChainStream(
    steps: readonly ChainStep[],
    options?: ChainOptions,
  ): AsyncIterable<ChainStreamEvent> {
    return streamChain(this.#exec, steps, options);
  }

  /**
   * Releases every MCP connection and server process and every provider, and
   * waits (up to `closeTimeoutMs`) for abandoned executions (timed out or
   * cancelled) to settle. The runner stays usable: connections re-open on demand.
   *
   * @example
   * ```ts
   * import { Runner } from "@toolfoundation/core/run";
   *
   * await new Runner().close();
   * ```
   */
  async close(): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const abandoned = this.#pending.size === 0 ? undefined : Promise.race([
      Promise.allSettled(this.#pending),
      new Promise((resolve) => (timer = setTimeout(resolve, this.#closeTimeoutMs))),
    ]);
    await Promise.allSettled([
      this.#mcp.close(),
      ...[...this.#providers.values()].map((p) => p.close?.()),
      abandoned,
    ]);
    if (timer !== undefined) clearTimeout(timer);
  }

  readonly #exec: Execute = (toolId, args, options, hooks) =>
    this.#execute(toolId, args, options, hooks);

  /** The pipeline behind `run`, `runStream` and `runChain`. */
  async #execute(
    toolId: string,
    args: Record<string, unknown> | undefined,
    options: RunOptions | undefined,
    hooks: RunHooks | undefined,
  ): Promise<RunResult> {
    const started = performance.now();
    const signal = options?.signal;
    if (signal?.aborted) throw new RunCancelledError({ toolId, cause: signal.reason });
    const entry = this.#registry.get(toolId) ?? this.#missing(toolId);
    const backend = this.#select(entry);
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

    let outcome: unknown;
    try {
      outcome = this.#start(entry, backend, input, ctx, timeoutMs);
    } catch (error) {
      throw classify(error, site);
    }
    let value = outcome;
    if (isPromiseLike(outcome) || isAsyncIterable(outcome)) {
      const work = isAsyncIterable(outcome)
        ? collect(outcome, control, hooks?.onChunk)
        : Promise.resolve(outcome);
      if (backend.kind !== "mcp") this.#track(work); // MCP calls settle when connections close
      // On an open MCP connection the request carries its deadline to the SDK,
      // whose own timer (it always sets one) sends the cancellation; a second
      // timer here would only add latency to every call. While connecting, our
      // timer covers the connection phase too.
      const sdkDeadline = backend.kind === "mcp" && this.#mcp.ready(backend.mcp.serverName);
      value = await guard(work, control, site, sdkDeadline ? 0 : timeoutMs, signal);
    }

    let structured = value;
    let mcpResult: McpCallResult | undefined;
    if (backend.kind === "mcp") {
      mcpResult = value as McpCallResult;
      if (mcpResult.isError === true) {
        throw new ToolResultError(mcpResult.content ?? [], { ...site, mcpResult });
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

  #missing(toolId: string): never {
    try {
      parseToolId(toolId);
    } catch (error) {
      throw new ToolIdError(String(toolId), (error as Error).message, { cause: error });
    }
    throw new ToolNotFoundError(toolId);
  }

  #available(backend: ToolBackend): boolean {
    switch (backend.kind) {
      case "local":
        return this.#handlers.has(backend.local.name);
      case "provider":
        return this.#providers.has(backend.provider.providerId);
      case "mcp":
        return this.#mcp.has(backend.mcp.serverName);
    }
  }

  #select(entry: RegisteredTool): ToolBackend {
    const backends = entry.backends;
    if (backends.length === 1 && this.#order.includes(backends[0].kind)) {
      if (this.#available(backends[0])) return backends[0];
    } else {
      let best: ToolBackend | undefined;
      let bestRank = Infinity;
      for (const backend of backends) {
        const rank = this.#order.indexOf(backend.kind);
        if (rank < 0 || rank >= bestRank || !this.#available(backend)) continue;
        best = backend;
        bestRank = rank;
      }
      if (best !== undefined) return best;
    }
    const reasons = backends.map((b) => {
      if (!this.#order.includes(b.kind)) return `${b.kind} backends are not in the backend order`;
      switch (b.kind) {
        case "local":
          return `no local handler ${JSON.stringify(b.local.name)}`;
        case "provider":
          return `no provider ${JSON.stringify(b.provider.providerId)}`;
        case "mcp":
          return `no MCP server ${JSON.stringify(b.mcp.serverName)}`;
      }
    });
    throw new NoBackendError(entry.id, reasons.length ? reasons.join("; ") : "none registered");
  }

  #start(
    entry: RegisteredTool,
    backend: ToolBackend,
    args: Record<string, unknown>,
    ctx: ToolContext,
    timeoutMs: number,
  ): unknown {
    switch (backend.kind) {
      case "local":
        return this.#handlers.get(backend.local.name)!(args, ctx);
      case "provider":
        return this.#providers.get(backend.provider.providerId)!.call(
          { toolId: backend.provider.toolId, args, tool: entry.tool },
          ctx,
        );
      case "mcp":
        return this.#mcp.call(backend.mcp.serverName, entry.tool.name, args, ctx, timeoutMs);
    }
  }

  #track(work: Promise<unknown>): void {
    const settled = work.then(() => undefined, () => undefined);
    this.#pending.add(settled);
    settled.then(() => this.#pending.delete(settled));
  }
}
