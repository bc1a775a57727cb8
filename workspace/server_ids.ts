/**
 * Tool IDs of server tools the manifest does not list itself
 * (`server:name`), and what the manifest says about them. Light: no MCP
 * client, no validator.
 *
 * @module
 */

import { UsageError } from "./errors.ts";
import type { Manifest } from "./manifest_types.ts";

/** Whether an ID names a server's tool the manifest does not list: `server:name`. */
export function serverOfId(manifest: Manifest, id: string): string | undefined {
  const cut = id.indexOf(":");
  if (cut <= 0) return undefined;
  const server = id.slice(0, cut);
  return Object.hasOwn(manifest.servers, server) ? server : undefined;
}

/** The deadline the manifest sets for a server tool by ID: its override's, else its server's. */
export function serverToolTimeout(manifest: Manifest, id: string): number | undefined {
  const server = serverOfId(manifest, id);
  if (server === undefined) return undefined;
  const entry = manifest.servers[server];
  const name = id.slice(server.length + 1);
  for (const [original, o] of Object.entries(entry.tools ?? {})) {
    if ((o.name ?? original) === name && o.timeoutMs !== undefined) return o.timeoutMs;
  }
  return entry.timeoutMs;
}

/** The servers a set of tool IDs needs (all of them for `undefined`). */
export function serversFor(manifest: Manifest, ids: readonly string[] | undefined): string[] {
  if (ids === undefined) return Object.keys(manifest.servers);
  const out = new Set<string>();
  for (const id of ids) {
    const listed = manifest.tools.find((t) => t.id === id);
    if (listed?.entry.server !== undefined) out.add(listed.entry.server);
    else if (listed === undefined) {
      const server = serverOfId(manifest, id);
      if (server !== undefined) out.add(server);
    }
  }
  return [...out];
}

/**
 * The error for a server name the manifest does not have, naming those it has.
 *
 * @param manifest The manifest.
 * @param name The server's name.
 * @returns The error (a usage error: exit 2).
 */
export function unknownServerError(manifest: Manifest, name: string): UsageError {
  const names = Object.keys(manifest.servers);
  return new UsageError(
    `no server named ${JSON.stringify(name)} in ${manifest.path}; servers: ${
      names.length > 0 ? names.join(", ") : "none defined"
    }`,
  );
}
