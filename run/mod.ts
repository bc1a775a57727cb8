/**
 * The runner: execute tools on local handlers, external providers (a
 * subprocess speaking JSON, an HTTP endpoint) and MCP servers (stdio and
 * Streamable HTTP), with input and output validation by the model's
 * validator, deadlines, cancellation, streaming events and chains.
 *
 * The MCP SDK is loaded only when the first MCP connection opens.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Runner } from "@toolfoundation/core/run";
 *
 * const runner = new Runner();
 * runner.addLocalTool({
 *   name: "greet",
 *   inputSchema: {
 *     type: "object",
 *     properties: { name: { type: "string" } },
 *     required: ["name"],
 *   },
 * }, (args) => `hello ${args.name}`);
 *
 * const result = await runner.run("greet", { name: "Ada" });
 * assert.equal(result.structured, "hello Ada");
 * await runner.close();
 * ```
 *
 * @module
 */

// Errors, by class: every one extends RunError and has a stable `code`.
export {
  ChainReferenceError,
  ExecutionError,
  InputValidationError,
  NoBackendError,
  OutputTooLargeError,
  PermissionDeniedError,
  RunCancelledError,
  RunError,
  type RunErrorCode,
  type RunErrorOptions,
  RunTimeoutError,
  ToolIdError,
  ToolNotFoundError,
  ToolResultError,
  type ValidationRunErrorOptions,
} from "./errors.ts";

export { type RegisteredTool, ToolRegistry } from "./registry.ts";
export {
  type McpCallResult,
  type McpContentBlock,
  OutputValidationError,
  type RunResult,
} from "./result.ts";
export type { LocalHandler, ProgressUpdate, ToolContext } from "./local.ts";
export {
  type DefinedTool,
  defineTool,
  type DefineToolOptions,
  type HandlerReturn,
  type InferToolSchema,
  isDefinedTool,
  type ObjectSchemaLiteral,
  type ToolArgs,
  type ToolResult,
  type ToolSchemaSource,
  type TypedHandler,
} from "./define_tool.ts";
export { DEFAULT_MAX_OUTPUT_BYTES, type ProviderRequest, type ToolProvider } from "./provider.ts";
export {
  childEnv,
  type ChildEnvOptions,
  inheritedEnvNames,
  type InheritEnv,
  NETWORK_ENV,
  SAFE_ENV,
} from "./process/child_env.ts";
export { commandProvider, type CommandProviderOptions } from "./command/command_provider.ts";
export {
  DEFAULT_MAX_MODULE_PROCESSES,
  ModuleProcessLimit,
  type ModuleProcessSlot,
} from "./module/process_limit.ts";
export { httpProvider, type HttpProviderOptions } from "./http/http_provider.ts";
export type {
  ElicitationHandler,
  ElicitationRequest,
  ElicitationResponse,
  ImportMcpToolsOptions,
  ImportMcpToolsResult,
  McpListedTool,
  McpServerOptions,
  McpToolCheck,
  McpToolListing,
} from "./mcp/tools.ts";
export type {
  McpAuthProvider,
  McpBearerAuthProvider,
  McpHttpServerConfig,
  McpOAuthClientProvider,
  McpProtocol,
  McpServerConfig,
  McpSseServerConfig,
  McpStdioServerConfig,
} from "./mcp/config.ts";
export type {
  ChunkEvent,
  DoneEvent,
  ErrorEvent,
  ProgressEvent,
  SerializedError,
  StreamEvent,
} from "./stream.ts";
export type {
  ChainInputOptions,
  ChainOptions,
  ChainResult,
  ChainStep,
  ChainStepNotRun,
  ChainStepResult,
  ChainStreamEvent,
} from "./chain.ts";
export { Runner } from "./runner.ts";
export type { RunnerOptions, RunOptions } from "./runner_options.ts";
export { McpSession, type McpSessionOptions } from "./mcp/session.ts";
export {
  DEFAULT_RETRY_POLICY,
  type RetryEvent,
  type RetryOptions,
  type RetryPolicy,
} from "./retry.ts";
export {
  isReference,
  type ParsedReference,
  parseReference,
  type ReferenceContext,
  resolveReferences,
  type StepReference,
} from "./chain_pointer.ts";

// The model types the runner refers to (Tool, ToolBackend, SchemaValidator, ...)
// are exported by "@toolfoundation/core/model".
