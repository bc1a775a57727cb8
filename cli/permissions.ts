/**
 * Least privilege: works out from a manifest which Deno permissions running a
 * tool or chain needs (run for stdio servers and command providers, net for
 * HTTP endpoints, read for the manifest and module tools, env for referenced
 * variables, plus whatever module tools are granted), checks them before
 * anything runs, and formats the exact `deno run` / `deno compile` flags.
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
import { secretReferences } from "./secrets.ts";
import { inheritedEnvNames } from "../run/child_env.ts";
import { moduleToolDeno } from "./_module_deno.ts";

/** The Deno permission kinds the CLI may need. */
export type PermissionName = "read" | "write" | "net" | "run" | "env";

/** One needed permission value and why it is needed. */
export interface PermissionNeed {
  /** The permission. */
  name: PermissionName;
  /** The path, host, program or variable; `undefined` for all. */
  value?: string;
  /** Why, e.g. `stdio server "everything"`. */
  reason: string;
}

/** What a target needs. */
export interface PermissionPlan {
  /** Every need, deduplicated, in a stable order. */
  needs: PermissionNeed[];
  /** Whether the plan has module tools (each runs in a child Deno process). */
  workers: boolean;
  /** Module files a compiled binary must include. */
  modules: string[];
}

/** Options of {@linkcode planPermissions}. */
export interface PlanPermissionsOptions {
  /** Tool IDs to plan for (default: every tool). */
  tools?: readonly string[];
  /** Extra files the command reads (e.g. `--args-file`). */
  extraReads?: readonly string[];
  /** Plan for `serve`: every server (upstreams), the address to listen on, variables read. */
  serve?: { listen?: string; env?: readonly string[] };
}

/** Environment variables the MCP SDK's stdio transport reads (measured). */
export const STDIO_ENV: readonly string[] = [
  "HOME",
  "LOGNAME",
  "NODE_V8_COVERAGE",
  "OSTYPE",
  "PATH",
  "SHELL",
  "TERM",
  "USER",
];

/**
 * Environment variables npm:yaml reads while parsing (its `LOG_TOKENS` and
 * `LOG_STREAM` debug switches): reading a manifest needs them.
 */
export const YAML_ENV: readonly string[] = ["LOG_STREAM", "LOG_TOKENS"];

/** What reading a manifest needs. */
export function manifestNeeds(path: string): PermissionNeed[] {
  return [
    { name: "read", value: path, reason: "the manifest" },
    ...YAML_ENV.map((value) => ({
      name: "env" as const,
      value,
      reason: "npm:yaml reads this debug switch while parsing the manifest",
    })),
  ];
}

const ORDER: PermissionName[] = ["read", "write", "net", "run", "env"];

/**
 * The program that stops a process group (`kill -s TERM -- -<pgid>`): with a
 * scoped `--allow-run`, Deno cannot signal a group itself, so every plan that
 * starts processes (stdio servers, command providers, module tools) needs it.
 */
export const KILL_PROGRAM = "kill";

/** Resolves a manifest-relative path without touching the file system. */
export function resolvePath(dir: string, path: string): string {
  if (path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path)) return path;
  const joined = dir === "." ? path : `${dir}/${path}`;
  const parts: string[] = [];
  for (const part of joined.split("/")) {
    if (part === "." || (part === "" && parts.length > 0)) continue;
    if (part === ".." && parts.length > 0 && parts[parts.length - 1] !== "..") parts.pop();
    else parts.push(part);
  }
  return parts.join("/") || ".";
}

/** `host:port` of an HTTP URL (the port made explicit). */
export function hostOf(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || (u.protocol === "https:" ? "443" : "80")}`;
}

function endpointNeeds(
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
  for (const v of secretReferences(e)) {
    needs.push({ name: "env", value: v, reason: `${reason} references \${env:${v}}` });
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

/**
 * The permissions running some tools of a manifest needs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatFlags, parseManifest, planPermissions } from "@toolfoundation/core/cli";
 *
 * const manifest = await parseManifest(
 *   "version: 1\nservers:\n  web:\n    url: http://127.0.0.1:3001/mcp\ntools:\n  - name: echo\n    server: web\n",
 *   { path: "tools.yaml" },
 * );
 * assert.deepEqual(formatFlags(planPermissions(manifest)), [
 *   "--allow-read=tools.yaml",
 *   "--allow-net=127.0.0.1:3001",
 *   "--allow-env=LOG_STREAM,LOG_TOKENS",
 * ]);
 * ```
 *
 * @param manifest The checked manifest.
 * @param options Which tools, and extra files read.
 * @returns The plan.
 */
export function planPermissions(
  manifest: Manifest,
  options: PlanPermissionsOptions = {},
): PermissionPlan {
  const wanted = options.tools === undefined ? undefined : new Set(options.tools);
  const tools = manifest.tools.filter((t) => wanted === undefined || wanted.has(t.id));
  const needs: PermissionNeed[] = manifestNeeds(manifest.path);
  for (const file of options.extraReads ?? []) {
    needs.push({ name: "read", value: file, reason: "an input file" });
  }
  const servers = new Set<string>();
  const providers = new Set<string>();
  const modules: string[] = [];
  for (const t of tools) addToolNeeds(manifest, t, needs, servers, providers, modules);
  if (options.serve !== undefined) {
    for (const s of Object.keys(manifest.servers)) servers.add(s);
    if (options.serve.listen !== undefined) {
      needs.push({ name: "net", value: options.serve.listen, reason: "listening (serve --http)" });
    }
    for (const name of options.serve.env ?? []) {
      needs.push({ name: "env", value: name, reason: "serve --token-env" });
    }
  }
  for (const s of [...servers].sort()) {
    if (Object.hasOwn(manifest.servers, s)) {
      needs.push(...endpointNeeds("server", s, manifest.servers[s], true));
    }
  }
  for (const p of [...providers].sort()) {
    if (Object.hasOwn(manifest.providers, p)) {
      needs.push(...endpointNeeds("provider", p, manifest.providers[p], false));
    }
  }
  return {
    needs: dedupe(needs),
    workers: modules.length > 0,
    modules: [...new Set(modules)].sort(),
  };
}

function addToolNeeds(
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

function dedupe(needs: PermissionNeed[]): PermissionNeed[] {
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

/**
 * The `--allow-*` flags for a plan.
 *
 * @param plan The plan.
 * @returns The flags, in a stable order.
 */
export function formatFlags(plan: Pick<PermissionPlan, "needs" | "workers">): string[] {
  const flags: string[] = [];
  for (const name of ORDER) {
    const needs = plan.needs.filter((n) => n.name === name);
    if (needs.length === 0) continue;
    flags.push(
      needs.some((n) => n.value === undefined)
        ? `--allow-${name}`
        : `--allow-${name}=${needs.map((n) => n.value).join(",")}`,
    );
  }
  return flags;
}

/** Options of {@linkcode commandLines}. */
export interface CommandLinesOptions {
  /** The program's entry point (default `cli.ts`). */
  entry?: string;
  /** The command and its arguments, e.g. `["run", "tools.yaml", "math:add"]`. */
  command?: readonly string[];
}

/** Quotes a word for a POSIX shell when it needs it. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./<>-]+$/.test(word) && !/^[<>]/.test(word)
    ? word
    : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * Complete `deno run` and `deno compile` command lines for a plan: the
 * flags, the entry point and, for `deno run`, the command to run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { commandLines } from "@toolfoundation/core/cli";
 *
 * const plan = { needs: [{ name: "read" as const, value: "tools.yaml", reason: "the manifest" }], workers: false, modules: [] };
 * const lines = commandLines(plan, { command: ["run", "tools.yaml", "<toolId>"] });
 * assert.equal(lines.run, "deno run --allow-read=tools.yaml cli.ts run tools.yaml '<toolId>'");
 * assert.equal(lines.compile, "deno compile --allow-read=tools.yaml cli.ts");
 * ```
 *
 * @param plan The plan.
 * @param options The entry point and the command.
 * @returns The two command lines.
 */
export function commandLines(
  plan: PermissionPlan,
  options: CommandLinesOptions = {},
): { run: string; compile: string } {
  const flags = formatFlags(plan);
  const entry = options.entry ?? "cli.ts";
  const include = plan.modules.map((m) => `--include=${m}`);
  return {
    run: ["deno", "run", ...flags, entry, ...(options.command ?? [])].map(shellQuote).join(" "),
    compile: ["deno", "compile", ...flags, ...include, entry].map(shellQuote).join(" "),
  };
}

function granted(need: PermissionNeed): boolean {
  const descriptor: Deno.PermissionDescriptor = need.name === "read" || need.name === "write"
    ? { name: need.name, path: need.value }
    : need.name === "net"
    ? { name: "net", host: need.value }
    : need.name === "run"
    ? { name: "run", command: need.value }
    : { name: "env", variable: need.value };
  return Deno.permissions.querySync(descriptor).state === "granted";
}

/**
 * The needs of a plan that Deno has not granted this process.
 *
 * @param plan The plan.
 * @returns The missing needs (empty when everything is granted).
 */
export function missingPermissions(plan: PermissionPlan): PermissionNeed[] {
  return plan.needs.filter((need) => !granted(need));
}
