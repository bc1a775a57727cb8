/**
 * MCP backends: the tools an MCP server lists, their conversion into model
 * tools and their registration (`Runner.importMcpTools`), and elicitation.
 * How to reach a server and which protocol era to speak with it are in
 * `config.ts`.
 *
 * The MCP SDK (`@modelcontextprotocol/client` 2.x) is loaded only when the
 * first connection opens, so importing the runner costs nothing for programs
 * that never talk MCP.
 *
 * @module
 */

import type { Tool, ToolObjectSchema } from "../../model/mod.ts";
import type { RegisteredTool, ToolRegistry } from "../registry.ts";

/** A tool as an MCP server lists it (`tools/list`). */
export interface McpListedTool {
  /** The tool name on the server. */
  name: string;
  /** Display title. */
  title?: string;
  /** Description. */
  description?: string;
  /** Input schema. */
  inputSchema: { type: "object"; [keyword: string]: unknown };
  /** Output schema. */
  outputSchema?: { type: "object"; [keyword: string]: unknown };
  /** Annotations. */
  annotations?: Record<string, unknown>;
  /** Any other field. */
  [field: string]: unknown;
}

/** A server asks the user for input (MCP `elicitation/create`). */
export interface ElicitationRequest {
  /** The server name. */
  server: string;
  /** The question for the user. */
  message: string;
  /** The schema of the requested form (flat object of primitive fields), for form mode. */
  requestedSchema?: Record<string, unknown>;
  /** Every parameter of the request, as sent. */
  params: Record<string, unknown>;
}

/** The user's answer to an elicitation. Omitted fields that have a `default` get it. */
export interface ElicitationResponse {
  /** Whether the user accepted, declined or dismissed the request. */
  action: "accept" | "decline" | "cancel";
  /** The form values, when accepted. */
  content?: Record<string, unknown>;
}

/**
 * Answers elicitation requests from MCP servers. When a runner has one, its
 * MCP clients advertise form elicitation (with defaults applied).
 *
 * @example
 * ```ts
 * import { type ElicitationHandler, Runner } from "@toolfoundation/core/run";
 *
 * const acceptDefaults: ElicitationHandler = () => ({ action: "accept", content: {} });
 * const runner = new Runner({ onElicitation: acceptDefaults });
 * await runner.close();
 * ```
 */
export type ElicitationHandler = (
  request: ElicitationRequest,
  signal: AbortSignal,
) => ElicitationResponse | Promise<ElicitationResponse>;

/** Options of `Runner.importMcpTools`. */
export interface ImportMcpToolsOptions {
  /**
   * Namespace of the imported tools. Default: the server name, so `echo` on
   * server `everything` becomes `everything:echo`; `null` for none.
   */
  namespace?: string | null;
  /** Cancels the listing. */
  signal?: AbortSignal;
  /**
   * Deadline of connecting and listing together, in milliseconds (default:
   * the runner's `timeoutMs`; `0` or `Infinity` for none).
   */
  timeoutMs?: number;
}

/** The outcome of `Runner.importMcpTools`. */
export interface ImportMcpToolsResult {
  /** The tools registered, each with an mcp backend. */
  imported: RegisteredTool[];
  /**
   * Tools the server listed that are left out, with the reason: they break
   * the model's rules, or the protocol's (an invalid `x-mcp-header`
   * declaration in the 2026-07-28 era over Streamable HTTP).
   */
  skipped: { name: string; error: Error }[];
}

const MCP_FIELDS = [
  "title",
  "description",
  "outputSchema",
  "annotations",
  "icons",
  "execution",
  "_meta",
] as const;

/**
 * Converts a listed MCP tool into a model tool: every MCP field kept as
 * listed, plus the namespace.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fromMcpTool } from "./tools.ts";
 *
 * const tool = fromMcpTool({ name: "echo", inputSchema: { type: "object" } }, "everything");
 * assert.equal(tool.namespace, "everything");
 * assert.equal(tool.name, "echo");
 * ```
 *
 * @param listed The tool as the server listed it.
 * @param namespace The namespace to give it, if any.
 * @returns The model tool.
 */
export function fromMcpTool(listed: McpListedTool, namespace?: string): Tool {
  const tool: Tool = {
    name: listed.name,
    inputSchema: structuredClone(listed.inputSchema) as ToolObjectSchema,
  };
  for (const field of MCP_FIELDS) {
    if (listed[field] !== undefined) {
      (tool as unknown as Record<string, unknown>)[field] = structuredClone(listed[field]);
    }
  }
  if (namespace) tool.namespace = namespace;
  return tool;
}

/**
 * Checks what an MCP server lists on a connection (e.g. against a lock
 * file): returns the tools to refuse from then on, by their name on the
 * server, with the error their calls fail with. Throwing refuses the
 * connection: the run that opened it fails with that error.
 */
export type McpToolCheck = (
  tools: readonly McpListedTool[],
  signal: AbortSignal | undefined,
) => Promise<ReadonlyMap<string, Error>>;

/** Options of an MCP server beyond how to reach it (`Runner.setMcpServer`). */
export interface McpServerOptions {
  /**
   * Run on every connection to the server after the first one a listing
   * opened (whoever lists the tools compares them; a crash, restart or new
   * configuration opens a later one), before a call uses it. A tool it
   * refuses stays refused while the runner lives.
   */
  checkTools?: McpToolCheck;
  /**
   * Lists the server's tools instead of a connection of the runner's own,
   * e.g. over a connection `serve` keeps to the same server for its calls,
   * so that listing does not start the server once more. The runner then
   * connects only to call a tool (that connection is checked with
   * `checkTools`). `timeoutMs` covers connecting and listing (`0`: none).
   */
  listTools?: (signal: AbortSignal | undefined, timeoutMs: number) => Promise<McpToolListing>;
}

/**
 * What an MCP server lists: the tools to use, and those left out because
 * they break the protocol's rules (e.g. an invalid `x-mcp-header`
 * declaration in the 2026-07-28 era over Streamable HTTP), with the reason.
 */
export interface McpToolListing {
  /** The tools to use. */
  tools: McpListedTool[];
  /** Tools left out, with the error that says why. */
  excluded: { name: string; error: Error }[];
}

/** Lists the tools of an MCP server, under a deadline in milliseconds. */
export type ListMcpTools = (
  server: string,
  signal: AbortSignal | undefined,
  timeoutMs: number,
) => Promise<McpToolListing>;

/**
 * Lists a server's tools and registers each as a model tool with an mcp
 * backend (namespace: the server name unless given); a listed tool that
 * breaks the model's rules is skipped with the reason.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ToolRegistry } from "../registry.ts";
 * import { importMcpTools } from "./tools.ts";
 *
 * const registry = new ToolRegistry();
 * const list = () =>
 *   Promise.resolve({
 *     tools: [{ name: "echo", inputSchema: { type: "object" as const } }],
 *     excluded: [],
 *   });
 * const { imported } = await importMcpTools(registry, list, "everything", {}, 1000);
 * assert.equal(imported[0].id, "everything:echo");
 * ```
 *
 * @param registry Where the tools are registered.
 * @param list Lists the server's tools.
 * @param server The server's name.
 * @param options Namespace, signal and deadline.
 * @param defaultTimeoutMs The deadline when `options` gives none.
 * @returns What was imported and what was skipped.
 */
export async function importMcpTools(
  registry: ToolRegistry,
  list: ListMcpTools,
  server: string,
  options: ImportMcpToolsOptions,
  defaultTimeoutMs: number,
): Promise<ImportMcpToolsResult> {
  const listing = await list(server, options.signal, options.timeoutMs ?? defaultTimeoutMs);
  const namespace = options.namespace === undefined ? server : options.namespace ?? undefined;
  const result: ImportMcpToolsResult = { imported: [], skipped: [...listing.excluded] };
  for (const item of listing.tools) {
    try {
      result.imported.push(
        registry.add(fromMcpTool(item, namespace), {
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
