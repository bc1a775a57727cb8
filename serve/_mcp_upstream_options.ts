// Private: the options of an upstream MCP server's connection pool, declared
// here (below the pool, which reads them) and exported from mcp_upstream.ts.

import type { McpListedTool } from "../run/mod.ts";

/** Options of {@linkcode mcpUpstream}. */
export interface McpUpstreamOptions {
  /**
   * Connections open at most (default 4 for a stdio server, where each is a
   * process, 16 otherwise), opened on demand: one per request in flight
   * (several on a shared stdio connection, see `maxRequestsPerConnection`);
   * further requests wait for one within their deadline (their signal, or
   * `timeoutMs`).
   */
  maxConnections?: number;
  /**
   * Requests one connection to a stdio server carries at once, for clients
   * that offer none of sampling, elicitation or roots (default 16): a new
   * process starts only when every open one carries that many. 1 gives each
   * request in flight a process of its own, for a server that cannot serve
   * requests side by side. A client that offers one of them always has a
   * connection to itself (the server's requests go to it alone); other
   * transports carry one request per connection.
   */
  maxRequestsPerConnection?: number;
  /**
   * Connections one downstream caller (the `caller` of the request: token
   * subject, static token name or address) holds before other callers'
   * requests go first (default a quarter of `maxConnections`, at least 1).
   * Callers holding their share wait while a caller under its share waits;
   * then the one holding the fewest goes first, and none of them takes one
   * of the last `reservedConnections`. Requests of one caller are served in
   * the order they came. On stdio connections shared by several requests
   * (see `maxRequestsPerConnection`), a connection here counts as that many
   * calls: with the defaults one caller holds at most 48 of 64 calls.
   */
  callerShare?: number;
  /**
   * Free connections a caller holding its share never takes, kept for other
   * callers (default `callerShare`, at most `maxConnections - callerShare`).
   * With the defaults, one caller holds at most 12 of 16 connections and a
   * newcomer finds one free at once (of a stdio server's 4: at most 3; on
   * shared stdio connections, counted in calls as for `callerShare`).
   */
  reservedConnections?: number;
  /**
   * Idle connections kept open for the next requests (default: all of a
   * stdio server's, 4 of others; at most `maxConnections`); others are closed
   * (a stdio server's process stops) when their request ends.
   */
  maxIdleConnections?: number;
  /**
   * Told each time a log line of a stdio server (`notifications/message`,
   * which names no request) is dropped, with the count so far: requests of
   * more than one caller were in flight on its process, and the line may
   * belong to any of them. Requests of one caller get it once (the oldest in
   * flight). `maxRequestsPerConnection: 1` keeps every log line.
   */
  onLogDropped?: (dropped: number) => void;
  /** Deadline of connecting, in ms (default 30 000). */
  connectTimeoutMs?: number;
  /**
   * Checks what the server lists on every connection it opens (the first one
   * and each one after a crash, restart or failed request), e.g. against a
   * lock file: returns the tools to refuse from then on, by their name on the
   * server, with the error their calls fail with. A tool refused once stays
   * refused while the upstream lives. When it throws, the connection is not
   * used and the request fails with that error. Without it, nothing is
   * listed.
   */
  checkTools?: (
    tools: readonly McpListedTool[],
    signal: AbortSignal | undefined,
  ) => Promise<ReadonlyMap<string, Error>>;
}
