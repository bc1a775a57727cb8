// Private: where a module tool's process may load code from. Deno lets a
// program import remote modules on its own: without a flag, from a default
// list of hosts (deno.land, jsr.io, esm.sh, ...), and npm packages from the
// registry with no permission at all. A tool granted no network could so
// fetch and run remote code, and leak data through the names it imports.
//
// The rule: imports come from the lockfile and the cache (DENO_DIR). A tool
// whose `net` grant is empty downloads nothing (`--cached-only`: npm, jsr and
// https modules alike must be cached). A tool whose `net` grant names hosts
// imports remote modules only from those hosts (`--allow-import=<hosts>`;
// `jsr:` needs `jsr.io`); `net: true` imports from anywhere. Deno has no flag
// that refuses npm downloads while allowing remote modules from a host, so a
// tool whose `net` grant names any host can also download npm packages.

import type { ManifestGrant } from "./permissions.ts";
import { grantedEnv } from "../process/child_env.ts";

/** The npm registry's host: `NPM_CONFIG_REGISTRY`'s when set (and readable), else npm's. */
export function npmRegistryHost(): string {
  for (const name of ["NPM_CONFIG_REGISTRY", "npm_config_registry"]) {
    try {
      const value = grantedEnv(name); // never prompts
      if (value) return new URL(value).host;
    } catch { /* no URL */ }
  }
  return "registry.npmjs.org";
}

/** The hosts of a `net` grant that Deno's import flag can carry (not `unix:` sockets). */
function importHosts(net: ManifestGrant | undefined): string[] | boolean {
  if (net === undefined || net === false) return false;
  if (net === true) return true;
  return net.filter((host) => !host.startsWith("unix:") && host !== "");
}

/**
 * The import flags of a module tool's process: `--cached-only` with no
 * network grant, `--allow-import=<hosts>` with one, `--allow-import` with
 * `net: true`.
 */
export function importFlags(net: ManifestGrant | undefined): string[] {
  const hosts = importHosts(net);
  if (hosts === true) return ["--allow-import"];
  if (hosts === false || hosts.length === 0) return ["--cached-only"];
  return [`--allow-import=${hosts.join(",")}`];
}

/** Whether a tool with this `net` grant downloads nothing (its process runs `--cached-only`). */
export function downloadsNothing(net: ManifestGrant | undefined): boolean {
  return importFlags(net)[0] === "--cached-only";
}

/** An import the rule refused: from a host not granted, or not in the cache. */
export interface RefusedImport {
  /** `host`: the host is not in the `net` grant; `cache`: nothing may be downloaded. */
  kind: "host" | "cache";
  /** What was imported (`npm:left-pad`, a URL), or the host. */
  what: string;
  /** The host to grant to allow it. */
  host: string;
}

const NOT_CACHED =
  /(npm package|Specifier) not found in cache: "([^"]+)", --cached-only is specified/;
const IMPORT_DENIED = /Requires import access to "([^"]+)"/;

/** Host (and port, when not the scheme's default) of a URL; the text itself otherwise. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * The import a Deno error message says the rule refused, if it says one.
 * `offline` says whether the process ran `--cached-only` (a cache miss is
 * the rule's doing only then).
 */
export function refusedImport(message: string, offline: boolean): RefusedImport | undefined {
  const cached = NOT_CACHED.exec(message);
  if (cached !== null && offline) {
    if (cached[1] === "npm package") {
      return { kind: "cache", what: `npm:${cached[2]}`, host: npmRegistryHost() };
    }
    const url = cached[2];
    const jsr = /^https:\/\/jsr\.io\/(@[^/]+\/[^/]+)\/meta\.json$/.exec(url);
    return { kind: "cache", what: jsr === null ? url : `jsr:${jsr[1]}`, host: hostOf(url) };
  }
  const denied = IMPORT_DENIED.exec(message);
  if (denied !== null) return { kind: "host", what: denied[1], host: denied[1] };
  return undefined;
}

/** What a refused import says: the rule, and how to allow it (`tool` "" for "the tool"). */
export function refusedImportText(refused: RefusedImport, tool: string): string {
  const whose = tool === "" ? "the tool" : `tool ${JSON.stringify(tool)}`;
  const grant = `add ${
    JSON.stringify(refused.host)
  } to permissions.net of ${whose} in the manifest`;
  if (refused.kind === "host") {
    return `cannot import remote code from ${refused.what}: a module tool imports remote ` +
      `modules only from the hosts its permissions.net grants; to allow it, ${grant}`;
  }
  return `cannot import ${refused.what}: it is not in the cache, and a module tool without a ` +
    `network grant downloads nothing (its imports come from the lockfile and the cache); ` +
    `cache it beforehand (deno cache, or deno install with the project's lockfile), or ${grant}`;
}
