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
 * console.log(result.structured); // hello Ada
 * await runner.close();
 * ```
 *
 * @module
 */

export * from "./errors.ts";
export * from "./registry.ts";
export * from "./result.ts";
export * from "./local.ts";
export * from "./provider.ts";
export * from "./child_env.ts";
export * from "./command_provider.ts";
export * from "./http_provider.ts";
export * from "./mcp.ts";
export * from "./stream.ts";
export * from "./chain.ts";
export * from "./runner_options.ts";
export * from "./runner.ts";

// The model types the runner's API refers to, re-exported for convenience.
export type {
  BackendKind,
  JsonSchema,
  JsonSchemaObject,
  LocalBackend,
  LocalToolBackend,
  McpBackend,
  McpTool,
  McpToolBackend,
  ProviderBackend,
  ProviderToolBackend,
  SchemaInput,
  SchemaValidator,
  Tool,
  ToolAnnotations,
  ToolBackend,
  ToolExecution,
  ToolIcon,
  ToolObjectSchema,
  ValidationFailure,
} from "../model/mod.ts";
export { ToolFoundationError } from "../model/mod.ts";
