/**
 * Which of a server's tools a manifest imports, and under which name: name
 * globs (`include`, `exclude`), annotation filters, and per-tool overrides
 * (name, description, timeout, idempotence) that keep the server's schemas.
 *
 * @module
 */

import type { Tool } from "../model/mod.ts";
import type { ManifestServer } from "./manifest_types.ts";

/**
 * Whether a name matches a glob: `*` any run of characters (also none), `?`
 * exactly one, everything else literally.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { globMatch } from "./server_filter.ts";
 *
 * assert.equal(globMatch("get-*", "get-sum"), true);
 * assert.equal(globMatch("get-?", "get-sum"), false);
 * ```
 *
 * @param glob The pattern.
 * @param name The name.
 * @returns Whether it matches.
 */
export function globMatch(glob: string, name: string): boolean {
  // Iterative matcher with one backtrack point: linear in practice, never exponential.
  let g = 0;
  let n = 0;
  let star = -1;
  let mark = 0;
  while (n < name.length) {
    if (g < glob.length && (glob[g] === "?" || glob[g] === name[n])) {
      g++;
      n++;
    } else if (g < glob.length && glob[g] === "*") {
      star = g++;
      mark = n;
    } else if (star >= 0) {
      g = star + 1;
      n = ++mark;
    } else return false;
  }
  while (g < glob.length && glob[g] === "*") g++;
  return g === glob.length;
}

/** MCP's defaults for absent annotation hints. */
const DEFAULT_HINTS = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
} as const;

/**
 * A hint's effective value: as annotated, else MCP's default (a read-only
 * tool is never destructive, and always idempotent).
 */
export function hintOf(tool: Pick<Tool, "annotations">, hint: keyof typeof DEFAULT_HINTS): boolean {
  const annotations = (tool.annotations ?? {}) as Record<string, unknown>;
  const readOnly = annotations.readOnlyHint === true;
  if (hint === "destructiveHint" && readOnly) return false;
  if (hint === "idempotentHint" && readOnly) return true;
  const value = annotations[hint];
  return typeof value === "boolean" ? value : DEFAULT_HINTS[hint];
}

/** Why a listed tool is not imported, or `undefined` when it is. */
export function filteredOut(server: ManifestServer, tool: Tool): string | undefined {
  if (server.include !== undefined && !server.include.some((g) => globMatch(g, tool.name))) {
    return `not in include (${server.include.join(", ")})`;
  }
  const excluded = server.exclude?.find((g) => globMatch(g, tool.name));
  if (excluded !== undefined) return `excluded by ${JSON.stringify(excluded)}`;
  for (const [hint, wanted] of Object.entries(server.annotations ?? {})) {
    const has = hintOf(tool, hint as keyof typeof DEFAULT_HINTS);
    if (has !== wanted) return `${hint} is ${has}, the manifest asks for ${wanted}`;
  }
  return undefined;
}

/**
 * The tool as exposed: the override's description and name (namespace: the
 * server), and `idempotentHint: true` when the manifest says it is idempotent.
 */
export function exposedTool(serverName: string, server: ManifestServer, tool: Tool): Tool {
  const override = server.tools && Object.hasOwn(server.tools, tool.name)
    ? server.tools[tool.name]
    : undefined;
  const out: Tool = { ...tool, namespace: serverName };
  if (override?.name !== undefined) out.name = override.name;
  if (override?.description !== undefined) out.description = override.description;
  if (override?.idempotent !== undefined) {
    out.annotations = { ...(tool.annotations ?? {}), idempotentHint: override.idempotent };
    if (override.idempotent === false && out.annotations.readOnlyHint === true) {
      // The manifest's word wins over the hint for retries.
      out.annotations = { ...out.annotations, readOnlyHint: false };
    }
  }
  return out;
}
