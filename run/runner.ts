/**
 * The runner: resolves a tool, selects a backend, validates the arguments,
 * executes, normalizes and validates the result, under a deadline and the
 * caller's signal.
 *
 * @module
 */

import { localBackend, type Tool, toolId as idOf } from "../model/mod.ts";
import type { LocalHandler } from "./local.ts";
import { type DefinedTool, isDefinedTool } from "./define_tool.ts";
import type { ToolProvider } from "./provider.ts";
import { type RegisteredTool, ToolRegistry } from "./registry.ts";
import type { RunResult } from "./result.ts";
import type { McpServerConfig } from "./mcp/config.ts";
import type { ImportMcpToolsOptions, ImportMcpToolsResult, McpServerOptions } from "./mcp/tools.ts";
import type { StreamEvent } from "./stream.ts";
import type {
  ChainInputOptions,
  ChainOptions,
  ChainResult,
  ChainStep,
  ChainStreamEvent,
} from "./chain.ts";
import { Backends } from "./_backends.ts";
import type { Execute } from "./_hooks.ts";
import { InFlight } from "./_in_flight.ts";
import { Pipeline } from "./_pipeline.ts";
import { type RetryOptions, withRetries } from "./retry.ts";
import type { RunnerOptions, RunOptions } from "./runner_options.ts";
import { ModuleProcessLimit } from "./module/process_limit.ts";

/**
 * Runs tools on local handlers, external providers and MCP servers.
 *
 * @example A local tool with validation
 * ```ts
 * import assert from "node:assert/strict";
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
 * assert.deepEqual(result.structured, { sum: 3 });
 * assert.equal(result.backend.kind, "local");
 * const error = await runner.run("math:add", { a: 1 }).catch((e) => e);
 * assert.equal(error.code, "input_validation");
 * await runner.close();
 * ```
 */
export class Runner {
  readonly #registry: ToolRegistry;
  readonly #backends: Backends;
  readonly #inFlight = new InFlight();
  readonly #pipeline: Pipeline;
  readonly #closeTimeoutMs: number;
  readonly #timeoutMs: number;
  readonly #retry: RetryOptions;
  readonly #moduleProcesses: ModuleProcessLimit;

  /**
   * Creates the instance.
   *
   * @param options Registry, validation, deadline, backend order, backends and retries.
   * @throws {RangeError} When `maxModuleProcesses` is not a whole number from 1 to 65536.
   */
  constructor(options: RunnerOptions & RetryOptions = {}) {
    this.#moduleProcesses = new ModuleProcessLimit(options.maxModuleProcesses);
    this.#retry = { retry: options.retry, onRetry: options.onRetry };
    this.#registry = options.registry ?? new ToolRegistry();
    this.#backends = new Backends(options);
    this.#pipeline = new Pipeline(this.#registry, this.#backends, this.#inFlight, options);
    this.#closeTimeoutMs = options.closeTimeoutMs ?? 5000;
    this.#timeoutMs = options.timeoutMs ?? 60_000;
  }

  /**
   * The cap of live module-tool processes (`maxModuleProcesses`) this runner
   * owns: give it to the module handlers it runs (`processes`), as a
   * workspace's runner does, so that they share it.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { Runner } from "@toolfoundation/core/run";
   *
   * const runner = new Runner({ maxModuleProcesses: 4 });
   * assert.equal(runner.moduleProcesses.max, 4);
   * assert.equal(runner.moduleProcesses.live, 0);
   * ```
   */
  get moduleProcesses(): ModuleProcessLimit {
    return this.#moduleProcesses;
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
   * import assert from "node:assert/strict";
   * import { localBackend } from "@toolfoundation/core/model";
   * import { Runner } from "@toolfoundation/core/run";
   *
   * const runner = new Runner();
   * runner.setHandler("now", () => ({ ok: true }));
   * runner.registry.add({ name: "now", inputSchema: { type: "object" } }, localBackend("now"));
   * assert.deepEqual((await runner.run("now", {})).structured, { ok: true });
   * ```
   *
   * @param name The name local backends use.
   * @param handler The handler.
   */
  setHandler(name: string, handler: LocalHandler): void {
    this.#backends.setHandler(name, handler);
  }

  /**
   * Registers a tool of {@linkcode defineTool}: its definition, and its
   * handler under the tool ID.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { defineTool, Runner } from "@toolfoundation/core/run";
   *
   * const runner = new Runner();
   * runner.addLocalTool(defineTool({
   *   name: "double",
   *   inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
   *   handler: ({ n }) => n * 2,
   * }));
   * assert.equal((await runner.run("double", { n: 4 })).structured, 8);
   * ```
   *
   * @param defined The tool and its handler.
   * @returns The registry entry.
   */
  addLocalTool(defined: DefinedTool<unknown, unknown>): RegisteredTool;
  /**
   * Registers a tool implemented by a local handler named after the tool ID.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { Runner } from "@toolfoundation/core/run";
   *
   * const runner = new Runner();
   * const entry = runner.addLocalTool({ name: "ping", inputSchema: { type: "object" } }, () => "pong");
   * assert.equal(entry.id, "ping");
   * assert.equal((await runner.run("ping", {})).structured, "pong");
   * ```
   *
   * @param tool The tool definition.
   * @param handler Its implementation.
   * @returns The registry entry.
   */
  addLocalTool(tool: Tool, handler: LocalHandler): RegisteredTool;
  addLocalTool(
    toolOrDefined: Tool | DefinedTool<unknown, unknown>,
    handlerOrNone?: LocalHandler,
  ): RegisteredTool {
    const [tool, handler] = handlerOrNone === undefined && isDefinedTool(toolOrDefined)
      ? [toolOrDefined.tool, toolOrDefined.handler]
      : [toolOrDefined as Tool, handlerOrNone];
    if (typeof handler !== "function") {
      throw new TypeError(
        "addLocalTool takes a tool and its handler, or one value of defineTool({ ..., handler })",
      );
    }
    const id = idOf(tool);
    const entry = this.#registry.add(tool, localBackend(id));
    this.#backends.setHandler(id, handler);
    return entry;
  }

  /**
   * Registers an external provider (replacing one with the same ID).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { providerBackend } from "@toolfoundation/core/model";
   * import { Runner } from "@toolfoundation/core/run";
   *
   * const runner = new Runner();
   * runner.setProvider({ id: "p", call: () => 1 });
   * runner.registry.add({ name: "one", inputSchema: { type: "object" } }, providerBackend("p", "one"));
   * assert.equal((await runner.run("one", {})).structured, 1);
   * ```
   *
   * @param provider The provider.
   */
  setProvider(provider: ToolProvider): void {
    this.#backends.setProvider(provider);
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
   * @param options What to check on each connection (its listed tools, e.g. against a lock file).
   */
  async setMcpServer(
    name: string,
    config: McpServerConfig,
    options: McpServerOptions = {},
  ): Promise<void> {
    await this.#backends.setMcpServer(name, config, options);
  }

  /**
   * Takes over another runner's MCP servers: their configurations, their
   * checks (e.g. against a lock file, still run on every new connection) and
   * their open connections, so a server listed by one runner is called by
   * this one without starting it again. The other runner no longer has them
   * (closing it leaves them open; this runner's `close()` closes them). Tools
   * are not moved: list them again (over the same connection) with
   * {@linkcode Runner.importMcpTools}.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { Runner } from "@toolfoundation/core/run";
   *
   * const lister = new Runner();
   * await lister.setMcpServer("docs", { transport: "http", url: "http://127.0.0.1:9/mcp" });
   * const runner = new Runner();
   * assert.deepEqual(runner.adoptMcpServers(lister), ["docs"]);
   * await lister.close();
   * await runner.close();
   * ```
   *
   * @param from The runner whose MCP servers this one takes.
   * @returns The names of the servers taken.
   * @throws {Error} When this runner already has MCP servers of its own.
   */
  adoptMcpServers(from: Runner): string[] {
    return this.#backends.adoptMcp(from.#backends);
  }

  /**
   * Lists an MCP server's tools and registers each as a model tool with an
   * mcp backend (namespace: the server name unless given).
   *
   * @example
   * ```ts ignore
   * import assert from "node:assert/strict";
   * import { Runner } from "@toolfoundation/core/run";
   *
   * const runner = new Runner({
   *   mcpServers: { everything: { transport: "http", url: "http://127.0.0.1:3001/mcp" } },
   * });
   * const { imported } = await runner.importMcpTools("everything");
   * assert.ok(imported.some((entry) => entry.id === "everything:echo"));
   * await runner.close();
   * ```
   *
   * @param server The configured server name.
   * @param options Namespace, signal and deadline (connecting and listing together).
   * @returns The imported and skipped tools.
   * @throws {ExecutionError} When the server cannot be reached or listed.
   * @throws {RunTimeoutError} When the deadline passes (its `phase` is `connect` or `list`).
   */
  async importMcpTools(
    server: string,
    options: ImportMcpToolsOptions = {},
  ): Promise<ImportMcpToolsResult> {
    const { importMcpTools } = await import("./mcp/tools.ts");
    const list = (name: string, signal: AbortSignal | undefined, timeoutMs: number) =>
      this.#backends.listMcpTools(name, signal, timeoutMs);
    return await importMcpTools(this.#registry, list, server, options, this.#timeoutMs);
  }

  /**
   * Runs a tool: resolve, select backend, validate input (nothing runs when
   * it fails), execute, normalize, validate output.
   *
   * @example Cancelling and timing out
   * ```ts
   * import assert from "node:assert/strict";
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
   * assert.equal(error.code, "timeout");
   * const aborted = await runner.run("sleep", {}, { signal: AbortSignal.abort() }).catch((e) => e);
   * assert.equal(aborted.code, "cancelled");
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
    return this.#exec(toolId, args, options, undefined);
  }

  /**
   * Runs a tool as a stream of events: progress and chunks as they come, then
   * exactly one `done` (with the result) or `error` (with the serializable
   * error). Breaking out of the loop cancels the run.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { Runner } from "@toolfoundation/core/run";
   *
   * const runner = new Runner();
   * runner.addLocalTool({ name: "count", inputSchema: { type: "object" } }, async function* (_args, ctx) {
   *   ctx.progress({ progress: 0, total: 2 });
   *   yield "a";
   *   yield "b";
   * });
   * const kinds: string[] = [];
   * for await (const event of runner.runStream("count", {})) kinds.push(event.kind);
   * assert.deepEqual(kinds, ["progress", "chunk", "chunk", "done"]);
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
    const exec = this.#exec;
    // The stream machinery loads on first iteration (as the stream starts then).
    return (async function* () {
      const { streamRun } = await import("./_stream_run.ts");
      yield* streamRun(exec, toolId, args, options);
    })();
  }

  /**
   * Runs steps in order; `usePrevious` passes the previous step's structured
   * result as `args.previous` (on a copy). Stops at the first failure and
   * returns every step so far, the failing one included.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
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
   * assert.equal(chain.ok, true);
   * assert.equal(chain.structured, 3);
   * ```
   *
   * @param steps The steps.
   * @param options Signal and per-step deadline.
   * @returns Every step result so far.
   */
  async runChain(
    steps: readonly ChainStep[],
    options?: ChainOptions & ChainInputOptions,
  ): Promise<ChainResult> {
    // Chains load their machinery on first use; a single run never does.
    const { runChainSteps } = await import("./_chain_run.ts");
    return await runChainSteps(this.#exec, steps, options);
  }

  /**
   * The stream form of {@linkcode Runner.runChain}: `step_started`, the step's
   * progress and chunks, `step_finished`, and finally one `done` or `error`.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { Runner } from "@toolfoundation/core/run";
   *
   * const runner = new Runner();
   * runner.addLocalTool({ name: "one", inputSchema: { type: "object" } }, () => 1);
   * const kinds = [];
   * for await (const event of runner.runChainStream([{ toolId: "one" }])) kinds.push(event.kind);
   * assert.deepEqual(kinds, ["step_started", "step_finished", "done"]);
   * ```
   *
   * @param steps The steps.
   * @param options Signal and per-step deadline.
   * @returns The events.
   */
  runChainStream(
    steps: readonly ChainStep[],
    options?: ChainOptions & ChainInputOptions,
  ): AsyncIterable<ChainStreamEvent> {
    const exec = this.#exec;
    return (async function* () {
      const { streamChain } = await import("./_chain_run.ts");
      yield* streamChain(exec, steps, options);
    })();
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
    const abandoned = this.#inFlight.settled(this.#closeTimeoutMs);
    await Promise.allSettled([this.#backends.close(), abandoned]);
  }

  // Every execution goes through the retry loop (idempotent tools only, see retry.ts).
  readonly #exec: Execute = (toolId, args, options, hooks) =>
    withRetries(
      (spentMs) =>
        this.#pipeline.execute(
          toolId,
          args,
          spentMs === undefined ? options : { ...options, spentMs },
          hooks,
        ),
      {
        ...this.#retry,
        toolId,
        tool: this.#registry.get(toolId)?.tool,
        timeoutMs: options?.timeoutMs ?? this.#timeoutMs,
        ...(options?.spentMs === undefined ? {} : { spentMs: options.spentMs }),
        signal: options?.signal,
      },
    );
}
