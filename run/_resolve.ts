// Private: the first steps of a run, finding what to execute: the registered
// tool of an ID, and the best of its backends the runner can execute.

import { type BackendKind, parseToolId, type ToolBackend } from "../model/mod.ts";
import { NoBackendError, ToolIdError, ToolNotFoundError } from "./errors.ts";
import type { RegisteredTool, ToolRegistry } from "./registry.ts";
import type { Backends } from "./_backends.ts";

/** The registered tool of an ID; throws `ToolIdError` or `ToolNotFoundError`. */
export function resolveTool(registry: ToolRegistry, toolId: string): RegisteredTool {
  return registry.get(toolId) ?? missing(toolId);
}

function missing(toolId: string): never {
  try {
    parseToolId(toolId);
  } catch (error) {
    throw new ToolIdError(String(toolId), (error as Error).message, { cause: error });
  }
  throw new ToolNotFoundError(toolId);
}

/** The available backend of a tool that comes first in `order`; throws `NoBackendError`. */
export function selectBackend(
  entry: RegisteredTool,
  order: readonly BackendKind[],
  backends: Backends,
): ToolBackend {
  const candidates = entry.backends;
  if (candidates.length === 1 && order.includes(candidates[0].kind)) {
    if (backends.available(candidates[0])) return candidates[0];
  } else {
    let best: ToolBackend | undefined;
    let bestRank = Infinity;
    for (const backend of candidates) {
      const rank = order.indexOf(backend.kind);
      if (rank < 0 || rank >= bestRank || !backends.available(backend)) continue;
      best = backend;
      bestRank = rank;
    }
    if (best !== undefined) return best;
  }
  const reasons = candidates.map((b) => {
    if (!order.includes(b.kind)) return `${b.kind} backends are not in the backend order`;
    switch (b.kind) {
      case "local":
        return `no local handler ${JSON.stringify(b.local.name)}`;
      case "provider":
        return `no provider ${JSON.stringify(b.provider.providerId)}`;
      case "mcp":
        return `no MCP server ${JSON.stringify(b.mcp.serverName)}`;
    }
  });
  throw new NoBackendError(entry.id, reasons.length ? reasons.join("; ") : "none registered");
}
