/**
 * The environment policy for the processes the runner starts (stdio MCP
 * servers and command providers).
 *
 * A child never gets the whole environment by default. It gets:
 *
 * 1. the MCP SDK's safe set ({@linkcode SAFE_ENV}: `HOME`, `LOGNAME`, `PATH`,
 *    `SHELL`, `TERM`, `USER`);
 * 2. the variables networking and trust need ({@linkcode NETWORK_ENV}: proxy
 *    variables, custom CA certificates, Deno's cache and TLS settings, npm's
 *    registry and proxy settings), so a child behind a proxy or a
 *    TLS-inspecting CA can still download what it needs;
 * 3. the names the configuration lists in `inheritEnv`;
 * 4. the configuration's own `env` values (these win).
 *
 * Only variables that are set, and that this process may read, are passed: a
 * name Deno has not granted (`--allow-env`) is skipped, without a prompt. Of
 * the default names only `PATH` is required by the CLI's permission plan
 * (the child finds its own programs with it); the others are optional there.
 * `inheritEnv: "all"` passes the whole environment and must be asked for
 * explicitly.
 *
 * @module
 */

/** The MCP SDK's default environment for stdio servers. */
export const SAFE_ENV: readonly string[] = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];

/** Variables that networking and certificate trust need; inherited by default. */
export const NETWORK_ENV: readonly string[] = [
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "ALL_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "all_proxy",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "DENO_DIR",
  "DENO_CERT",
  "DENO_TLS_CA_STORE",
  "XDG_CACHE_HOME",
  "npm_config_registry",
  "npm_config_cafile",
  "npm_config_proxy",
  "npm_config_https_proxy",
  "npm_config_noproxy",
  "npm_config_strict_ssl",
  "npm_config_cache",
  "npm_config_userconfig",
  "NPM_CONFIG_REGISTRY",
  "NPM_CONFIG_CAFILE",
  "NPM_CONFIG_PROXY",
  "NPM_CONFIG_HTTPS_PROXY",
  "NPM_CONFIG_NOPROXY",
  "NPM_CONFIG_STRICT_SSL",
  "NPM_CONFIG_CACHE",
  "NPM_CONFIG_USERCONFIG",
];

/** What a child process inherits: named variables, or (explicitly) everything. */
export type InheritEnv = readonly string[] | "all";

/** Options of {@linkcode childEnv} and {@linkcode inheritedEnvNames}. */
export interface ChildEnvOptions {
  /** Values set for the child; they override inherited ones. */
  env?: Readonly<Record<string, string>>;
  /** Extra variable names to inherit, or `"all"` for the whole environment. */
  inheritEnv?: InheritEnv;
  /**
   * Reads one variable (default {@linkcode grantedEnv}: `undefined` where
   * access is not granted, without prompting).
   */
  lookup?: (name: string) => string | undefined;
  /** The whole environment, for `inheritEnv: "all"` (default: `Deno.env.toObject`). */
  all?: () => Record<string, string>;
}

/**
 * The names a child inherits from the parent's environment, in a stable
 * order without duplicates, or `"all"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inheritedEnvNames } from "./child_env.ts";
 *
 * const names = inheritedEnvNames({ inheritEnv: ["GITHUB_TOKEN"] });
 * assert.ok(names !== "all" && names.includes("PATH") && names.includes("GITHUB_TOKEN"));
 * assert.equal(inheritedEnvNames({ inheritEnv: "all" }), "all");
 * ```
 *
 * @param options The configuration's `inheritEnv`.
 * @returns The variable names, or `"all"`.
 */
export function inheritedEnvNames(options: Pick<ChildEnvOptions, "inheritEnv"> = {}):
  | string[]
  | "all" {
  if (options.inheritEnv === "all") return "all";
  return [...new Set([...SAFE_ENV, ...NETWORK_ENV, ...(options.inheritEnv ?? [])])];
}

/** Sets an own property, even for a name like `__proto__`. */
function put(target: Record<string, string>, name: string, value: string): void {
  Object.defineProperty(target, name, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/**
 * A variable of this process when Deno grants reading it, else `undefined`:
 * Deno is only queried, so a name not granted is skipped, never prompted for
 * (a prompt per inherited name on a terminal would stop every start).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { grantedEnv } from "./child_env.ts";
 *
 * const state = Deno.permissions.querySync({ name: "env", variable: "PATH" }).state;
 * assert.equal(grantedEnv("PATH"), state === "granted" ? Deno.env.get("PATH") : undefined);
 * ```
 *
 * @param name The variable.
 * @returns Its value, or `undefined` when unset or not granted.
 */
export function grantedEnv(name: string): string | undefined {
  try {
    if (Deno.permissions.querySync({ name: "env", variable: name }).state !== "granted") {
      return undefined; // not granted: not passed (and nobody is asked)
    }
    return Deno.env.get(name);
  } catch {
    return undefined; // a name Deno refuses to look up
  }
}

/**
 * The complete environment for a child process under the policy above. Pass
 * it with `clearEnv: true` so nothing else leaks through.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { childEnv } from "@toolfoundation/core/run";
 *
 * const parent: Record<string, string> = { PATH: "/bin", SECRET: "s", NODE_EXTRA_CA_CERTS: "/ca" };
 * const env = childEnv({ env: { MODE: "x" }, lookup: (name) => parent[name] });
 * assert.deepEqual(env, { PATH: "/bin", NODE_EXTRA_CA_CERTS: "/ca", MODE: "x" });
 * ```
 *
 * @param options Values, extra names, and how to read the parent's environment.
 * @returns The variables to pass.
 */
export function childEnv(options: ChildEnvOptions = {}): Record<string, string> {
  const names = inheritedEnvNames(options);
  const out: Record<string, string> = {};
  if (names === "all") {
    Object.assign(out, (options.all ?? (() => Deno.env.toObject()))());
  } else {
    const lookup = options.lookup ?? grantedEnv;
    for (const name of names) {
      const value = lookup(name);
      if (value !== undefined) put(out, name, value);
    }
  }
  for (const [name, value] of Object.entries(options.env ?? {})) put(out, name, value);
  return out;
}
