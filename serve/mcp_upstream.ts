/**
 * An {@linkcode Upstream} that reaches its MCP server exactly as the runner
 * does: the runner's connections (stdio in its own process group with the
 * child environment policy, Streamable HTTP, SSE, the message cap
 * `maxOutputBytes`, the protocol era of `protocol`, OAuth through
 * `authProvider`, the server's stderr kept for error messages), in a pool
 * per server: connections opened on demand up to a cap, a few kept open for
 * the next requests, replaced after a failure. A connection serves one
 * request at a time, so the upstream's logging and server-to-client requests
 * (sampling, elicitation, roots) reach exactly the downstream request that
 * caused them; except that a stdio server's process carries several requests
 * side by side for clients that offer none of sampling, elicitation or roots
 * (see {@linkcode McpUpstreamOptions.maxRequestsPerConnection}), each with
 * its own progress, cancellation and deadline (a log line there goes to one
 * principal's oldest request, or to none: see
 * {@linkcode McpUpstreamOptions.onLogDropped}). The cap is shared fairly
 * between downstream callers (see {@linkcode McpUpstreamOptions.callerShare}):
 * calls of one client that hang upstream cannot make another client's call
 * to the same server wait for their deadline.
 *
 * @module
 */

import type { McpServerConfig, McpToolListing } from "../run/mod.ts";
import { McpUpstream as Pool } from "./_mcp_upstream_pool.ts";
import type { McpUpstreamOptions } from "./_mcp_upstream_options.ts";
import type { Upstream } from "./upstream.ts";

export type { McpUpstreamOptions } from "./_mcp_upstream_options.ts";

/**
 * An {@linkcode Upstream} of an MCP server that also lists the server's
 * tools for a runner (`McpServerOptions.listTools`) over its pool's
 * connection, so a server listed when `serve` starts is started once.
 */
export interface McpUpstream extends Upstream {
  /**
   * Lists the server's tools over the pool's first connection (kept for the
   * calls), with the runner's checks, errors and deadline.
   *
   * @param signal Cancels connecting and listing.
   * @param timeoutMs The deadline of connecting and listing together, in ms (`0`: none).
   * @returns The tools, and those left out with why.
   */
  listTools(signal: AbortSignal | undefined, timeoutMs: number): Promise<McpToolListing>;
}

/**
 * An upstream MCP server reached through the runner's connections (stdio,
 * Streamable HTTP or SSE, in the era its `protocol` says), connected on first
 * use. `close()` settles once every stdio server's whole process group is
 * gone (SIGTERM, then SIGKILL).
 *
 * @example
 * ```ts ignore
 * import assert from "node:assert/strict";
 * import { mcpUpstream } from "@toolfoundation/core/serve";
 *
 * const upstream = mcpUpstream("docs", { transport: "http", url: "http://127.0.0.1:3001/mcp" });
 * const { prompts } = await upstream.request("prompts/list", {}, {});
 * assert.ok(Array.isArray(prompts));
 * await upstream.close();
 * ```
 *
 * @param name The server's name.
 * @param config How to reach it (the runner's server configuration).
 * @param options Pool size, callers' shares, connect deadline, lock check.
 * @returns The upstream.
 */
export function mcpUpstream(
  name: string,
  config: McpServerConfig,
  options: McpUpstreamOptions = {},
): McpUpstream {
  return new Pool(name, config, options);
}
