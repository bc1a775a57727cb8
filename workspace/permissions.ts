/**
 * Least privilege: works out from a manifest which Deno permissions running a
 * tool or chain needs (run for stdio servers and command providers, net for
 * HTTP endpoints, read for the manifest and module tools, env for referenced
 * variables, plus whatever module tools are granted), checks them before
 * anything runs, and formats the exact `deno run` / `deno compile` flags.
 *
 * @module
 */

import type { Manifest } from "./manifest.ts";
import { addToolNeeds, dedupe, endpointNeeds, KILL_PROGRAM, ORDER } from "./permission_needs.ts";
import { serversFor } from "./server_ids.ts";
import { lockPath } from "./lock.ts";
import { MissingPermissionError } from "./errors.ts";
import type { PermissionName, PermissionNeed } from "./permission_need.ts";

export type { PermissionName, PermissionNeed };

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
  /**
   * Plan for `serve`: every server (upstreams), the address to listen on,
   * variables read, the shared state store's `HOST:PORT` (`--state redis://`).
   */
  serve?: { listen?: string; env?: readonly string[]; state?: string };
}

/**
 * What reading a manifest needs: reading the file, nothing else (the YAML
 * parser, bundled at build time from npm:yaml's browser build, reads no
 * environment variable).
 */
export function manifestNeeds(path: string): PermissionNeed[] {
  return [{ name: "read", value: path, reason: "the manifest" }];
}

/**
 * The permissions running some tools of a manifest needs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatFlags, parseManifest, planPermissions } from "@toolfoundation/core/workspace";
 *
 * const manifest = await parseManifest(
 *   "version: 1\nservers:\n  web:\n    url: http://127.0.0.1:3001/mcp\ntools:\n  - name: echo\n    server: web\n",
 *   { path: "tools.yaml" },
 * );
 * assert.deepEqual(formatFlags(planPermissions(manifest)), [
 *   "--allow-read=tools.yaml,tools.yaml.lock",
 *   "--allow-net=127.0.0.1:3001",
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
  for (const s of serversFor(manifest, options.tools)) servers.add(s); // server:tool IDs
  if (servers.size > 0) {
    needs.push({ name: "read", value: lockPath(manifest.path), reason: "the lock file" });
  }
  if (options.serve !== undefined) {
    for (const s of Object.keys(manifest.servers)) servers.add(s);
    if (options.serve.listen !== undefined) {
      needs.push({ name: "net", value: options.serve.listen, reason: "listening (serve --http)" });
    }
    for (const name of options.serve.env ?? []) {
      needs.push({ name: "env", value: name, reason: "serve --token-env" });
    }
    if (options.serve.state !== undefined) {
      needs.push({
        name: "net",
        value: options.serve.state,
        reason: "the state store (serve --state)",
      });
    }
  }
  for (const s of [...servers].sort()) {
    if (Object.hasOwn(manifest.servers, s)) {
      needs.push(...endpointNeeds("server", s, manifest.servers[s]));
    }
  }
  for (const p of [...providers].sort()) {
    if (Object.hasOwn(manifest.providers, p)) {
      needs.push(...endpointNeeds("provider", p, manifest.providers[p]));
    }
  }
  return {
    needs: dedupe(needs),
    workers: modules.length > 0,
    modules: [...new Set(modules)].sort(),
  };
}

/**
 * Prefixes of variables written with Deno's wildcard form (`--allow-env=npm_config_*`)
 * once two or more names of the flag share one: npm reads its settings from
 * any `npm_config_*` name, in either case.
 */
export const ENV_WILDCARD_PREFIXES: readonly string[] = ["npm_config_", "NPM_CONFIG_"];

/** Env values with the names of a wildcard prefix folded into `PREFIX_*`, in place. */
function foldEnv(values: string[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    const prefix = ENV_WILDCARD_PREFIXES.find((p) => value.startsWith(p));
    const shared = prefix !== undefined && values.filter((v) => v.startsWith(prefix)).length > 1;
    const shown = shared ? `${prefix}*` : value;
    if (!out.includes(shown)) out.push(shown);
  }
  return out;
}

/**
 * The `--allow-*` flags for a plan: every need, optional ones included (the
 * line a person runs passes them on), `--allow-env` names sharing a prefix
 * of {@linkcode ENV_WILDCARD_PREFIXES} written `PREFIX_*`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatFlags } from "@toolfoundation/core/workspace";
 *
 * const needs = ["PATH", "npm_config_cache", "npm_config_registry"].map((value) => ({
 *   name: "env" as const,
 *   value,
 *   reason: "a child",
 * }));
 * assert.deepEqual(formatFlags({ needs, workers: false }), ["--allow-env=PATH,npm_config_*"]);
 * ```
 *
 * @param plan The plan.
 * @returns The flags, in a stable order.
 */
export function formatFlags(plan: Pick<PermissionPlan, "needs" | "workers">): string[] {
  const flags: string[] = [];
  for (const name of ORDER) {
    const needs = plan.needs.filter((n) => n.name === name);
    if (needs.length === 0) continue;
    const values = needs.map((n) => n.value!);
    flags.push(
      needs.some((n) => n.value === undefined)
        ? `--allow-${name}`
        : `--allow-${name}=${(name === "env" ? foldEnv(values) : values).join(",")}`,
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
  /**
   * The module that imports the npm packages the command line loads only when
   * a command needs one, given to `deno compile --include` so that the binary
   * holds them (default `cli/_generated/cli/externals.ts`, beside `cli.ts`; from
   * JSR: `jsr:@toolfoundation/core/bin/npm`).
   */
  packages?: string;
}

/** Quotes a word for a POSIX shell when it needs it. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./<>-]+$/.test(word) && !/^[<>]/.test(word)
    ? word
    : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * Complete `deno run` and `deno compile` command lines for a plan: the
 * flags, the entry point and, for `deno run`, the command to run; for
 * `deno compile`, the module files and the module of npm packages to include.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { commandLines } from "@toolfoundation/core/workspace";
 *
 * const plan = { needs: [{ name: "read" as const, value: "tools.yaml", reason: "the manifest" }], workers: false, modules: [] };
 * const lines = commandLines(plan, { command: ["run", "tools.yaml", "<toolId>"] });
 * assert.equal(lines.run, "deno run --allow-read=tools.yaml cli.ts run tools.yaml '<toolId>'");
 * assert.equal(
 *   lines.compile,
 *   "deno compile --allow-read=tools.yaml --include=cli/_generated/cli/externals.ts " +
 *     "--exclude-unused-npm cli.ts",
 * );
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
  // serve's HTTP endpoint reads request.signal; without this flag Deno 2.9
  // prints a notice about its legacy abort behaviour on every start (the
  // project's deno.json sets it; a line run without that config needs it).
  const flags = [
    ...(options.command?.[0] === "serve" ? ["--unstable-no-legacy-abort"] : []),
    ...formatFlags(plan),
  ];
  const entry = options.entry ?? "cli.ts";
  const include = [
    ...plan.modules.map((m) => `--include=${m}`),
    `--include=${options.packages ?? "cli/_generated/cli/externals.ts"}`,
    // Only the npm packages the graph reaches (those above), not the lockfile's others.
    "--exclude-unused-npm",
  ];
  return {
    run: ["deno", "run", ...flags, entry, ...(options.command ?? [])].map(shellQuote).join(" "),
    compile: ["deno", "compile", ...flags, ...include, entry].map(shellQuote).join(" "),
  };
}

/** What a missing `--allow-run=kill` is for, and why it may be missing though given. */
const KILL_NOTE = "kill: the processes the CLI starts lead their own process groups, and " +
  "stopping one (at the end, on a timeout or Ctrl-C) stops what it started too, with the " +
  "kill program (Deno itself signals a group only under an unscoped --allow-run). " +
  "If --allow-run=kill was given, Deno did not find kill on PATH: install it " +
  "(procps or util-linux) or give --allow-run without a list.";

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
 * The needs of a plan that Deno has not granted this process and that are
 * not optional. Nothing prompts: Deno's answer is only queried.
 *
 * @param plan The plan.
 * @returns The missing needs (empty when everything required is granted).
 */
export function missingPermissions(plan: PermissionPlan): PermissionNeed[] {
  return plan.needs.filter((need) => need.optional !== true && !granted(need));
}

/**
 * The optional needs of a plan that Deno has not granted this process: what
 * will be skipped, e.g. inherited variables a child process will not get.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { skippedPermissions } from "@toolfoundation/core/workspace";
 *
 * const need = { name: "env" as const, value: "TF_NOT_GRANTED", reason: "a child", optional: true };
 * const granted = Deno.permissions.querySync({ name: "env", variable: "TF_NOT_GRANTED" });
 * assert.equal(skippedPermissions({ needs: [need] }).length, granted.state === "granted" ? 0 : 1);
 * ```
 *
 * @param plan The plan.
 * @returns The optional needs not granted.
 */
export function skippedPermissions(plan: Pick<PermissionPlan, "needs">): PermissionNeed[] {
  return plan.needs.filter((need) => need.optional === true && !granted(need));
}

/**
 * Checks that a plan's required needs are granted, naming every missing flag
 * at once; optional needs that are not granted are returned (what will be
 * skipped), never an error.
 *
 * @param plan The plan.
 * @returns The optional needs that are not granted.
 * @throws {MissingPermissionError} With the missing flags and the whole plan's flags.
 */
export function requirePlan(plan: PermissionPlan): PermissionNeed[] {
  const missing = missingPermissions(plan);
  if (missing.length > 0) {
    const kill = missing.some((n) => n.name === "run" && n.value === KILL_PROGRAM);
    throw new MissingPermissionError(missing, {
      missing: formatFlags({ needs: [...missing], workers: false }).map(shellQuote),
      all: formatFlags(plan).map(shellQuote),
      notes: kill ? [KILL_NOTE] : [],
      ...(plan.needs.some((n) => n.optional === true)
        ? {
          required: formatFlags({
            needs: plan.needs.filter((n) => n.optional !== true),
            workers: false,
          }).map(shellQuote),
        }
        : {}),
    });
  }
  return skippedPermissions(plan);
}
