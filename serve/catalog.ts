/**
 * The tool catalog of a served manifest: which tools are served under which
 * names, each with its definition exactly as registered (every JSON Schema
 * keyword kept), and where a call goes (the runner, an upstream server, or a
 * chain).
 *
 * @module
 */

import type { Tool, ToolObjectSchema } from "../model/mod.ts";
import type { ChainStep, ToolRegistry } from "../run/mod.ts";
import { ServeError } from "./errors.ts";

/** A chain served as one tool. */
export interface ServeChain {
  /** What the chain does (the tool's description). */
  description?: string;
  /**
   * The chain's input schema (default: an object without properties). The
   * call's arguments are merged over the first step's fixed arguments.
   */
  inputSchema?: ToolObjectSchema;
  /** The steps, in order. */
  steps: readonly ChainStep[];
}

/** Where a served tool's calls go. */
export type ServedTarget =
  | { kind: "runner"; toolId: string }
  | { kind: "upstream"; toolId: string; server: string; upstreamName: string }
  | { kind: "chain"; chain: string; steps: readonly ChainStep[] };

/** One served tool. */
export interface ServedTool {
  /** The name clients see and call. */
  readonly name: string;
  /** The definition as sent in `tools/list` (the model tool without namespace/version/tags). */
  readonly definition: Readonly<Record<string, unknown>>;
  /** The model tool (for validation). */
  readonly tool: Tool;
  /** Where calls go. */
  readonly target: ServedTarget;
}

/** Options of {@linkcode buildCatalog}. */
export interface BuildCatalogOptions {
  /** Chains served as tools, by name. */
  chains?: Readonly<Record<string, ServeChain>>;
  /** A prefix for the tools of an MCP server, by server name (e.g. `{ github: "gh_" }`). */
  prefixes?: Readonly<Record<string, string>>;
  /** Servers whose tool calls go to an upstream (forwarded transparently) instead of the runner. */
  upstreams?: ReadonlySet<string>;
}

const MODEL_ONLY = new Set(["namespace", "version", "tags"]);
const TOOL_NAME = /^[A-Za-z0-9_.\-]{1,128}$/;

function definitionOf(tool: Tool, name: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(tool)) if (!MODEL_ONLY.has(key)) out[key] = value;
  out.name = name;
  return out;
}

/**
 * The served tools of a registry and its chains. Tools keep their own names
 * when unique; a clash (two tools, or a tool and a chain, under one name) is
 * an error naming both.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { localBackend, mcpBackend } from "@toolfoundation/core/model";
 * import { ToolRegistry } from "@toolfoundation/core/run";
 * import { buildCatalog } from "@toolfoundation/core/serve";
 *
 * const registry = new ToolRegistry();
 * const schema = { type: "object" as const };
 * registry.add({ name: "search", inputSchema: schema }, localBackend("search"));
 * registry.add({ name: "search", namespace: "gh", inputSchema: schema }, mcpBackend("gh"));
 * assert.throws(() => buildCatalog(registry), { code: "name_clash" });
 * const tools = buildCatalog(registry, { prefixes: { gh: "gh_" } });
 * assert.deepEqual(tools.map((t) => t.name), ["search", "gh_search"]);
 * ```
 *
 * @param registry The runner's registry.
 * @param options Chains, prefixes and forwarded servers.
 * @returns The served tools, registry order then chains.
 * @throws {ServeError} `name_clash` or `bad_option` (a name MCP clients cannot call).
 */
export function buildCatalog(
  registry: ToolRegistry,
  options: BuildCatalogOptions = {},
): ServedTool[] {
  const served: ServedTool[] = [];
  const byName = new Map<string, string>();
  const claim = (name: string, source: string) => {
    const other = byName.get(name);
    if (other !== undefined) {
      throw new ServeError(
        "name_clash",
        `${other} and ${source} would both be served as ${JSON.stringify(name)}; ` +
          `give one server a prefix (--prefix SERVER=PREFIX) or rename one of them`,
      );
    }
    if (!TOOL_NAME.test(name)) {
      throw new ServeError(
        "bad_option",
        `${source} cannot be served as ${JSON.stringify(name)}: MCP tool names are 1-128 ` +
          `characters of A-Z a-z 0-9 _ - .; rename it or change its prefix`,
      );
    }
    byName.set(name, source);
  };
  for (const entry of registry.list()) {
    const mcp = entry.backends.find((b) => b.kind === "mcp");
    const server = mcp?.kind === "mcp" ? mcp.mcp.serverName : undefined;
    const prefix = server === undefined ? "" : options.prefixes?.[server] ?? "";
    const name = prefix + entry.tool.name;
    claim(name, `tool ${JSON.stringify(entry.id)}`);
    const forwarded = server !== undefined && entry.backends.length === 1 &&
      options.upstreams?.has(server) === true;
    served.push({
      name,
      definition: definitionOf(entry.tool, name),
      tool: entry.tool,
      target: forwarded
        ? {
          kind: "upstream",
          toolId: entry.id,
          server: server!,
          // An override may rename a tool: the call uses the server's own name.
          upstreamName: (mcp?.kind === "mcp" ? mcp.mcp.toolName : undefined) ?? entry.tool.name,
        }
        : { kind: "runner", toolId: entry.id },
    });
  }
  for (const [name, chain] of Object.entries(options.chains ?? {})) {
    claim(name, `chain ${JSON.stringify(name)}`);
    const tool: Tool = {
      name,
      ...(chain.description === undefined ? {} : { description: chain.description }),
      inputSchema: chain.inputSchema ?? { type: "object", properties: {} },
    };
    served.push({
      name,
      definition: definitionOf(tool, name),
      tool,
      target: { kind: "chain", chain: name, steps: chain.steps },
    });
  }
  return served;
}
