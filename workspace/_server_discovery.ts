// Private: the tools a manifest exposes for list, validate and convert: its own
// (server tools filled in from the listing) and every server's imported tools.

import type { Tool } from "../model/mod.ts";
import type { Runner } from "../run/mod.ts";
import { ServerUnavailableError } from "./errors.ts";
import type { Manifest, ResolvedTool } from "./manifest_types.ts";
import { importServerTools, type ServerReport, type ServerToolsOptions } from "./server_tools.ts";

/**
 * The tools a manifest exposes: its own (those of servers filled in from the
 * listing) and every server's imported tools, with one report per server.
 * With `offline`, no server is contacted: only what the manifest states.
 */
export async function discoverTools(
  runner: Runner | undefined,
  manifest: Manifest,
  options: ServerToolsOptions & { offline?: boolean },
): Promise<{ tools: ResolvedTool[]; reports: ServerReport[] }> {
  if (options.offline || runner === undefined) {
    return {
      tools: manifest.tools,
      reports: Object.keys(manifest.servers).map((server) => ({
        server,
        status: "skipped",
        tools: [],
        listed: [],
        left: [],
      })),
    };
  }
  const reports = await importServerTools(runner, manifest, { ...options, strictLock: true });
  const imported = new Map<string, ResolvedTool>();
  for (const r of reports) for (const t of r.tools) imported.set(t.id, t);
  const tools: ResolvedTool[] = [];
  for (const t of manifest.tools) {
    if (!t.schemaFromServer) {
      tools.push(t);
      continue;
    }
    const report = reports.find((r) => r.server === t.entry.server);
    if (report?.status !== "ok") {
      tools.push(t);
      continue;
    }
    const listed = report.listed.find((x) => x.name === t.entry.name);
    if (listed === undefined) {
      throw new ServerUnavailableError(
        t.entry.server!,
        new Error(`it lists no tool ${JSON.stringify(t.entry.name)} (manifest tool ${t.id})`),
      );
    }
    const tool: Tool = { ...listed, ...t.tool, inputSchema: listed.inputSchema };
    if (listed.outputSchema !== undefined) tool.outputSchema = listed.outputSchema;
    if (t.entry.description === undefined) {
      if (listed.description === undefined) delete tool.description;
      else tool.description = listed.description;
    }
    if (t.entry.namespace === undefined) delete tool.namespace;
    tools.push({ ...t, tool, schemaFromServer: false });
  }
  const own = new Set(tools.map((t) => t.id));
  for (const [id, t] of imported) if (!own.has(id)) tools.push(t);
  return { tools, reports };
}
