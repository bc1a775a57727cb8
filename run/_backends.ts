// Private: the backends a runner executes on (local handlers, external
// providers and MCP servers, each by name), and starting one execution on one.

import type { Tool, ToolBackend } from "../model/mod.ts";
import type { LocalHandler, ToolContext } from "./local.ts";
import type { McpListedTool, McpServerConfig } from "./mcp.ts";
import type { ToolProvider } from "./provider.ts";
import type { RunnerOptions } from "./runner.ts";
import { McpPool } from "./_mcp_pool.ts";

/** The runner options that configure backends. */
type BackendOptions = Pick<
  RunnerOptions,
  "handlers" | "providers" | "mcpServers" | "onElicitation"
>;

/** Local handlers, providers and MCP servers by name. */
export class Backends {
  readonly #handlers = new Map<string, LocalHandler>();
  readonly #providers = new Map<string, ToolProvider>();
  readonly #mcp = new McpPool();

  constructor(options: BackendOptions) {
    for (const [name, handler] of Object.entries(options.handlers ?? {})) {
      this.#handlers.set(name, handler);
    }
    for (const provider of options.providers ?? []) this.#providers.set(provider.id, provider);
    this.#mcp.onElicitation = options.onElicitation;
    for (const [name, config] of Object.entries(options.mcpServers ?? {})) {
      void this.#mcp.add(name, config);
    }
  }

  setHandler(name: string, handler: LocalHandler): void {
    this.#handlers.set(name, handler);
  }

  setProvider(provider: ToolProvider): void {
    this.#providers.set(provider.id, provider);
  }

  /** Configures an MCP server, closing an open connection of a previous configuration. */
  setMcpServer(name: string, config: McpServerConfig): Promise<void> {
    return this.#mcp.add(name, config);
  }

  /** Every tool an MCP server lists. */
  listMcpTools(
    server: string,
    signal: AbortSignal | undefined,
    timeoutMs: number,
  ): Promise<McpListedTool[]> {
    return this.#mcp.listTools(server, { signal, timeoutMs });
  }

  /** Whether the handler, provider or MCP server a backend names is configured. */
  available(backend: ToolBackend): boolean {
    switch (backend.kind) {
      case "local":
        return this.#handlers.has(backend.local.name);
      case "provider":
        return this.#providers.has(backend.provider.providerId);
      case "mcp":
        return this.#mcp.has(backend.mcp.serverName);
    }
  }

  /** Starts an execution: the handler's, provider's or MCP call's outcome as it comes. */
  start(
    tool: Tool,
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
          { toolId: backend.provider.toolId, args, tool },
          ctx,
        );
      case "mcp":
        return this.#mcp.call(
          backend.mcp.serverName,
          backend.mcp.toolName ?? tool.name,
          args,
          ctx,
          timeoutMs,
        );
    }
  }

  /** Closes every MCP connection, every provider and every handler that has `close()`; never rejects. */
  close(): Promise<unknown> {
    const handlers = [...this.#handlers.values()] as Array<
      LocalHandler & { close?: () => Promise<void> | void }
    >;
    return Promise.allSettled([
      this.#mcp.close(),
      ...[...this.#providers.values()].map((p) => p.close?.()),
      ...handlers.map((h) => typeof h.close === "function" ? h.close() : undefined),
    ]);
  }
}
