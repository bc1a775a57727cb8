/**
 * Checks of a manifest's tools that are certain to fail at run time, located
 * in the manifest (exit 2): schemas no validator can evaluate with a bound (a
 * `$ref` cycle without progress, nesting beyond the limit, a `pattern` that
 * cannot run in bounded time) and module tools whose file is missing, does not
 * parse, or lacks its export. The CLI's `validate`, `run`, `chain` and
 * `respond` commands run them.
 *
 * @module
 */

import {
  checkSchemaStructure,
  type DefaultValidator,
  InvalidSchemaError,
  ToolFoundationError,
} from "../model/mod.ts";
import type { ManifestIssue } from "./errors.ts";
import type { Manifest, ResolvedTool } from "./manifest.ts";
import type { checkModuleTool } from "../run/module/module_tool.ts";
import { moduleToolDeno } from "../run/module/deno.ts";
import type { PermissionNeed } from "./permission_need.ts";
import { KILL_PROGRAM } from "./permission_needs.ts";
import { resolvePath } from "../run/module/paths.ts";

/** How many module checks (child Deno processes) run at once. */
const MODULE_CHECKS_AT_ONCE = 4;

/** Options of the checks: which tools (default: every tool). */
interface ToolChecksOptions {
  /** Tool IDs to check (default: every tool). */
  tools?: readonly string[];
  /** Cancels the module checks. */
  signal?: AbortSignal;
}

function selected(manifest: Manifest, tools: readonly string[] | undefined): ResolvedTool[] {
  const wanted = tools === undefined ? undefined : new Set(tools);
  return manifest.tools.filter((t) => wanted === undefined || wanted.has(t.id));
}

function issueAt(manifest: Manifest, pointer: string, message: string): ManifestIssue {
  const at = manifest.locate?.(pointer) ?? { line: 1, column: 1 };
  return { file: manifest.path, ...at, path: pointer, message };
}

/**
 * Schemas of the tools (input and output) that `checkSchemaStructure` or the
 * validator's compile refuses, as manifest issues located at the offending
 * keyword (`/tools/<i>/inputSchema/$defs/a/$ref`). Tools whose schemas come
 * from an MCP server at run time are not checked.
 */
export async function checkToolSchemas(
  manifest: Manifest,
  validator: DefaultValidator,
  options: ToolChecksOptions = {},
): Promise<ManifestIssue[]> {
  const issues: ManifestIssue[] = [];
  for (const t of selected(manifest, options.tools)) {
    if (t.schemaFromServer) continue;
    for (const key of ["inputSchema", "outputSchema"] as const) {
      const schema = t.tool[key];
      if (schema === undefined) continue;
      try {
        checkSchemaStructure(schema);
        await validator.compile(schema);
      } catch (error) {
        if (!(error instanceof ToolFoundationError)) throw error;
        const where = error instanceof InvalidSchemaError ? error.keywordLocation : undefined;
        const base = `/tools/${t.index}/${key}`;
        const pointer = where?.startsWith("/") ? `${base}${where}` : base;
        issues.push(
          issueAt(manifest, pointer, `${key} of tool ${JSON.stringify(t.id)}: ${error.message}`),
        );
      }
    }
  }
  return issues;
}

/** What checking the module tools needs: read of each module, run of `deno` and `kill`. */
export function moduleCheckNeeds(manifest: Manifest, tools?: readonly string[]): PermissionNeed[] {
  const needs: PermissionNeed[] = [];
  for (const t of selected(manifest, tools)) {
    if (t.entry.module === undefined) continue;
    const reason = `checking module tool ${JSON.stringify(t.id)}`;
    needs.push({ name: "read", value: resolvePath(manifest.dir, t.entry.module), reason });
    needs.push({ name: "run", value: moduleToolDeno(), reason });
    needs.push({ name: "run", value: KILL_PROGRAM, reason });
  }
  return needs;
}

/**
 * Module tools certain to fail (a missing file, one that does not parse or
 * cannot resolve its imports, a missing export), as manifest issues at
 * `/tools/<i>/module` (or `/tools/<i>/export` for a missing export).
 */
export async function checkModuleTools(
  manifest: Manifest,
  options: ToolChecksOptions = {},
): Promise<ManifestIssue[]> {
  const modules = selected(manifest, options.tools).filter((t) => t.entry.module !== undefined);
  if (modules.length === 0) return [];
  // The module host loads only when there are module tools to check.
  const { checkModuleTool } = await import("../run/module/module_tool.ts");
  // At most MODULE_CHECKS_AT_ONCE child processes at a time.
  const problems: Array<Awaited<ReturnType<typeof checkModuleTool>>> = [];
  let next = 0;
  const work = async () => {
    while (next < modules.length) {
      const i = next++;
      problems[i] = await checkModuleTool(resolvePath(manifest.dir, modules[i].entry.module!), {
        export: modules[i].entry.export,
        net: modules[i].entry.permissions?.net,
        toolId: modules[i].id,
        signal: options.signal,
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(MODULE_CHECKS_AT_ONCE, modules.length) }, work));
  const issues: ManifestIssue[] = [];
  modules.forEach((t, i) => {
    const problem = problems[i];
    if (problem === undefined) return;
    const field = problem.reason === "no_export" ? "export" : "module";
    issues.push(
      issueAt(
        manifest,
        `/tools/${t.index}/${field}`,
        `module tool ${JSON.stringify(t.id)}: ${problem.message}`,
      ),
    );
  });
  return issues;
}

/** Issues in document order. */
export function sortIssues(issues: ManifestIssue[]): ManifestIssue[] {
  return issues.sort((a, b) => a.line - b.line || a.column - b.column);
}
