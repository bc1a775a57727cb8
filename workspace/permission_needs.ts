/**
 * The permissions each part of a manifest needs (a stdio server or a command
 * provider, an HTTP endpoint, a module tool and its grants), and the
 * deduplicated, stably ordered list `planPermissions` returns. The permission
 * plan (`permissions.ts`) and the CLI's `auth` command use it.
 *
 * @module
 */

import type { Manifest, ManifestEndpoint, ManifestGrant, ResolvedTool } from "./manifest.ts";
import type { PermissionName, PermissionNeed } from "./permission_need.ts";
import { secretReferences } from "./secrets.ts";
import { inheritedEnvNames } from "../run/process/child_env.ts";
import { moduleToolDeno } from "../run/module/deno.ts";
import { resolvePath } from "../run/module/paths.ts";
import { hostOf } from "./_url_host.ts";
import { mergeReasons } from "./_permission_reasons.ts";
import { authNeeds } from "./auth_needs.ts";
import { inputVariable, variableReferences } from "./variables.ts";

/** The permission kinds, in the order flags are printed. */
export const ORDER: PermissionName[] = ["read", "write", "net", "run", "env"];

/**
 * The program that stops a process group (`kill -s TERM -- -<pgid>`): with a
 * scoped `--allow-run`, Deno cannot signal a group itself (`Deno.kill` needs
 * an unscoped `--allow-run`, and a child's own handle reaches only the
 * child, not what it started), so every plan that starts processes (stdio
 * servers, command providers, module tools) needs it.
 */
export const KILL_PROGRAM = "kill";

/** Why a plan that starts processes needs {@linkcode KILL_PROGRAM}, after the subject. */
export const KILL_REASON = " (kill stops its process group, what it started included)";

/**
 * The variables a child must get for the CLI to work as configured, of the
 * default child environment: `PATH`, as the child finds its own programs
 * with it (`#!/usr/bin/env node`, `npx` starting a package's program).
 * Without it they are looked up in `/bin:/usr/bin` only, and a Node.js from
 * nvm, Volta or Homebrew is not found. Every other inherited name is
 * optional: passed when granted, skipped when not.
 */
export const REQUIRED_CHILD_ENV: readonly string[] = ["PATH"];

/** The default child environment as needs: `PATH` required, the rest optional. */
function inheritedNeeds(
  reason: string,
  inheritEnv: ManifestEndpoint["inheritEnv"],
  required: readonly string[],
): PermissionNeed[] {
  const names = inheritedEnvNames({ inheritEnv });
  if (names === "all") {
    return [{ name: "env", reason: `${reason} inherits the whole environment (inheritEnv: all)` }];
  }
  const asked = new Set(Array.isArray(inheritEnv) ? inheritEnv : []);
  return names.map((value) =>
    asked.has(value)
      ? { name: "env", value, reason: `${reason} inherits it (inheritEnv)` }
      : required.includes(value)
      ? { name: "env", value, reason: `${reason} inherits it (its programs are found on PATH)` }
      : {
        name: "env",
        value,
        reason: `${reason} inherits it when granted (default child environment)`,
        optional: true,
      }
  );
}

/** What a server (`stdio`) or provider endpoint needs. */
export function endpointNeeds(
  kind: string,
  name: string,
  e: ManifestEndpoint,
): PermissionNeed[] {
  const reason = `${kind} ${JSON.stringify(name)}`;
  const needs: PermissionNeed[] = [];
  if (e.command !== undefined) {
    needs.push({ name: "run", value: e.command, reason });
    needs.push({ name: "run", value: KILL_PROGRAM, reason: `${reason}${KILL_REASON}` });
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
    // The process gets exactly these variables from ours (run/process/child_env.ts);
    // reading them needs env access to each, or, for `inheritEnv: all`, to everything.
    needs.push(...inheritedNeeds(reason, e.inheritEnv, REQUIRED_CHILD_ENV));
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
    // The CLI finds the module's real path (its file only); the tool runs in a
    // child Deno process that gets only its grants and loads the module and
    // what it imports itself, which needs no read grant of ours.
    needs.push({ name: "read", value: file, reason: `${reason} (its file, to load it)` });
    needs.push({
      name: "run",
      value: moduleToolDeno(),
      reason: `${reason} (runs in a child deno process)`,
    });
    needs.push({ name: "run", value: KILL_PROGRAM, reason: `${reason}${KILL_REASON}` });
    // The child deno inherits the default child environment (its cache: DENO_DIR,
    // XDG_CACHE_HOME; proxies and certificates) when granted, plus its env grant.
    needs.push(...inheritedNeeds(reason, undefined, []));
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

/**
 * Drops values covered by an unscoped need and merges repeated ones: one need
 * per value, its reason naming every part that needs it, optional only when
 * every part may do without it. Sorts.
 */
export function dedupe(needs: PermissionNeed[]): PermissionNeed[] {
  const all = new Set(
    needs.filter((n) => n.value === undefined && n.optional !== true).map((n) => n.name),
  );
  const merged = new Map<string, { need: PermissionNeed; reasons: string[] }>();
  for (const need of needs) {
    if (need.value !== undefined && all.has(need.name)) continue;
    const key = `${need.name}\n${need.value ?? ""}`;
    const seen = merged.get(key);
    if (seen === undefined) {
      merged.set(key, { need: { ...need }, reasons: [need.reason] });
      continue;
    }
    seen.reasons.push(need.reason);
    if (need.optional !== true) delete seen.need.optional;
  }
  const out = [...merged.values()].map(({ need, reasons }) => ({
    ...need,
    reason: mergeReasons(reasons),
  }));
  return out.sort((a, b) =>
    ORDER.indexOf(a.name) - ORDER.indexOf(b.name) || (a.value ?? "").localeCompare(b.value ?? "")
  );
}
