// Private: the backends a runner executes on (local handlers, external
// providers and MCP servers, each by name), and starting one execution on one.
// The MCP connection layer (`mcp/pool.ts` and what it imports) loads when an
// MCP server is first listed or called, so a runner of local handlers and
// providers never loads it; the configured servers' names are known at once.

import type { Tool, ToolBackend } from "../model/mod.ts";
import type { LocalHandler, ToolContext } from "./local.ts";
import type { McpServerConfig } from "./mcp/config.ts";
import type { McpServerOptions, McpToolListing } from "./mcp/tools.ts";
import type { ToolProvider } from "./provider.ts";
import type { RunnerOptions } from "./runner_options.ts";
import type { McpPool } from "./mcp/pool.ts";

/** The runner options that configure backends. */
type BackendOptions = Pick<
  RunnerOptions,
  "handlers" | "providers" | "mcpServers" | "onElicitation"
>;

/** Local handlers, providers and MCP servers by name. */
export class Backends {
  readonly #handlers = new Map<string, LocalHandler>();
  readonly #providers = new Map<string, ToolProvider>();
  /** The MCP servers' configurations, by name (the pool's, once it is loaded). */
  readonly #mcpConfigs = new Map<string, McpServerConfig>();
  /** The MCP servers' options, by name. */
  readonly #mcpOptions = new Map<string, McpServerOptions>();
  readonly #onElicitation: BackendOptions["onElicitation"];
  /** The MCP connections, loaded on first use. */
  #mcp: Promise<McpPool> | undefined;

  constructor(options: BackendOptions) {
    for (const [name, handler] of Object.entries(options.handlers ?? {})) {
      this.#handlers.set(name, handler);
    }
    for (const provider of options.providers ?? []) this.#providers.set(provider.id, provider);
    this.#onElicitation = options.onElicitation;
    for (const [name, config] of Object.entries(options.mcpServers ?? {})) {
      this.#mcpConfigs.set(name, config);
    }
  }

  /**
   * The MCP pool, loaded (and given every server configured so far) on first
   * use. Until then no connection exists, so configuring a server only records it.
   */
  #pool(): Promise<McpPool> {
    return this.#mcp ??= import("./mcp/pool.ts").then(({ McpPool }) => {
      const pool = new McpPool();
      pool.onElicitation = this.#onElicitation;
      // Nothing is open yet: adding only records each configuration.
      for (const [name, config] of this.#mcpConfigs) {
        void pool.add(name, config, this.#mcpOptions.get(name));
      }
      return pool;
    });
  }

  setHandler(name: string, handler: LocalHandler): void {
    this.#handlers.set(name, handler);
  }

  setProvider(provider: ToolProvider): void {
    this.#providers.set(provider.id, provider);
  }

  /** Configures an MCP server, closing an open connection of a previous configuration. */
  async setMcpServer(
    name: string,
    config: McpServerConfig,
    options: McpServerOptions = {},
  ): Promise<void> {
    this.#mcpConfigs.set(name, config);
    this.#mcpOptions.set(name, options);
    // Before the pool is loaded there is no connection to close; once it is
    // (or is loading), the pool takes the configuration and closes the old one.
    // A pool that failed to load has no connection either (calls report the failure).
    const pool = await this.#mcp?.catch(() => undefined);
    await pool?.add(name, config, options);
  }

  /**
   * Takes every MCP server of `other` (configurations, checks, and the pool
   * with its open connections and what it learnt: eras, which servers were
   * connected, refused tools); `other` keeps none, so closing it leaves them
   * open. Only a backend set without MCP servers of its own can take them.
   */
  adoptMcp(other: Backends): string[] {
    if (this.#mcpConfigs.size > 0 || this.#mcp !== undefined) {
      throw new Error("a runner with MCP servers of its own cannot take another runner's");
    }
    const names = [...other.#mcpConfigs.keys()];
    for (const [name, config] of other.#mcpConfigs) this.#mcpConfigs.set(name, config);
    for (const [name, options] of other.#mcpOptions) this.#mcpOptions.set(name, options);
    const onElicitation = this.#onElicitation;
    this.#mcp = other.#mcp?.then((pool) => {
      // Connections opened from here on offer what this runner answers.
      pool.onElicitation = onElicitation;
      return pool;
    });
    other.#mcpConfigs.clear();
    other.#mcpOptions.clear();
    other.#mcp = undefined;
    return names;
  }

  /** Every tool an MCP server lists. */
  listMcpTools(
    server: string,
    signal: AbortSignal | undefined,
    timeoutMs: number,
  ): Promise<McpToolListing> {
    return this.#pool().then((pool) => pool.listTools(server, { signal, timeoutMs }));
  }

  /** Whether the handler, provider or MCP server a backend names is configured. */
  available(backend: ToolBackend): boolean {
    switch (backend.kind) {
      case "local":
        return this.#handlers.has(backend.local.name);
      case "provider":
        return this.#providers.has(backend.provider.providerId);
      case "mcp":
        return this.#mcpConfigs.has(backend.mcp.serverName);
    }
  }

  /** Starts an execution: the handler's, provider's or MCP call's outcome as it comes. */
  start(
    tool: Tool,
    backend: ToolBackend,
    args: Record<string, unknown>,
    ctx: ToolContext,
    timeoutMs: number,
    spentMs = 0,
  ): unknown {
    switch (backend.kind) {
      case "local":
        return this.#handlers.get(backend.local.name)!(args, ctx);
      case "provider":
        return this.#providers.get(backend.provider.providerId)!.call(
          { toolId: backend.provider.toolId, args, tool },
          ctx,
        );
      case "mcp":
        return this.#pool().then((pool) =>
          pool.call(
            backend.mcp.serverName,
            backend.mcp.toolName ?? tool.name,
            args,
            ctx,
            timeoutMs,
            tool.inputSchema,
            spentMs,
          )
        );
    }
  }

  /** Closes every MCP connection, every provider and every handler that has `close()`; never rejects. */
  close(): Promise<unknown> {
    const handlers = [...this.#handlers.values()] as Array<
      LocalHandler & { close?: () => Promise<void> | void }
    >;
    return Promise.allSettled([
      this.#mcp?.then((pool) => pool.close()),
      ...[...this.#providers.values()].map((p) => p.close?.()),
      ...handlers.map((h) => typeof h.close === "function" ? h.close() : undefined),
    ]);
  }
}
