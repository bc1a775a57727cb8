/**
 * Turns a checked manifest into a configured `Runner`: built-in and module
 * tools as local handlers, providers, and MCP servers (connected lazily, on
 * first use). Variables are resolved here, in one pass (a value from the
 * environment or an input is never expanded again), and remembered by the
 * redactor.
 *
 * @module
 */

// The runner's own modules, not the `run/mod.ts` barrel: providers and the MCP
// session API load only for manifests that use them.
import type { RetryOptions } from "../run/retry.ts";
import { Runner } from "../run/runner.ts";
import type { RunnerOptions } from "../run/runner_options.ts";
import type { McpServerOptions } from "../run/mcp/tools.ts";
import { getBuiltin } from "../run/builtin/builtins.ts";
import type { Manifest, ManifestServer } from "./manifest.ts";
import { resolvePath } from "../run/module/paths.ts";
import { Redactor } from "./secrets.ts";
import { askOnTerminal, resolveVariables } from "./variables.ts";
import {
  backendOf,
  closeWithin,
  endpoint,
  provider,
  serverConfig,
  withServerAuth,
} from "./runner_setup.ts";

/** Options of {@linkcode buildRunner}. */
export interface BuildRunnerOptions {
  /** Tool IDs to set up (default: every tool). Only their servers and providers are configured. */
  tools?: readonly string[];
  /** Reads environment variables for `${env:NAME}` (default: `Deno.env.get`). */
  env?: (name: string) => string | undefined;
  /** Remembers resolved secrets so output can be scrubbed. */
  redactor?: Redactor;
  /** Passed on to the Runner (timeouts, output validation mode, ...). */
  runner?: Omit<RunnerOptions & RetryOptions, "handlers" | "providers" | "mcpServers">;
  /** Cancels connecting to MCP servers whose tools take their schemas from the server. */
  signal?: AbortSignal;
  /** Wait between SIGTERM and SIGKILL when a command provider is stopped (default: the provider's). */
  killGraceMs?: number;
  /**
   * Deadline of connecting to and listing an MCP server whose tools take their
   * schemas from it, in ms (default: the runner's `timeoutMs`).
   */
  importTimeoutMs?: number;
  /**
   * Receives what a module tool writes to its stdout and stderr, as it
   * arrives (chunks, not necessarily whole lines); default: the process's stderr.
   */
  onModuleLog?: (toolId: string, text: string) => void;
  /**
   * A server's entry with its variables expanded (default: expanded here). A
   * {@linkcode Workspace} passes its own, so that each server is expanded once.
   */
  resolveServer?: (name: string) => ManifestServer;
  /**
   * A runner that already connected to the manifest's servers (a
   * {@linkcode Workspace}'s listing): its MCP servers and open connections
   * are taken over, so no server starts twice in one command. Their tools are
   * listed again over those connections, with the filters and the lock file
   * applied as on a first connection; a connection lost since is opened again
   * and checked against the lock file.
   */
  connections?: Runner;
  /**
   * Lists a server's tools instead of a connection of the runner's own (see
   * `McpServerOptions.listTools`), for the servers it gives a lister:
   * `serve` lists each stdio server over its upstream's first connection,
   * so the server starts once. `undefined` for a server: the runner lists it.
   */
  serverListing?: (server: string) => McpServerOptions["listTools"];
  /**
   * Told when a server starts connecting (`connecting`) and when its listing
   * is done (`ok`, with how many tools it listed) or failed, once per server;
   * `ms` is the time since it started. Servers connect at once, so events
   * interleave. Only servers listed while the runner is built are reported.
   */
  onProgress?: (
    event: { server: string; state: "connecting" | "ok" | "failed"; tools?: number; ms: number },
  ) => void;
}

/** One server event of {@linkcode BuildRunnerOptions.onProgress}. */
type ServerEvent = Parameters<NonNullable<BuildRunnerOptions["onProgress"]>>[0];

/**
 * The events of `report`, once per server: a server listed twice (for a tool
 * whose schema comes from it, then for its own tools) starts and ends once.
 */
function oncePerServer(
  report: ((event: ServerEvent) => void) | undefined,
): ((event: ServerEvent) => void) | undefined {
  if (report === undefined) return undefined;
  const started = new Map<string, number>();
  const ended = new Set<string>();
  return (event) => {
    if (event.state === "connecting") {
      if (started.has(event.server)) return;
      started.set(event.server, performance.now());
      return report(event);
    }
    if (ended.has(event.server)) return;
    ended.add(event.server);
    const since = started.get(event.server);
    report({
      ...event,
      ms: since === undefined ? event.ms : Math.round(performance.now() - since),
    });
  };
}

/**
 * A Runner for (some of) a manifest's tools.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildRunner, parseManifest } from "@toolfoundation/core/workspace";
 *
 * const manifest = await parseManifest(
 *   "version: 1\ntools:\n  - name: add\n    builtin: calculate\n",
 *   { path: "tools.yaml" },
 * );
 * const runner = await buildRunner(manifest);
 * const result = await runner.run("add", { operation: "add", a: 2, b: 3 });
 * assert.deepEqual(result.structured, { result: 5 });
 * await runner.close();
 * ```
 *
 * @param manifest The checked manifest.
 * @param options Which tools, secrets, runner options.
 * @returns The runner (close it when done).
 */
export async function buildRunner(
  manifest: Manifest,
  options: BuildRunnerOptions = {},
): Promise<Runner> {
  const wanted = options.tools === undefined ? undefined : new Set(options.tools);
  const tools = manifest.tools.filter((t) => wanted === undefined || wanted.has(t.id));
  const lookup = options.env ?? ((name: string) => Deno.env.get(name));
  const redactor = options.redactor ?? new Redactor();
  const redact = (text: string): string => redactor.redact(text);
  const runner = new Runner({ ...options.runner, redact });
  // Servers connected already are not configured (nor started) again.
  const servers = new Set<string>(
    options.connections === undefined ? [] : runner.adoptMcpServers(options.connections),
  );
  const providers = new Set<string>();
  // Each `${input:ID}` is asked for once, whichever entries use it.
  const given = new Map<string, string>();
  // Server tools (filters, lock file, variables) load only for a manifest with servers.
  const serverTools = Object.keys(manifest.servers).length === 0
    ? undefined
    : await import("./server_tools.ts");
  for (const t of tools) {
    const e = t.entry;
    if (e.builtin !== undefined) {
      const builtin = getBuiltin(e.builtin);
      if (builtin === undefined) throw new Error(`unknown built-in ${JSON.stringify(e.builtin)}`);
      runner.setHandler(t.id, builtin.handler);
    }
    if (e.module !== undefined) {
      // The module host (a child Deno process per tool) loads only for module tools.
      const { moduleHandler } = await import("../run/module/module_tool.ts");
      const file = resolvePath(manifest.dir, e.module);
      const url = new URL(`file://${Deno.realPathSync(file)}`);
      const onLog = options.onModuleLog;
      // The runner's close() closes the handler (and stops its processes).
      runner.setHandler(
        t.id,
        moduleHandler(url, {
          export: e.export,
          permissions: e.permissions,
          dir: manifest.dir,
          memoryMb: e.memoryMb,
          maxOutputBytes: e.maxOutputBytes,
          // Every module tool of the runner shares its cap of live processes.
          processes: runner.moduleProcesses,
          ...(onLog === undefined ? {} : { onLog: (text: string) => onLog(t.id, text) }),
        }),
      );
    }
    if (e.provider !== undefined && !providers.has(e.provider)) {
      providers.add(e.provider);
      runner.setProvider(
        await provider(
          manifest,
          e.provider,
          // One pass: a substituted value is never scanned for `${...}` again.
          resolveVariables(endpoint(manifest.providers, e.provider), {
            env: lookup,
            redactor,
            inputs: manifest.inputs,
            ask: askOnTerminal,
            given,
          }),
          { redact, killGraceMs: options.killGraceMs },
        ),
      );
    }
    if (e.server !== undefined && !servers.has(e.server)) {
      servers.add(e.server);
      const config = serverConfig(
        manifest,
        options.resolveServer?.(e.server) ??
          serverTools!.resolvedServer(manifest, e.server, { env: lookup, redactor, given }),
        { redact },
      );
      // Every later connection (a crash, a restart) is checked against the lock file.
      const checkTools = await serverTools!.lockCheckOf(manifest, e.server);
      const listTools = options.serverListing?.(e.server);
      await runner.setMcpServer(
        e.server,
        await withServerAuth(manifest, e.server, config, { env: lookup, redactor }),
        {
          ...(checkTools === undefined ? {} : { checkTools }),
          ...(listTools === undefined ? {} : { listTools }),
        },
      );
    }
    if (!t.schemaFromServer) runner.registry.add(t.tool, backendOf(t));
  }
  const fromServer = tools.filter((t) => t.schemaFromServer);
  // One server's namespaces one after another (one connection); servers at once.
  const listings = new Map<string, { namespace: string | undefined; declared: Set<string> }[]>();
  for (const server of new Set(fromServer.map((t) => t.entry.server!))) {
    const mine: { namespace: string | undefined; declared: Set<string> }[] = [];
    listings.set(server, mine);
    for (
      const namespace of new Set(
        fromServer.filter((t) => t.entry.server === server).map((t) => t.entry.namespace),
      )
    ) {
      const declared = new Set(
        fromServer.filter((t) => t.entry.server === server && t.entry.namespace === namespace).map((
          t,
        ) => t.id),
      );
      mine.push({ namespace, declared });
    }
  }
  const progress = oncePerServer(options.onProgress);
  // Every server lists at once, each within its deadline: as long as the slowest.
  try {
    await Promise.all([...listings].map(async ([server, mine]) => {
      progress?.({ server, state: "connecting", ms: 0 });
      let listed = 0;
      for (const { namespace, declared } of mine) {
        let imported;
        try {
          ({ imported } = await runner.importMcpTools(server, {
            namespace: namespace ?? null,
            signal: options.signal,
            ...(options.importTimeoutMs === undefined
              ? {}
              : { timeoutMs: options.importTimeoutMs }),
          }));
        } catch (error) {
          progress?.({ server, state: "failed", ms: 0 });
          // Name the tools that needed the listing (the runner's error names only the server).
          const e = error as { message?: unknown; toolId?: unknown };
          if (typeof e?.message === "string" && e.toolId === undefined) {
            const ids = [...declared].map((id) => JSON.stringify(id)).join(", ");
            try {
              e.message = `tool ${ids}: ${e.message}`;
              e.toolId = [...declared][0];
            } catch { /* a frozen error keeps its message */ }
          }
          throw error;
        }
        listed = imported.length;
        for (const entry of imported) if (!declared.has(entry.id)) runner.registry.remove(entry.id);
        for (const id of declared) {
          if (!runner.registry.has(id)) {
            throw new Error(
              `server ${JSON.stringify(server)} does not list a tool for ${JSON.stringify(id)}`,
            );
          }
        }
      }
      // Listing its own tools (`server:tool`) next, over the same connection, is not news.
      progress?.({ server, state: "ok", tools: listed, ms: 0 });
    }));
  } catch (error) {
    await closeWithin(runner, options.runner?.closeTimeoutMs ?? 5000);
    throw error;
  }
  // Server tools the manifest does not list (`server:tool`): imported, filtered, locked.
  try {
    await serverTools?.importServerTools(runner, manifest, {
      tools: options.tools,
      env: lookup,
      redactor,
      signal: options.signal,
      configured: servers,
      ...(options.serverListing === undefined ? {} : { serverListing: options.serverListing }),
      ...(progress === undefined ? {} : { onProgress: progress }),
      ...(options.resolveServer === undefined ? {} : { resolveServer: options.resolveServer }),
      ...(options.importTimeoutMs === undefined ? {} : { timeoutMs: options.importTimeoutMs }),
    });
  } catch (error) {
    await closeWithin(runner, options.runner?.closeTimeoutMs ?? 5000);
    throw error;
  }
  return runner;
}
