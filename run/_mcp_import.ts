// Private: importMcpTools, registering the tools an MCP server lists as model
// tools with an mcp backend.

import { fromMcpTool, type ImportMcpToolsOptions, type ImportMcpToolsResult } from "./mcp.ts";
import type { ToolRegistry } from "./registry.ts";
import type { Backends } from "./_backends.ts";

/** Lists a server's tools and registers each (namespace: the server name unless given). */
export async function importMcpTools(
  registry: ToolRegistry,
  backends: Backends,
  server: string,
  options: ImportMcpToolsOptions,
  defaultTimeoutMs: number,
): Promise<ImportMcpToolsResult> {
  const listed = await backends.listMcpTools(
    server,
    options.signal,
    options.timeoutMs ?? defaultTimeoutMs,
  );
  const namespace = options.namespace === undefined ? server : options.namespace ?? undefined;
  const result: ImportMcpToolsResult = { imported: [], skipped: [] };
  for (const item of listed) {
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
