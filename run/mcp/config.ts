/**
 * How to reach an MCP server: over stdio (a subprocess in its own process
 * group), Streamable HTTP, or the legacy HTTP+SSE transport; which protocol
 * era to speak with it; how HTTP requests are authenticated.
 *
 * @module
 */

import type { InheritEnv } from "../process/child_env.ts";

/**
 * An MCP server started as a subprocess and spoken to over stdin/stdout
 * (newline-delimited JSON-RPC).
 *
 * The server runs in its own process group with exactly the environment of
 * the policy in `run/process/child_env.ts` (see `childEnv`): the safe set (`HOME`,
 * `LOGNAME`, `PATH`, `SHELL`, `TERM`, `USER`), the variables networking and
 * certificate trust need (proxies, `NODE_EXTRA_CA_CERTS`, `SSL_CERT_FILE`,
 * `DENO_DIR`, `DENO_CERT`, `DENO_TLS_CA_STORE`, npm's settings ...), the
 * names in `inheritEnv`, and `env` (which wins). When it stops (the runner
 * closes, a start is given up), the whole group gets SIGTERM, then SIGKILL.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { McpStdioServerConfig } from "@toolfoundation/core/run";
 *
 * const config: McpStdioServerConfig = {
 *   transport: "stdio",
 *   command: "deno",
 *   args: ["run", "-A", "npm:@modelcontextprotocol/server-memory@2026.8.31"],
 *   env: { MEMORY_FILE_PATH: "/tmp/memory.jsonl" },
 *   inheritEnv: ["GITHUB_TOKEN"],
 *   maxOutputBytes: 1024 * 1024,
 * };
 * assert.equal(config.transport, "stdio");
 * ```
 */
export interface McpStdioServerConfig {
  /** Always `"stdio"`. */
  transport: "stdio";
  /** The program to start. */
  command: string;
  /** Its arguments. */
  args?: string[];
  /** Environment variables set for the server (they override inherited ones). */
  env?: Record<string, string>;
  /**
   * Further variable names the server inherits from this process, beyond the
   * default policy; `"all"` passes the whole environment (explicit opt-in).
   */
  inheritEnv?: InheritEnv;
  /** The working directory. */
  cwd?: string;
  /** The protocol era (default `"auto"`: probed on the same connection, see `McpProtocol`). */
  protocol?: McpProtocol;
  /**
   * The largest message the server may send, in bytes (default
   * `DEFAULT_MAX_OUTPUT_BYTES`, 10 MiB); a larger one fails the calls in
   * flight with `output_too_large` and is never read into memory whole.
   */
  maxOutputBytes?: number;
  /**
   * Scrubs secrets from the server's stderr before any of it is put into an
   * error, so a cut never splits a secret.
   */
  redact?: (text: string) => string;
}

/**
 * Which MCP protocol era to speak with a server.
 *
 * - `"auto"` (the default): ask the server with `server/discover` on the
 *   connection itself (never in an extra process) and use 2026-07-28 when it
 *   offers it, else the 2025 `initialize` handshake. On stdio, a server that
 *   does not answer the probe within 5 s is spoken to in the 2025 era on the
 *   same connection, and one that exits on the probe is started once more in
 *   the 2025 era. The verdict is remembered for the runner's life (a
 *   restarted server is not probed again).
 * - `"legacy"`: the 2025 `initialize` handshake only, no probe.
 * - `"2026-07-28"`: that revision only; connecting fails when the server does
 *   not offer it.
 */
export type McpProtocol = "auto" | "legacy" | "2026-07-28";

/**
 * A bearer token source for an MCP server (the shape of the MCP SDK's
 * `AuthProvider`): `token()` before every request; `onUnauthorized()`, when
 * given, after a 401, before the request is retried once.
 */
export interface McpBearerAuthProvider {
  /** The current bearer token, or `undefined` when there is none. */
  token(): Promise<string | undefined>;
  /** Refreshes credentials after a 401 (the SDK passes the response and server URL). */
  onUnauthorized?(context: unknown): Promise<void>;
}

/**
 * An OAuth client for an MCP server: the MCP SDK's `OAuthClientProvider`
 * (`@modelcontextprotocol/client`), of which only the members that tell it
 * apart are named here; the SDK's transport runs the OAuth flows with it.
 */
export interface McpOAuthClientProvider {
  /** The client's registration metadata (RFC 7591). */
  readonly clientMetadata: unknown;
  /** The stored tokens, if any. */
  tokens(...args: never[]): unknown;
}

/**
 * Authenticates HTTP requests to an MCP server; handed to the SDK transport
 * unchanged.
 */
export type McpAuthProvider = McpBearerAuthProvider | McpOAuthClientProvider;

/**
 * An MCP server reached over Streamable HTTP.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { McpHttpServerConfig } from "@toolfoundation/core/run";
 *
 * const config: McpHttpServerConfig = {
 *   transport: "http",
 *   url: "http://127.0.0.1:3001/mcp",
 *   protocol: "auto",
 *   authProvider: { token: () => Promise.resolve(Deno.env.get("API_TOKEN")) },
 * };
 * assert.equal(config.transport, "http");
 * ```
 */
export interface McpHttpServerConfig {
  /** Always `"http"`. */
  transport: "http";
  /** The endpoint URL, e.g. `http://127.0.0.1:3001/mcp`. */
  url: string | URL;
  /**
   * Extra request headers (e.g. `Authorization`). They go only to the URL's
   * origin: a redirect to another origin (followed at most 20 times) drops
   * them and `Authorization`, `Cookie`, `Proxy-Authorization`, and an OAuth
   * request to an authorization server elsewhere goes without them.
   */
  headers?: Record<string, string>;
  /** Supplies (and refreshes) the bearer token of every request. */
  authProvider?: McpAuthProvider;
  /** The protocol era (default `"auto"`: probed on the first request). */
  protocol?: McpProtocol;
  /**
   * The largest message (a JSON body or one SSE event) the server may send, in
   * bytes (default `DEFAULT_MAX_OUTPUT_BYTES`, 10 MiB); a larger one fails
   * the calls in flight with `output_too_large`.
   */
  maxOutputBytes?: number;
}

/**
 * An MCP server reached over the legacy HTTP+SSE transport (protocol
 * 2024-11-05: a GET event stream plus POSTs to the endpoint it names). Always
 * spoken to in the 2025 era.
 */
export interface McpSseServerConfig {
  /** Always `"sse"`. */
  transport: "sse";
  /** The SSE endpoint URL, e.g. `http://127.0.0.1:3001/sse`. */
  url: string | URL;
  /**
   * Extra request headers (e.g. `Authorization`), on the stream and on every
   * POST; only to the URL's origin (see the `http` transport's `headers`).
   */
  headers?: Record<string, string>;
  /** Supplies (and refreshes) the bearer token of every request. */
  authProvider?: McpAuthProvider;
  /** The largest message (one SSE event or response body) the server may send, in bytes. */
  maxOutputBytes?: number;
}

/** How to reach an MCP server. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig | McpSseServerConfig;
