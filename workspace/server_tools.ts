/**
 * Servers' tools as first-class tools: a manifest's server imports every tool
 * it lists, namespaced by the server's name (`server:tool`), minus what its
 * `include`, `exclude` and `annotations` filters leave out and what the lock
 * file does not approve, with the per-tool overrides applied (name,
 * description, timeout, idempotence; the schemas stay the server's).
 *
 * @module
 */

import { mcpBackend, type Tool } from "../model/mod.ts";
import type { McpServerConfig, McpServerOptions, McpToolCheck, Runner } from "../run/mod.ts";
import { ServerUnavailableError, ToolChangedError, UsageError } from "./errors.ts";
import { compareWithLock, describeDifference, type LockFile, lockPath, readLock } from "./lock.ts";
import { lockCheck } from "./lock_check.ts";
import type { Manifest, ManifestServer, ResolvedTool } from "./manifest_types.ts";
import { serverConfig, withServerAuth } from "./runner_setup.ts";
import type { Redactor } from "./secrets.ts";
import { exposedTool, filteredOut } from "./server_filter.ts";
import { resolvedServer } from "./_resolved_server.ts";
import { serverOfId, serversFor } from "./server_ids.ts";

export { serverOfId, serversFor, serverToolTimeout } from "./server_ids.ts";

/** What happened to one server. */
export interface ServerReport {
  /** The server's name. */
  server: string;
  /** `ok`, `skipped` (`--offline`) or `failed` (with `--keep-going`). */
  status: "ok" | "skipped" | "failed";
  /** Why it failed. */
  error?: unknown;
  /** The tools it exposes (imported ones and those the manifest lists for it). */
  tools: ResolvedTool[];
  /** Every tool the server listed, as listed (no namespace). */
  listed: Tool[];
  /** Listed tools left out, with the reason (filters, lock, protocol rules). */
  left: { name: string; reason: string }[];
  /**
   * Listed tools the server's own definitions exclude (they break the
   * model's or the protocol's rules, e.g. an invalid `x-mcp-header`), with
   * the reason; also in `left`.
   */
  excluded?: { name: string; reason: string }[];
  /** Lock findings: tools changed (refused), new (not exposed), removed. */
  lock?: { changed: string[]; added: string[]; removed: string[] };
}

/** Options of {@linkcode importServerTools}. */
export interface ServerToolsOptions {
  /** Tool IDs wanted (default: every server's tools). */
  tools?: readonly string[];
  /** Reads environment variables. */
  env?: (name: string) => string | undefined;
  /** Remembers resolved secrets. */
  redactor: Redactor;
  /** Cancels connecting and listing. */
  signal?: AbortSignal;
  /** Deadline of connecting and listing one server, ms (default: the runner's). */
  timeoutMs?: number;
  /** Servers the runner is already configured for (not configured again). */
  configured?: ReadonlySet<string>;
  /** On a server that cannot be used: report it and go on (default: throw). */
  keepGoing?: boolean;
  /** Refuse changed tools that are not wanted too (default: only wanted ones). */
  strictLock?: boolean;
  /** A server's entry with its variables expanded (default: expanded here, once per call). */
  resolveServer?: (name: string) => ManifestServer;
  /** Lists a server's tools instead of a connection of the runner's own (see `McpServerOptions.listTools`). */
  serverListing?: (server: string) => McpServerOptions["listTools"];
  /**
   * Told when a server starts connecting (`connecting`) and when its listing
   * is done (`ok`, with how many tools it listed) or failed; `ms` is the time
   * since it started. Servers connect at once, so events interleave.
   */
  onProgress?: (
    event: { server: string; state: "connecting" | "ok" | "failed"; tools?: number; ms: number },
  ) => void;
}

export { resolvedServer } from "./_resolved_server.ts";

const lockCache = new WeakMap<Manifest, Promise<LockFile | undefined>>();

function lockOf(manifest: Manifest): Promise<LockFile | undefined> {
  let found = lockCache.get(manifest);
  if (found === undefined) {
    found = readLock(lockPath(manifest.path));
    lockCache.set(manifest, found);
  }
  return found;
}

/**
 * The check of a server's tools against the manifest's lock file on every
 * later connection (see {@linkcode lockCheck}); `undefined` without a lock file.
 */
export async function lockCheckOf(
  manifest: Manifest,
  server: string,
): Promise<McpToolCheck | undefined> {
  const lock = await lockOf(manifest);
  return lock === undefined ? undefined : lockCheck(lock, manifest.path, server);
}

/** The tool's name on the server, for an exposed ID of that server. */
function originalName(server: ManifestServer, exposed: string): string {
  for (const [original, o] of Object.entries(server.tools ?? {})) {
    if (o.name === exposed) return original;
  }
  return exposed;
}

/**
 * Lists the servers' tools on a runner and registers the exposed ones
 * (filters, lock and overrides applied); tools left out are removed from
 * its registry. Servers connect at the same time, each within its own
 * deadline, so the listing takes as long as the slowest. Tools the manifest lists itself keep their definitions.
 *
 * @param runner The runner (servers not in `configured` are configured here).
 * @param manifest The checked manifest.
 * @param options Which tools, secrets, deadline, what to do on failure.
 * @returns One report per server.
 * @throws {ServerUnavailableError} When a server cannot be used (without `keepGoing`).
 * @throws {ToolChangedError} When a wanted tool differs from the lock file.
 */
export async function importServerTools(
  runner: Runner,
  manifest: Manifest,
  options: ServerToolsOptions,
): Promise<ServerReport[]> {
  const wanted = options.tools === undefined ? undefined : new Set(options.tools);
  const involved = serversFor(manifest, options.tools);
  const lock = involved.length === 0 ? undefined : await lockOf(manifest);
  // Servers are listed for tools the manifest does not list itself, and, when
  // there is a lock file, to compare: a tool with its schema in the manifest
  // alone needs no listing.
  const dynamic = options.tools?.filter((id) => !manifest.tools.some((t) => t.id === id));
  const names = lock !== undefined || dynamic === undefined
    ? involved
    : serversFor(manifest, dynamic);
  const reports: ServerReport[] = [];
  const refused: { server: string; tool: string; changes: string[] }[] = [];
  const given = new Map<string, string>();
  const redact = (text: string) => options.redactor.redact(text);
  const before = new Map(runner.registry.list().map((e) => [e.id, e]));
  const failed = (name: string, report: ServerReport, error: unknown): void => {
    const code = (error as { code?: unknown })?.code;
    if (code === "cancelled" || code === "missing_secret" || code === "usage") throw error;
    const wrapped = new ServerUnavailableError(name, error);
    if (!options.keepGoing) throw wrapped;
    report.status = "failed";
    report.error = wrapped;
  };
  // First, one server after another: variables, and inputs asked for at most
  // once (on the terminal), only for servers configured here.
  const configs = new Map<string, McpServerConfig>();
  for (const name of names) {
    const report: ServerReport = { server: name, status: "ok", tools: [], listed: [], left: [] };
    reports.push(report);
    if (options.configured?.has(name)) continue;
    try {
      const resolved = options.resolveServer?.(name) ??
        resolvedServer(manifest, name, { ...options, given });
      configs.set(name, serverConfig(manifest, resolved, { redact }));
    } catch (error) {
      failed(name, report, error);
    }
  }
  // Then every server at once, each within its own deadline: listing takes as
  // long as the slowest server, not the sum. The first failure (without
  // keepGoing) stops the others.
  const stop = new AbortController();
  const signal = options.signal === undefined
    ? stop.signal
    : AbortSignal.any([options.signal, stop.signal]);
  let firstFailure: { error: unknown } | undefined;
  const listings = await Promise.all(reports.map(async (report) => {
    if (report.status === "failed") return undefined;
    const name = report.server;
    const server = manifest.servers[name];
    const started = performance.now();
    options.onProgress?.({ server: name, state: "connecting", ms: 0 });
    try {
      const config = configs.get(name);
      if (config !== undefined) {
        const checkTools = await lockCheckOf(manifest, name);
        const listTools = options.serverListing?.(name);
        await runner.setMcpServer(
          name,
          await withServerAuth(manifest, name, config, {
            env: options.env ?? ((n) => Deno.env.get(n)),
            redactor: options.redactor,
          }),
          {
            ...(checkTools === undefined ? {} : { checkTools }),
            ...(listTools === undefined ? {} : { listTools }),
          },
        );
      }
      const listing = await runner.importMcpTools(name, {
        namespace: name,
        signal,
        ...(options.timeoutMs === undefined && server.timeoutMs === undefined
          ? {}
          : { timeoutMs: server.timeoutMs ?? options.timeoutMs }),
      });
      const ms = Math.round(performance.now() - started);
      options.onProgress?.({ server: name, state: "ok", tools: listing.imported.length, ms });
      return listing;
    } catch (error) {
      const ms = Math.round(performance.now() - started);
      options.onProgress?.({ server: name, state: "failed", ms });
      try {
        failed(name, report, error);
      } catch (fatal) {
        // A server stopped because another failed first is not the news.
        if (firstFailure === undefined) firstFailure = { error: fatal };
        stop.abort();
      }
      return undefined;
    }
  }));
  if (firstFailure !== undefined) throw firstFailure.error;
  for (const [at, report] of reports.entries()) {
    const name = report.server;
    const listing = listings[at];
    if (listing === undefined) continue;
    const { imported, skipped } = listing;
    for (const s of skipped) {
      const reason = s.error.message;
      report.left.push({ name: s.name, reason });
      (report.excluded ??= []).push({ name: s.name, reason });
    }
    // Tools the manifest lists itself keep their own definitions and backends.
    for (const [id, entry] of before) {
      if (!imported.some((e) => e.id === id)) continue;
      runner.registry.remove(id);
      runner.registry.add(entry.tool, entry.backends);
    }
    const entry = manifest.servers[name];
    const listedTools = imported.map((e) => ({ ...e.tool, namespace: undefined }) as Tool);
    for (const t of listedTools) delete (t as { namespace?: string }).namespace;
    report.listed = listedTools;
    if (lock !== undefined) {
      const found = await compareWithLock(lock.servers[name], listedTools);
      report.lock = {
        changed: found.changed.map((c) => c.name),
        added: found.added,
        removed: found.removed,
      };
      for (const c of found.changed) {
        const exposedId = `${name}:${entry.tools?.[c.name]?.name ?? c.name}`;
        const explicit = manifest.tools.filter((t) =>
          t.entry.server === name && t.entry.name === c.name
        );
        const isWanted = wanted === undefined || wanted.has(exposedId) ||
          explicit.some((t) => wanted.has(t.id));
        if (isWanted || options.strictLock) {
          refused.push({
            server: name,
            tool: c.name,
            changes: c.differences.map(describeDifference),
          });
        }
      }
    }
    // Every ID this server exposes, wanted or not (named when a wanted one is missing).
    const exposable: string[] = manifest.tools.filter((t) => t.entry.server === name).map((t) =>
      t.id
    );
    const changed = new Set(report.lock?.changed ?? []);
    const added = new Set(report.lock?.added ?? []);
    for (const listed of listedTools) {
      const id = `${name}:${listed.name}`;
      const keep = before.has(id); // the manifest lists it itself
      const reason = changed.has(listed.name)
        ? "changed since it was locked (run lock to approve)"
        : added.has(listed.name)
        ? "new since the lock file was written (run lock to approve)"
        : filteredOut(entry, listed);
      if (reason !== undefined) {
        report.left.push({ name: listed.name, reason });
        if (!keep) runner.registry.remove(id);
        continue;
      }
      if (keep) continue;
      const exposed = exposedTool(name, entry, listed);
      const exposedId = `${name}:${exposed.name}`;
      exposable.push(exposedId);
      if (wanted !== undefined && !wanted.has(exposedId)) {
        runner.registry.remove(id);
        continue;
      }
      if (exposed.name !== listed.name) {
        // Calls still go to the server's name (the backend names it); the result,
        // content blocks and all, is the server's, checked once.
        runner.registry.remove(id);
        runner.registry.add(exposed, {
          kind: "mcp",
          mcp: { serverName: name, toolName: listed.name },
        });
      } else if (exposed !== listed) {
        runner.registry.remove(id);
        runner.registry.add(exposed, mcpBackend(name));
      }
      const timeoutMs = entry.tools?.[listed.name]?.timeoutMs ?? entry.timeoutMs;
      report.tools.push({
        id: exposedId,
        index: -1,
        entry: {
          name: exposed.name,
          namespace: name,
          server: name,
          ...(timeoutMs === undefined ? {} : { timeoutMs }),
        },
        tool: exposed,
        schemaFromServer: false,
        importedFrom: name,
      });
    }
    // A wanted ID of this server that is not exposed: say why.
    for (const id of wanted ?? []) {
      if (serverOfId(manifest, id) !== name || runner.registry.has(id)) continue;
      if (manifest.tools.some((t) => t.id === id)) continue;
      const original = originalName(entry, id.slice(name.length + 1));
      const left = report.left.find((l) => l.name === original);
      if (left === undefined && changed.has(original)) continue;
      if (refused.some((r) => r.server === name && r.tool === original)) continue;
      const exposed = [...new Set(exposable)].sort().join(", ") || "none";
      throw new UsageError(
        left === undefined
          ? `unknown tool ${JSON.stringify(id)}: server ${JSON.stringify(name)} lists no tool ${
            JSON.stringify(original)
          }; its tools: ${exposed}`
          : `tool ${JSON.stringify(id)} is not exposed: ${left.reason}`,
      );
    }
  }
  if (refused.length > 0) throw new ToolChangedError(refused, manifest.path);
  return reports;
}
