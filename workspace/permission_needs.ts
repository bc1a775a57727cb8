/**
 * The permissions each part of a manifest needs (a stdio server or a command
 * provider, an HTTP endpoint, a module tool and its grants), and the
 * deduplicated, stably ordered list `planPermissions` returns. The permission
 * plan (`permissions.ts`) and the CLI's `auth` command use it.
 *
 * @module
 */

import {
  dirname,
  type Manifest,
  type ManifestEndpoint,
  type ManifestGrant,
  type ResolvedTool,
} from "./manifest.ts";
import type { PermissionName, PermissionNeed } from "./permission_need.ts";
import { secretReferences } from "./secrets.ts";
import { inheritedEnvNames } from "../run/process/child_env.ts";
import { moduleToolDeno } from "../run/module/deno.ts";
import { resolvePath } from "../run/module/paths.ts";
import { hostOf } from "./_url_host.ts";
import { authNeeds } from "./auth_needs.ts";
import { inputVariable, variableReferences } from "./variables.ts";

/** Environment variables the MCP SDK's stdio transport reads (measured). */
const STDIO_ENV: readonly string[] = [
  "HOME",
  "LOGNAME",
  "NODE_V8_COVERAGE",
  "OSTYPE",
  "PATH",
  "SHELL",
  "TERM",
  "USER",
];

/** The permission kinds, in the order flags are printed. */
export const ORDER: PermissionName[] = ["read", "write", "net", "run", "env"];

/**
 * The program that stops a process group (`kill -s TERM -- -<pgid>`): with a
 * scoped `--allow-run`, Deno cannot signal a group itself, so every plan that
 * starts processes (stdio servers, command providers, module tools) needs it.
 */
export const KILL_PROGRAM = "kill";

/** What a server (`stdio`) or provider endpoint needs. */
export function endpointNeeds(
  kind: string,
  name: string,
  e: ManifestEndpoint,
  stdio: boolean,
): PermissionNeed[] {
  const reason = `${kind} ${JSON.stringify(name)}`;
  const needs: PermissionNeed[] = [];
  if (e.command !== undefined) {
    needs.push({ name: "run", value: e.command, reason });
    needs.push({
      name: "run",
      value: KILL_PROGRAM,
      reason: `${reason} (stops its process group with kill)`,
    });
  }
  if (e.url !== undefined) {
    try {
      needs.push({ name: "net", value: hostOf(e.url.replace(/\$\{env:[^}]*\}/g, "x")), reason });
    } catch {
      needs.push({ name: "net", reason });
    }
  }
  if (e.auth !== undefined && e.url !== undefined) needs.push(...authNeeds(e.auth, reason));
  for (const v of secretReferences(e)) {
    needs.push({ name: "env", value: v, reason: `${reason} references \${env:${v}}` });
  }
  for (const v of variableReferences(e)) { // ${env:NAME:-default}, ${input:ID}
    const value = v.kind === "env" ? v.name : inputVariable(v.name);
    needs.push({ name: "env", value, reason: `${reason} references \${${v.kind}:${v.name}}` });
  }
  if (e.command !== undefined) {
    // The process gets exactly these variables from ours (run/child_env.ts); reading
    // them needs env access to each, or, for `inheritEnv: all`, to everything.
    const names = inheritedEnvNames({ inheritEnv: e.inheritEnv });
    if (names === "all") {
      needs.push({
        name: "env",
        reason: `${reason} inherits the whole environment (inheritEnv: all)`,
      });
    } else {
      const extra = new Set(Array.isArray(e.inheritEnv) ? e.inheritEnv : []);
      for (const v of names) {
        needs.push({
          name: "env",
          value: v,
          reason: extra.has(v)
            ? `${reason} inherits it (inheritEnv)`
            : `${reason} inherits it (default child environment)`,
        });
      }
    }
    if (stdio) {
      for (const v of STDIO_ENV) {
        needs.push({ name: "env", value: v, reason: `${reason} (MCP stdio transport)` });
      }
    }
  }
  return needs;
}

function grantNeeds(
  name: PermissionName,
  grant: ManifestGrant | undefined,
  dir: string,
  reason: string,
): PermissionNeed[] {
  if (grant === undefined || grant === false) return [];
  if (grant === true) return [{ name, reason }];
  return grant.map((value) => ({
    name,
    value: name === "read" || name === "write" ? resolvePath(dir, value) : value,
    reason,
  }));
}

/** What one tool needs; collects its server, provider and module. */
export function addToolNeeds(
  manifest: Manifest,
  t: ResolvedTool,
  needs: PermissionNeed[],
  servers: Set<string>,
  providers: Set<string>,
  modules: string[],
): void {
  const e = t.entry;
  if (e.server !== undefined) servers.add(e.server);
  if (e.provider !== undefined) providers.add(e.provider);
  if (e.module !== undefined) {
    const file = resolvePath(manifest.dir, e.module);
    modules.push(file);
    const reason = `module tool ${JSON.stringify(t.id)}`;
    // The CLI checks the module (its directory); the tool runs in a child Deno
    // process that gets only its grants.
    needs.push({
      name: "read",
      value: dirname(file),
      reason: `${reason} (its directory, to load it)`,
    });
    needs.push({
      name: "run",
      value: moduleToolDeno(),
      reason: `${reason} (runs in a child deno process)`,
    });
    needs.push({
      name: "run",
      value: KILL_PROGRAM,
      reason: `${reason} (stops its process group with kill)`,
    });
    for (const name of ORDER) {
      needs.push(
        ...grantNeeds(name, e.permissions?.[name], manifest.dir, `${reason} is granted ${name}`),
      );
    }
    // The symlink check before each call reads the write grants too.
    needs.push(
      ...grantNeeds(
        "read",
        e.permissions?.write,
        manifest.dir,
        `${reason} (symlink check of its write grant)`,
      ),
    );
  }
}

/** Drops repeated needs and values covered by an unscoped need; sorts. */
export function dedupe(needs: PermissionNeed[]): PermissionNeed[] {
  const all = new Set(needs.filter((n) => n.value === undefined).map((n) => n.name));
  const seen = new Set<string>();
  const out: PermissionNeed[] = [];
  for (const need of needs) {
    if (need.value !== undefined && all.has(need.name)) continue;
    const key = `${need.name}\n${need.value ?? ""}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(need);
  }
  return out.sort((a, b) =>
    ORDER.indexOf(a.name) - ORDER.indexOf(b.name) || (a.value ?? "").localeCompare(b.value ?? "")
  );
}
