/**
 * A manifest opened once, the same way for every front door (`run`, `chain`,
 * `list`, `validate`, `convert`, `respond`, `serve`, `mcp`, `lock`) and for
 * the library: the file read and checked once, each server's variables
 * expanded once (an input is asked for once), one redactor that remembers
 * every resolved secret, the exposed tool set (the manifest's tools and its
 * servers' tools after filters, overrides and the lock file), the runner,
 * the permission plan, and the errors that name what does not exist together
 * with what does.
 *
 * @module
 */

import type { Runner } from "../run/runner.ts";
import type { BuildRunnerOptions } from "./build_runner.ts";
import { UsageError } from "./errors.ts";
import { loadManifest } from "./manifest.ts";
import type { Manifest, ManifestChain, ManifestServer, ResolvedTool } from "./manifest_types.ts";
import {
  manifestNeeds,
  type PermissionNeed,
  type PermissionPlan,
  planPermissions,
  type PlanPermissionsOptions,
  requirePlan,
} from "./permissions.ts";
import { Redactor } from "./secrets.ts";
import { serverOfId, serverToolTimeout, unknownServerError } from "./server_ids.ts";
import { resolvedServer } from "./_resolved_server.ts";
import type { ServerReport } from "./server_tools.ts";

/** Options of {@linkcode Workspace.open} and {@linkcode Workspace.of}. */
export interface WorkspaceOptions {
  /** Reads an environment variable for `${env:NAME}` (default: `Deno.env.get`). */
  env?: (name: string) => string | undefined;
  /** Remembers resolved secrets (default: a new one). */
  redactor?: Redactor;
  /** The largest manifest file read, in bytes (default: the loader's, 4 MiB). */
  maxBytes?: number;
}

/** Options of {@linkcode Workspace.exposedTools}. */
export interface ExposedToolsOptions {
  /** Cancels connecting and listing. */
  signal?: AbortSignal;
  /** Deadline of connecting to and listing one server, ms (default 60 s). */
  timeoutMs?: number;
  /** Contact no server: only what the manifest states. */
  offline?: boolean;
  /** A server that cannot be used is reported and left out (default: an error). */
  keepGoing?: boolean;
  /**
   * Told when each server starts connecting (`connecting`) and when its
   * listing is done (`ok`, with how many tools it listed) or failed; `ms` is
   * the time since it started. Servers connect at once, so events interleave.
   */
  onProgress?: (
    event: { server: string; state: "connecting" | "ok" | "failed"; tools?: number; ms: number },
  ) => void;
  /**
   * Keep the servers' connections open for the next
   * {@linkcode Workspace.runner} (which takes them over: no server starts
   * twice) instead of closing them; {@linkcode Workspace.close} closes them
   * when no runner is asked for. Default: closed once listed.
   */
  keepConnections?: boolean;
}

/** The tools a manifest exposes, with what happened to each server. */
export interface ExposedTools {
  /** The tools: the manifest's own (server schemas filled in) and its servers' imported ones. */
  tools: ResolvedTool[];
  /** One report per server (empty without servers). */
  servers: ServerReport[];
}

/** Options of {@linkcode Workspace.runner}: {@linkcode buildRunner}'s, less what the workspace owns. */
export type WorkspaceRunnerOptions = Omit<
  BuildRunnerOptions,
  "env" | "redactor" | "resolveServer" | "connections"
>;

/** The default deadline of connecting to and listing one server (as a run's). */
const DEFAULT_LIST_DEADLINE_MS = 60_000;

/**
 * A manifest opened for use: every command and the library go through one.
 *
 * @example Running a built-in tool of a manifest
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseManifest, Workspace } from "@toolfoundation/core/workspace";
 *
 * const manifest = await parseManifest(
 *   "version: 1\ntools:\n  - name: add\n    builtin: calculate\n",
 *   { path: "tools.yaml" },
 * );
 * const workspace = Workspace.of(manifest);
 * assert.throws(() => workspace.checkTool("sub"), /unknown tool "sub"; tools: add/);
 * const runner = await workspace.runner({ tools: ["add"] });
 * const result = await runner.run("add", { operation: "add", a: 2, b: 3 });
 * assert.deepEqual(result.structured, { result: 5 });
 * await runner.close();
 * ```
 */
export class Workspace {
  /** The checked manifest. */
  readonly manifest: Manifest;
  /** Remembers every secret resolved for this manifest; everything that leaves the process goes through it. */
  readonly redactor: Redactor;
  readonly #env: (name: string) => string | undefined;
  readonly #servers = new Map<string, ManifestServer>();
  readonly #given = new Map<string, string>();
  /** The runner that listed the servers, kept (`keepConnections`) for the next runner. */
  #listing: Runner | undefined;

  private constructor(manifest: Manifest, options: WorkspaceOptions) {
    this.manifest = manifest;
    this.redactor = options.redactor ?? new Redactor();
    this.#env = options.env ?? ((name) => Deno.env.get(name));
  }

  /**
   * Reads and checks a manifest file, its read permission checked first.
   *
   * @param path The manifest's path.
   * @param options Environment, redactor, size cap.
   * @returns The workspace.
   * @throws {MissingPermissionError} Without read access to the file.
   * @throws {ManifestError} When the manifest is invalid (every problem, located).
   */
  static async open(path: string, options: WorkspaceOptions = {}): Promise<Workspace> {
    requirePlan({ needs: manifestNeeds(path), workers: false, modules: [] });
    const manifest = await loadManifest(path, { maxBytes: options.maxBytes });
    return new Workspace(manifest, options);
  }

  /**
   * A workspace for a manifest already read (e.g. by `parseManifest`).
   *
   * @param manifest The checked manifest.
   * @param options Environment and redactor.
   * @returns The workspace.
   */
  static of(manifest: Manifest, options: WorkspaceOptions = {}): Workspace {
    return new Workspace(manifest, options);
  }

  /**
   * The permissions some of the manifest's tools need (every tool by default).
   *
   * @param options Which tools, extra files read, serve's listen address.
   * @returns The plan.
   */
  plan(options: PlanPermissionsOptions = {}): PermissionPlan {
    return planPermissions(this.manifest, options);
  }

  /**
   * Checks the plan's permissions are granted, all at once.
   *
   * @param options As for {@linkcode Workspace.plan}.
   * @returns The optional needs that are not granted (what will be skipped,
   *   e.g. inherited variables children will not get).
   * @throws {MissingPermissionError} Naming every missing flag, and the whole command's flags.
   */
  requirePermissions(options: PlanPermissionsOptions = {}): PermissionNeed[] {
    return requirePlan(this.plan(options));
  }

  /**
   * A server's entry with its variables (`${env:...}`, `${input:...}`)
   * expanded, once per workspace: a value that came from the environment or a
   * prompt is never expanded again, and an input is asked for once.
   *
   * @param name The server's name.
   * @returns The resolved entry.
   * @throws {UsageError} When the manifest has no such server (naming those it has).
   */
  server(name: string): ManifestServer {
    const known = this.#servers.get(name);
    if (known !== undefined) return known;
    if (!Object.hasOwn(this.manifest.servers, name)) throw this.unknownServer(name);
    const resolved = resolvedServer(this.manifest, name, {
      env: this.#env,
      redactor: this.redactor,
      given: this.#given,
    });
    this.#servers.set(name, resolved);
    return resolved;
  }

  /**
   * Whether an ID can name a tool without contacting a server: a tool the
   * manifest lists, or `server:name` of one of its servers.
   *
   * @param id The tool ID.
   * @returns Whether it may exist.
   */
  mayHaveTool(id: string): boolean {
    return this.manifest.tools.some((t) => t.id === id) ||
      serverOfId(this.manifest, id) !== undefined;
  }

  /**
   * Throws when `id` cannot name a tool of this manifest, listing what exists.
   *
   * @param id The tool ID.
   * @throws {UsageError} Naming the manifest's tools and servers.
   */
  checkTool(id: string): void {
    if (!this.mayHaveTool(id)) throw this.unknownTool(id);
  }

  /**
   * The error for a tool ID the manifest does not have: it lists the
   * manifest's tools, and its servers (whose tools are `server:name`).
   *
   * @param id The tool ID.
   * @param exposed The exposed tool IDs, when known (they are listed instead of the manifest's).
   * @returns The error.
   */
  unknownTool(id: string, exposed?: readonly string[]): UsageError {
    const ids = exposed ?? this.manifest.tools.map((t) => t.id);
    const servers = Object.keys(this.manifest.servers);
    const serverHint = servers.length === 0
      ? ""
      : `; servers: ${servers.join(", ")} (their tools are server:name; \`list\` shows them)`;
    return new UsageError(
      `unknown tool ${JSON.stringify(id)}; tools: ${ids.join(", ") || "none"}${serverHint}`,
    );
  }

  /**
   * A chain by name.
   *
   * @param name The chain's name.
   * @returns The chain.
   * @throws {UsageError} When there is none of that name (naming the chains there are).
   */
  chain(name: string): ManifestChain {
    if (Object.hasOwn(this.manifest.chains, name)) return this.manifest.chains[name];
    const names = Object.keys(this.manifest.chains).sort();
    throw new UsageError(
      `no chain named ${JSON.stringify(name)} in ${this.manifest.path}; chains: ${
        names.length > 0 ? names.join(", ") : "none defined"
      }`,
    );
  }

  /**
   * The error for a server name the manifest does not have, naming those it has.
   *
   * @param name The server's name.
   * @returns The error.
   */
  unknownServer(name: string): UsageError {
    return unknownServerError(this.manifest, name);
  }

  /**
   * The deadline of a tool's run: the command line's (it overrides the
   * manifest), else the chain step's, else the tool's `timeoutMs`, else its
   * server's; `undefined` for the runner's default.
   *
   * @param toolId The tool.
   * @param cli `--timeout`, when given.
   * @param step A chain step's `timeoutMs`.
   * @returns The deadline in ms, or `undefined`.
   */
  deadlineOf(toolId: string, cli?: number, step?: number): number | undefined {
    return cli ?? step ?? this.manifest.tools.find((t) => t.id === toolId)?.entry.timeoutMs ??
      serverToolTimeout(this.manifest, toolId);
  }

  /**
   * The tools the manifest exposes: its own (those whose schemas come from a
   * server filled in from the listing) and every server's tools after its
   * filters, overrides and the lock file. Connects to every server (under the
   * same permissions, variables and deadline as a run) unless `offline`.
   *
   * @param options Deadline, cancellation, offline, keep going.
   * @returns The tools and one report per server.
   * @throws {ToolChangedError} When a server tool differs from the lock file.
   * @throws {ServerUnavailableError} When a server cannot be used (without `keepGoing`).
   */
  async exposedTools(options: ExposedToolsOptions = {}): Promise<ExposedTools> {
    const names = Object.keys(this.manifest.servers);
    if (names.length === 0) return { tools: this.manifest.tools, servers: [] };
    const [{ Runner }, { discoverTools }] = await Promise.all([
      import("../run/runner.ts"),
      import("./_server_discovery.ts"),
    ]);
    if (options.offline) {
      const found = await discoverTools(undefined, this.manifest, {
        redactor: this.redactor,
        offline: true,
      });
      return { tools: found.tools, servers: found.reports };
    }
    const runner = new Runner({
      redact: (text) => this.redactor.redact(text),
      closeTimeoutMs: 150,
    });
    let kept = false;
    try {
      const found = await discoverTools(runner, this.manifest, {
        redactor: this.redactor,
        env: this.#env,
        resolveServer: (name) => this.server(name),
        signal: options.signal,
        timeoutMs: options.timeoutMs ?? DEFAULT_LIST_DEADLINE_MS,
        keepGoing: options.keepGoing === true,
        ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
      });
      if (options.keepConnections) {
        await this.close();
        this.#listing = runner;
        kept = true;
      }
      return { tools: found.tools, servers: found.reports };
    } finally {
      if (!kept) await closeRunner(runner);
    }
  }

  /**
   * Closes the servers' connections kept by
   * {@linkcode ExposedToolsOptions.keepConnections} that no runner took over
   * (waiting at most 2 s for their processes); does nothing otherwise.
   */
  async close(): Promise<void> {
    const listing = this.#listing;
    this.#listing = undefined;
    if (listing !== undefined) await closeRunner(listing);
  }

  /**
   * A Runner for (some of) the manifest's tools, with this workspace's
   * environment, redactor and resolved servers.
   *
   * @param options Which tools, runner options, deadlines.
   * @returns The runner (close it when done).
   */
  async runner(options: WorkspaceRunnerOptions = {}): Promise<Runner> {
    // Loaded on first use: list and permissions load no runner.
    const { buildRunner } = await import("./build_runner.ts");
    // The servers' connections kept from the listing are taken over, once.
    const listing = this.#listing;
    this.#listing = undefined;
    try {
      return await buildRunner(this.manifest, {
        ...options,
        env: this.#env,
        redactor: this.redactor,
        resolveServer: (name) => this.server(name),
        ...(listing === undefined ? {} : { connections: listing }),
      });
    } finally {
      // Left without MCP servers once taken over (or on failure: closes them).
      if (listing !== undefined) await closeRunner(listing);
    }
  }
}

/** Closes a runner, waiting no longer than 2 s (a process that cannot be stopped must not hold the caller). */
async function closeRunner(runner: Runner): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    runner.close().catch(() => {}),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, 2000))),
  ]);
  clearTimeout(timer);
}
