// Private: the meaning checks of server entries the schema cannot express:
// the transport type against command/url, stdio-only settings, override
// names that collide.

import type { ManifestIssue } from "./errors.ts";

/** A problem before its position is known. */
export type UnplacedIssue = Omit<ManifestIssue, "file" | "line" | "column">;

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : {};
}

/** Checks every server entry; pushes what is wrong. */
export function checkServers(servers: Record<string, unknown>, issues: UnplacedIssue[]): void {
  for (const [name, value] of Object.entries(servers)) {
    const server = record(value);
    const at = `/servers/${name}`;
    if ((server.type === "http" || server.type === "sse") && server.url === undefined) {
      issues.push({ path: `${at}/type`, message: `type ${server.type} needs a url` });
    }
    if (server.type === "stdio" && server.command === undefined) {
      issues.push({ path: `${at}/type`, message: "type stdio needs a command" });
    }
    if (server.callsPerProcess !== undefined && server.url !== undefined) {
      issues.push({
        path: `${at}/callsPerProcess`,
        message:
          "callsPerProcess applies to a stdio server (command) only: each call to a server at a url has a connection of its own; remove it",
      });
    }
    const exposed = new Map<string, string>();
    for (const [tool, override] of Object.entries(record(server.tools))) {
      const as = record(override).name;
      const shown = typeof as === "string" ? as : tool;
      const first = exposed.get(shown);
      if (first !== undefined) {
        issues.push({
          path: `${at}/tools/${tool}/name`,
          message: `two tools of server ${JSON.stringify(name)} would be named ${
            JSON.stringify(shown)
          } (${JSON.stringify(first)} and ${JSON.stringify(tool)})`,
        });
      }
      exposed.set(shown, tool);
    }
  }
}
