/**
 * What `buildRunner` sets up from a manifest entry: an MCP server's
 * configuration, a provider, a tool's backend; and closing a runner within a
 * bound when setting up fails. The CLI's `lock`, `mcp` and `serve` commands
 * use it too.
 *
 * @module
 */

import { localBackend, mcpBackend, providerBackend, type ToolBackend } from "../model/backend.ts";
import type { McpServerConfig } from "../run/mcp/config.ts";
import type { ToolProvider } from "../run/provider.ts";
import type { Runner } from "../run/runner.ts";
import type { Manifest, ManifestEndpoint, ManifestServer, ResolvedTool } from "./manifest.ts";
import type { Redactor } from "./secrets.ts";
import { resolvePath } from "../run/module/paths.ts";

/** How an endpoint's process or connection is set up beyond the manifest entry. */
interface EndpointSetup {
  /** Scrubs secrets from what the endpoint's errors quote, before it is cut. */
  redact: (text: string) => string;
  /** Wait between SIGTERM and SIGKILL for command providers. */
  killGraceMs?: number;
}

/**
 * A manifest server entry (variables resolved) as the runner's MCP server
 * configuration: stdio with `command`, Streamable HTTP with `url`, the legacy
 * HTTP+SSE transport with `type: sse`. The one place that maps the two; every
 * command that connects (run, chain, list, lock, mcp, serve) uses it, and
 * {@linkcode withServerAuth} for an `auth:` block.
 */
export function serverConfig(
  manifest: Manifest,
  e: ManifestServer,
  setup: EndpointSetup,
): McpServerConfig {
  const cap = e.maxOutputBytes === undefined ? {} : { maxOutputBytes: e.maxOutputBytes };
  if (e.url !== undefined && e.type === "sse") {
    return { transport: "sse", url: e.url, headers: e.headers, ...cap };
  }
  if (e.url !== undefined) {
    return {
      transport: "http",
      url: e.url,
      headers: e.headers,
      ...cap,
      ...(e.protocol === undefined ? {} : { protocol: e.protocol }),
    };
  }
  return {
    transport: "stdio",
    command: e.command!,
    args: e.args,
    env: e.env,
    cwd: e.cwd === undefined ? undefined : resolvePath(manifest.dir, e.cwd),
    ...(e.inheritEnv === undefined ? {} : { inheritEnv: e.inheritEnv }),
    ...cap,
    ...(e.protocol === undefined ? {} : { protocol: e.protocol }),
    redact: setup.redact,
  };
}

/**
 * Gives an HTTP or SSE server with an `auth:` block its OAuth provider
 * (stored tokens, refreshed; never a browser: a needed login is an error
 * naming `auth login`). The OAuth code is loaded only then.
 */
export async function withServerAuth(
  manifest: Manifest,
  name: string,
  config: McpServerConfig,
  options: { env: (name: string) => string | undefined; redactor: Redactor },
): Promise<McpServerConfig> {
  if (config.transport === "stdio" || manifest.servers[name]?.auth === undefined) return config;
  const { manifestAuthProvider } = await import("./server_auth.ts");
  const authProvider = manifestAuthProvider(manifest, name, options);
  return authProvider === undefined ? config : { ...config, authProvider };
}

/**
 * A manifest provider entry as an HTTP or command provider (the provider's
 * module loads only then).
 */
export async function provider(
  manifest: Manifest,
  id: string,
  e: ManifestEndpoint,
  setup: EndpointSetup,
): Promise<ToolProvider> {
  const cap = e.maxOutputBytes === undefined ? {} : { maxOutputBytes: e.maxOutputBytes };
  const redact = setup.redact;
  if (e.url !== undefined) {
    const { httpProvider } = await import("../run/http/http_provider.ts");
    return httpProvider({ id, url: e.url, headers: e.headers, ...cap, redact });
  }
  const { commandProvider } = await import("../run/command/command_provider.ts");
  const killGraceMs = setup.killGraceMs;
  return commandProvider({
    id,
    command: e.command!,
    args: e.args,
    env: e.env,
    cwd: e.cwd === undefined ? undefined : resolvePath(manifest.dir, e.cwd),
    ...(e.inheritEnv === undefined ? {} : { inheritEnv: e.inheritEnv }),
    ...(killGraceMs === undefined ? {} : { killGraceMs }),
    ...cap,
    redact,
  });
}

/** The named entry of `servers` or `providers` (own entries only). */
export function endpoint(group: Record<string, ManifestEndpoint>, name: string): ManifestEndpoint {
  if (!Object.hasOwn(group, name)) throw new Error(`no endpoint named ${JSON.stringify(name)}`);
  return group[name];
}

/** The backend a manifest tool runs on. */
export function backendOf(t: ResolvedTool): ToolBackend {
  const e = t.entry;
  if (e.builtin !== undefined || e.module !== undefined) return localBackend(t.id);
  if (e.provider !== undefined) return providerBackend(e.provider, e.providerTool ?? e.name);
  return mcpBackend(e.server!);
}

/** Closes a runner, waiting no longer than `ms` (a process that cannot be stopped must not hold the caller). */
export async function closeWithin(runner: Runner, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    runner.close().catch(() => {}),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
  ]);
  clearTimeout(timer);
}
