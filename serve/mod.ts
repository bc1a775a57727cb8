/**
 * `serve`: a manifest's tools (local tools, chains, and the tools, resources,
 * prompts and completions of upstream MCP servers) as one MCP server, over
 * stdio or Streamable HTTP, with every call checked: arguments against the
 * input schema before anything runs, results against the output schema,
 * deadlines and output caps; Host/Origin checks, bearer or OAuth auth, body
 * and concurrency limits for HTTP.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Runner } from "@toolfoundation/core/run";
 * import { Gateway } from "@toolfoundation/core/serve";
 *
 * const runner = new Runner();
 * runner.addLocalTool({ name: "ping", inputSchema: { type: "object" } }, () => "pong");
 * const gateway = await Gateway.create(runner);
 * const result = await gateway.callTool("ping", {}, { caller: "doc" });
 * assert.deepEqual(result.content, [{ type: "text", text: "pong" }]);
 * await gateway.close();
 * ```
 *
 * @module
 */

export { ServeError, type ServeErrorCode, type ServeErrorOptions } from "./errors.ts";
export type {
  Upstream,
  UpstreamCallContext,
  UpstreamCapabilities,
  UpstreamMethod,
  UpstreamNotification,
  UpstreamRequest,
} from "./upstream.ts";
export { type McpUpstream, mcpUpstream, type McpUpstreamOptions } from "./mcp_upstream.ts";
export {
  buildCatalog,
  type BuildCatalogOptions,
  type ServeChain,
  type ServedTarget,
  type ServedTool,
} from "./catalog.ts";
export { type AccessLogEntry, accessLogLine, type AccessOutcome } from "./access_log.ts";
export { type CallContext, Gateway, type GatewayOptions, GatewayProtocolError } from "./gateway.ts";
export type { CreateMcpServerOptions } from "./_mcp_server.ts";
export {
  DEFAULT_MAX_MESSAGE_BYTES,
  serveStdio,
  type ServeStdioOptions,
  type StdioServing,
} from "./stdio.ts";
export {
  type AuthOutcome,
  bearerAuth,
  type HttpAuth,
  oauthResourceAuth,
  type OAuthResourceOptions,
} from "./auth.ts";
export {
  type ClientInfo,
  createHttpHandler,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_CONCURRENT_PER_CLIENT,
  DEFAULT_MAX_LOCAL_SESSIONS,
  DEFAULT_MAX_RATE,
  type HttpHandler,
  type HttpHandlerOptions,
  type HttpServing,
  type RateLimit,
  serveHttp,
  type ServeHttpOptions,
} from "./http.ts";
export {
  DEFAULT_STATE_LIMITS,
  MemoryStateStore,
  type MemoryStateStoreOptions,
  type SessionRecord,
  type SessionRefusal,
  type StateLimits,
  stateLimits,
  type StateStore,
  StateStoreError,
  type StateStoreErrorCode,
  type StateStoreErrorOptions,
  type StoredEvent,
  type StoredMessage,
} from "./state/mod.ts";
export {
  parseRedisUrl,
  type RedisAddress,
  RedisStateStore,
  type RedisStateStoreOptions,
} from "./state/redis.ts";
