// Private: an upstream connection's whole tool list (for the lock check of
// each connection the pool opens).

import type { McpListedTool } from "../run/mod.ts";
import { type Connection, watch } from "../run/mcp/connection.ts";
import { ServeError } from "./errors.ts";

/** Every page of the connection's `tools/list`. */
export async function listTools(
  name: string,
  connection: Connection,
  signal: AbortSignal | undefined,
  timeoutMs: number,
): Promise<McpListedTool[]> {
  const tools: McpListedTool[] = [];
  let cursor: string | undefined;
  do {
    const page = connection.client.request(
      { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
      { ...(signal === undefined ? {} : { signal }), timeout: timeoutMs },
    ) as Promise<{ tools?: unknown; nextCursor?: unknown }>;
    const result = await watch(connection, page);
    if (!Array.isArray(result.tools)) {
      throw new ServeError(
        "upstream_unavailable",
        `upstream server ${
          JSON.stringify(name)
        } sent a tools/list result without a tools array; its tools cannot be checked`,
      );
    }
    tools.push(...result.tools as McpListedTool[]);
    cursor = typeof result.nextCursor === "string" ? result.nextCursor : undefined;
  } while (cursor !== undefined);
  return tools;
}
