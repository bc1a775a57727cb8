// Private: the manifest's meaning checks (backends, references between
// sections, duplicate IDs, model rules), run after its JSON Schema check.

import { InvalidToolError } from "../model/errors.ts";
import type { Tool } from "../model/tool.ts";
import { toolId } from "../model/tool_id.ts";
import { validateTool } from "../model/validate_tool.ts";
import { isNonArrayObject } from "../model/plain_object.ts";
import { BUILTINS, getBuiltin } from "../run/builtin/builtins.ts";
import type { ManifestTool, ResolvedTool } from "./manifest_types.ts";
import { unknownPlaceholders } from "./variables.ts";
import { checkServers, type UnplacedIssue } from "./_manifest_servers.ts";

export type { UnplacedIssue };

/**
 * A copy of the object at `value` without a prototype, own entries only: a
 * name looked up in it (`constructor`, `toString`, `__proto__`) finds only
 * what the manifest defines.
 */
export function ownRecord(value: unknown): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(raw(value))) {
    Object.defineProperty(out, k, {
      value: v,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** The own entry `key` of a record, never an inherited one. */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** The object at `value`, or an empty one. */
export function raw(value: unknown): Record<string, unknown> {
  return isNonArrayObject(value) ? value : {};
}

const BACKEND_KEYS = ["builtin", "module", "server", "provider"] as const;
const ONLY_WITH: Record<string, string> = {
  export: "module",
  permissions: "module",
  memoryMb: "module",
  maxOutputBytes: "module",
  providerTool: "provider",
};
const RUNNER_KEYS = new Set([...BACKEND_KEYS, ...Object.keys(ONLY_WITH), "timeoutMs"]);

/** Checks what the schema cannot say; returns the tools that resolved. */
export function checkMeaning(
  m: Record<string, unknown>,
  issues: UnplacedIssue[],
): ResolvedTool[] {
  const servers = raw(m.servers);
  const providers = raw(m.providers);
  for (const [kind, group] of [["servers", servers], ["providers", providers]] as const) {
    for (const [name, endpoint] of Object.entries(group)) {
      for (const [key, v] of Object.entries(raw(endpoint))) {
        const strings = typeof v === "string"
          ? [v]
          : Object.values(raw(v)).concat(Array.isArray(v) ? v : []);
        for (const s of strings) {
          if (typeof s !== "string") continue;
          for (const bad of unknownPlaceholders(s)) {
            issues.push({
              path: `/${kind}/${name}/${key}`,
              message: `${bad} is not a secret reference; write \${env:NAME}`,
            });
          }
        }
      }
    }
  }
  checkServers(servers, issues);
  const resolved: ResolvedTool[] = [];
  const seen = new Map<string, number>();
  const entries = Array.isArray(m.tools) ? m.tools : [];
  entries.forEach((e: unknown, index: number) => {
    const entry = raw(e) as unknown as ManifestTool;
    const path = `/tools/${index}`;
    const backends = BACKEND_KEYS.filter((k) => entry[k] !== undefined);
    if (backends.length !== 1) {
      issues.push({
        path,
        message: backends.length === 0
          ? "names no backend; give exactly one of builtin, module, server or provider"
          : `names ${backends.length} backends (${backends.join(", ")}); give exactly one`,
      });
    }
    for (const [key, needs] of Object.entries(ONLY_WITH)) {
      if (
        (entry as unknown as Record<string, unknown>)[key] !== undefined &&
        entry[needs as "module"] === undefined
      ) {
        issues.push({ path: `${path}/${key}`, message: `is only allowed with \`${needs}\`` });
      }
    }
    checkGrants(entry, path, issues);
    if (typeof entry.server === "string" && !Object.hasOwn(servers, entry.server)) {
      issues.push({
        path: `${path}/server`,
        message: `unknown server ${JSON.stringify(entry.server)}; servers: ${list(servers)}`,
      });
    }
    if (typeof entry.provider === "string" && !Object.hasOwn(providers, entry.provider)) {
      issues.push({
        path: `${path}/provider`,
        message: `unknown provider ${JSON.stringify(entry.provider)}; providers: ${
          list(providers)
        }`,
      });
    }
    const builtin = typeof entry.builtin === "string" ? getBuiltin(entry.builtin) : undefined;
    if (typeof entry.builtin === "string" && builtin === undefined) {
      issues.push({
        path: `${path}/builtin`,
        message: `unknown built-in ${JSON.stringify(entry.builtin)}; built-ins: ${list(BUILTINS)}`,
      });
    }
    const schemaFromServer = entry.server !== undefined && entry.inputSchema === undefined;
    const tool: Record<string, unknown> = { ...(builtin?.tool ?? {}) };
    for (const [key, v] of Object.entries(entry)) if (!RUNNER_KEYS.has(key)) tool[key] = v;
    if (schemaFromServer) tool.inputSchema = { type: "object" };
    if (tool.inputSchema === undefined && entry.builtin === undefined) {
      issues.push({
        path: `${path}`,
        message: "needs an inputSchema (only built-in and MCP server tools can do without)",
      });
    } else if (typeof entry.name === "string") {
      try {
        validateTool(tool);
      } catch (error) {
        if (!(error instanceof InvalidToolError)) throw error;
        for (const issue of error.issues) {
          if (issue.path === "/inputSchema" && tool.inputSchema === undefined) continue;
          // The manifest's own schema may have said it already.
          if (issues.some((i) => i.path === `${path}${issue.path}`)) continue;
          issues.push({ path: `${path}${issue.path}`, message: issue.message });
        }
      }
    }
    if (typeof entry.name !== "string") return;
    const id = toolId(tool as unknown as Tool);
    const first = seen.get(id);
    if (first !== undefined) {
      issues.push({
        path: `${path}/name`,
        message: `duplicate tool ID ${JSON.stringify(id)} (first defined at /tools/${first})`,
      });
      return;
    }
    seen.set(id, index);
    resolved.push({ id, index, entry, tool: tool as unknown as Tool, schemaFromServer });
  });
  for (const [name, chain] of Object.entries(raw(m.chains))) {
    const steps = Array.isArray(raw(chain).steps) ? raw(chain).steps as unknown[] : [];
    steps.forEach((s, i) => {
      const step = raw(s);
      const server = typeof step.tool === "string" ? step.tool.split(":")[0] : "";
      const ofServer = step.tool !== server && Object.hasOwn(servers, server); // server:tool
      if (typeof step.tool === "string" && !seen.has(step.tool) && !ofServer) {
        issues.push({
          path: `/chains/${name}/steps/${i}/tool`,
          message: `unknown tool ${JSON.stringify(step.tool)}; tools: ${
            [...seen.keys()].join(", ") || "none"
          }`,
        });
      }
      if (i === 0 && step.usePrevious === true) {
        issues.push({
          path: `/chains/${name}/steps/0/usePrevious`,
          message: "the first step has no previous result",
        });
      }
    });
  }
  return resolved;
}

/** Whether a path is absolute (POSIX or Windows). */
export function isAbsolutePath(path: string): boolean {
  return path.startsWith("/") || path.startsWith("\\") || /^[A-Za-z]:[\\/]/.test(path);
}

/** Whether a relative path climbs out of the directory it is relative to. */
export function escapesDir(path: string): boolean {
  let depth = 0;
  for (const part of path.split(/[\\/]/)) {
    if (part === "..") depth--;
    else if (part !== "." && part !== "") depth++;
    if (depth < 0) return true;
  }
  return false;
}

/**
 * A module tool's read/write grants stay inside the manifest's directory tree
 * unless they say otherwise explicitly: a relative path that climbs out of it
 * (`../x`) is an error; an absolute path is taken as meant.
 */
function checkGrants(entry: ManifestTool, path: string, issues: UnplacedIssue[]): void {
  const permissions = raw(entry.permissions);
  for (const kind of ["read", "write"] as const) {
    const grant = permissions[kind];
    if (!Array.isArray(grant)) continue;
    grant.forEach((value, i) => {
      if (typeof value !== "string" || isAbsolutePath(value) || !escapesDir(value)) return;
      issues.push({
        path: `${path}/permissions/${kind}/${i}`,
        message: `${
          JSON.stringify(value)
        } is outside the manifest's directory; to grant it on purpose, write it as an absolute path`,
      });
    });
  }
}

function list(group: object): string {
  const names = Object.keys(group).sort();
  return names.length > 0 ? names.join(", ") : "none defined";
}
