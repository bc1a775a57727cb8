// The `serve` command: a manifest as one MCP server over stdio or HTTP.

import { parseArgs } from "../_args.ts";
import type { Runner } from "../../run/mod.ts";
import { type CliIo, diagnose, EXIT } from "../_io.ts";
import { UsageError } from "../../workspace/errors.ts";
import type { Manifest } from "../../workspace/manifest.ts";
import { serverConfig, withServerAuth } from "../../workspace/runner_setup.ts";
import { Redactor } from "../../workspace/secrets.ts";
import { scrubConsole } from "../_console_scrub.ts";
import { onStopSignal } from "../_stop_signals.ts";
import { LIMIT_OPTIONS, limitsOf } from "./_serve_limits.ts";
import { lockChecks } from "./_serve_lock.ts";
import { telemetryUrlWarning } from "./_serve_otel.ts";
import { openState, STATE_OPTIONS, stateChoice } from "./_serve_state.ts";
import {
  MANIFEST_OPTIONS,
  MODULE_PROCESS_OPTIONS,
  openWorkspace,
  parseMaxModuleProcesses,
  parseTimeout,
  report,
} from "./_shared.ts";
import type { HttpAuth, McpUpstream, ServeChain, StateStore, Upstream } from "../../serve/mod.ts";
import { noteSkipped } from "./_permission_lines.ts";
import { bufferedLines } from "./_serve_access_log.ts";

/** The listen address of `--http`: `HOST:PORT`, `[V6]:PORT` or `PORT`. */
export function parseListen(value: string): { hostname: string; port: number } {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\[\]]+))?:?([0-9]{1,5})$/.exec(value.trim());
  const port = match === null ? NaN : Number(match[3]);
  if (match === null || !(port >= 0 && port <= 65535)) {
    throw new UsageError(
      `--http must be HOST:PORT (e.g. 127.0.0.1:8080), got ${JSON.stringify(value)}`,
    );
  }
  return { hostname: match[1] ?? match[2] ?? "127.0.0.1", port };
}

/** The `--allow-net` value of a listen address. */
function netAddress(listen: { hostname: string; port: number }): string {
  const host = listen.hostname.includes(":") ? `[${listen.hostname}]` : listen.hostname;
  return `${host}:${listen.port}`;
}

function positive(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = /^[0-9]{1,16}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new UsageError(`${flag} must be a positive whole number, got ${JSON.stringify(value)}`);
  }
  return n;
}

function pairs(flag: string, values: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values) {
    const at = v.indexOf("=");
    if (at <= 0) throw new UsageError(`${flag} must be NAME=VALUE, got ${JSON.stringify(v)}`);
    out[v.slice(0, at)] = v.slice(at + 1);
  }
  return out;
}

function chainsOf(manifest: Manifest): Record<string, ServeChain> {
  const out: Record<string, ServeChain> = {};
  for (const [name, chain] of Object.entries(manifest.chains)) {
    const inputSchema = (chain as { inputSchema?: ServeChain["inputSchema"] }).inputSchema;
    out[name] = {
      ...(chain.description === undefined ? {} : { description: chain.description }),
      ...(inputSchema === undefined ? {} : { inputSchema }),
      steps: chain.steps.map((s) => ({
        toolId: s.tool,
        ...(s.args === undefined ? {} : { args: s.args }),
        ...(s.usePrevious === undefined ? {} : { usePrevious: s.usePrevious }),
        ...(s.timeoutMs === undefined ? {} : { timeoutMs: s.timeoutMs }),
      })),
    };
  }
  return out;
}

/** `serve <manifest> --stdio | --http HOST:PORT` */
export async function serveCommand(argv: string[], io: CliIo): Promise<number> {
  // The access log is written in batches; any other stderr text flushes it
  // first, so the two stay in order.
  const accessLog = bufferedLines(io.stderr);
  const stderr = io.stderr;
  io = { ...io, stderr: (text) => (accessLog.flush(), stderr(text)) };
  const redactor = new Redactor();
  using _console = scrubConsole(redactor);
  let runner: Runner | undefined;
  /** The upstreams until the gateway owns them (it closes them): they may hold processes. */
  let unowned: Upstream[] = [];
  let stopping: StopSignals | undefined;
  /** The state store until serveHttp owns it (it closes it). */
  let state: StateStore | undefined;
  const starting = new AbortController();
  const STOPPED_STARTING = "serve was stopped (SIGINT or SIGTERM) while its servers started";
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        stdio: { type: "boolean" },
        http: { type: "string" },
        prefix: { type: "string", multiple: true },
        sessions: { type: "boolean" },
        "token-env": { type: "string", multiple: true },
        "request-state-key-env": { type: "string" },
        "oauth-issuer": { type: "string" },
        "oauth-resource": { type: "string" },
        "oauth-jwks": { type: "string" },
        "oauth-scope": { type: "string", multiple: true },
        "allow-host": { type: "string", multiple: true },
        "allow-origin": { type: "string", multiple: true },
        "max-body-bytes": { type: "string" },
        "max-concurrent": { type: "string" },
        "upstream-connections": { type: "string" },
        "upstream-calls-per-process": { type: "string" },
        "log-args": { type: "boolean" },
        report: { type: "boolean" },
        timeout: { type: "string" },
        ...LIMIT_OPTIONS,
        ...STATE_OPTIONS,
        ...MANIFEST_OPTIONS,
        ...MODULE_PROCESS_OPTIONS,
      },
    });
    const [path, ...extra] = positionals;
    if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`);
    if ((values.stdio === true) === (values.http !== undefined)) {
      throw new UsageError("give exactly one of --stdio or --http HOST:PORT; see serve --help");
    }
    const listen = values.http === undefined ? undefined : parseListen(values.http);
    const timeoutMs = parseTimeout(values.timeout);
    const upstreamConnections = positive("--upstream-connections", values["upstream-connections"]);
    const callsPerProcess = positive(
      "--upstream-calls-per-process",
      values["upstream-calls-per-process"],
    );
    const limits = limitsOf(values, {
      http: listen !== undefined,
      sessions: values.sessions === true,
    });
    const maxModuleProcesses = parseMaxModuleProcesses(values["max-module-processes"]);
    const stateStore = stateChoice(values, listen !== undefined);
    const prefixes = withSeparators(pairs("--prefix", values.prefix ?? []));
    const toolScopes: Record<string, string[]> = {};
    for (
      const [tool, scope] of Object.entries(pairs("--oauth-scope", values["oauth-scope"] ?? []))
    ) {
      toolScopes[tool] = scope.split(/[ ,]+/).filter((s) => s !== "");
    }
    const workspace = await openWorkspace(path, values, redactor);
    const manifest = workspace.manifest;
    const exported = telemetryUrlWarning(manifest);
    if (exported !== undefined) diagnose(io, redactor, "warning", exported);
    const tokenEnv = values["token-env"] ?? [];
    const skipped = workspace.requirePermissions({
      serve: {
        ...(listen === undefined ? {} : { listen: netAddress(listen) }),
        env: [
          ...tokenEnv,
          ...(values["request-state-key-env"] === undefined
            ? []
            : [values["request-state-key-env"]]),
        ],
        ...(stateStore.kind === "redis" ? { state: stateStore.net } : {}),
      },
    });
    noteSkipped(io, skipped);
    // A shared store that does not answer stops serve here, before any server starts.
    if (listen !== undefined) state = await openState(stateStore, limits.state);
    const serve = await import("../../serve/mod.ts");
    let auth: HttpAuth | undefined;
    if (tokenEnv.length > 0) {
      // Each token's principal is its variable's name (never the token).
      const tokens: Record<string, string> = {};
      for (const name of tokenEnv) {
        const value = Deno.env.get(name);
        if (value === undefined || value.length < 16) {
          throw new UsageError(
            `--token-env ${name}: the variable is ${
              value === undefined ? "not set" : "shorter than 16 characters"
            }; set it to a long random token`,
          );
        }
        redactor.add(value, name);
        tokens[name] = value;
      }
      auth = serve.bearerAuth(tokens);
    }
    // The key sealing the requestState of input-required results: shared by
    // instances behind one address, so a client's retry may reach any of them.
    let requestStateKey: string | undefined;
    const keyEnv = values["request-state-key-env"];
    if (keyEnv !== undefined) {
      requestStateKey = Deno.env.get(keyEnv);
      if (requestStateKey === undefined || new TextEncoder().encode(requestStateKey).length < 32) {
        throw new UsageError(
          `--request-state-key-env ${keyEnv}: the variable is ${
            requestStateKey === undefined ? "not set" : "shorter than 32 bytes"
          }; set it to a long random key, the same for every instance`,
        );
      }
      redactor.add(requestStateKey, keyEnv);
    }
    if (values["oauth-issuer"] !== undefined) {
      if (auth !== undefined) throw new UsageError("give --token-env or --oauth-issuer, not both");
      const resource = values["oauth-resource"];
      if (resource === undefined) {
        throw new UsageError("--oauth-issuer needs --oauth-resource URL (this server's /mcp URL)");
      }
      auth = serve.oauthResourceAuth({
        issuer: values["oauth-issuer"],
        resource,
        ...(values["oauth-jwks"] === undefined ? {} : { jwksUrl: values["oauth-jwks"] }),
        scopesSupported: [...new Set(Object.values(toolScopes).flat())],
      });
    }
    if (listen === undefined && values.report === true) {
      throw new UsageError("--report serves a page at /report: it applies to --http only");
    }
    if (listen === undefined && auth !== undefined) {
      throw new UsageError("--token-env and --oauth-* apply to --http only");
    }
    // From here on SIGINT / SIGTERM stop serving; closing the gateway then stops
    // every upstream's process group. A stop while servers still start (the
    // runner listing their tools, upstreams connecting) gives up on them at once.
    stopping = onStopSignals();
    let started = false;
    const upstreams: Upstream[] = [];
    unowned = upstreams;
    void stopping.requested.then(() => {
      if (started) return;
      starting.abort(new DOMException(STOPPED_STARTING, "AbortError"));
      for (const upstream of upstreams) void upstream.close();
    });
    const lookup = (name: string) => Deno.env.get(name);
    const redact = (text: string) => redactor.redact(text);
    // Every connection an upstream opens (after a crash or restart too) is
    // compared with the lock file, as the runner's listing is at start.
    const checks = await lockChecks(manifest);
    const listers = new Map<string, McpUpstream>();
    for (const name of Object.keys(manifest.servers)) {
      // The same resolved entry the runner lists with: variables expanded once.
      const config = serverConfig(manifest, workspace.server(name), { redact });
      const authed = await withServerAuth(manifest, name, config, { env: lookup, redactor });
      // The server's own `callsPerProcess` wins over the flag (a server that
      // cannot serve calls side by side says so where it is declared).
      const perProcess = manifest.servers[name].callsPerProcess ?? callsPerProcess;
      const upstream = serve.mcpUpstream(name, authed, {
        ...(checks === undefined ? {} : { checkTools: checks(name) }),
        ...(upstreamConnections === undefined ? {} : { maxConnections: upstreamConnections }),
        ...(perProcess === undefined ? {} : { maxRequestsPerConnection: perProcess }),
        // Counted, said at the 1st, 10th, 100th ... drop: never one line per drop.
        onLogDropped: (dropped) => {
          if (!/^10*$/.test(String(dropped))) return;
          diagnose(
            io,
            redactor,
            "warning",
            `upstream server ${JSON.stringify(name)}: ${dropped} log line(s) dropped so far: ` +
              "calls of several clients (principals) were in flight on its process, and a log " +
              "line names no call; give the server callsPerProcess: 1 in the manifest to pass " +
              "on every log line",
          );
        },
      });
      upstreams.push(upstream);
      // A stdio server is a process: the runner lists its tools over the
      // upstream's first connection, which then serves the calls, so each
      // server starts once (a connection of the runner's own would idle).
      if (authed.transport === "stdio") listers.set(name, upstream);
    }
    runner = await workspace.runner({
      signal: starting.signal,
      runner: {
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        ...(maxModuleProcesses === undefined ? {} : { maxModuleProcesses }),
      },
      serverListing: (server) => {
        const upstream = listers.get(server);
        return upstream === undefined ? undefined : (signal, ms) => upstream.listTools(signal, ms);
      },
    });
    const toolTimeouts: Record<string, number> = {};
    const toolMaxOutputBytes: Record<string, number> = {};
    // Every served tool's deadline as `run` finds it: --timeout, the tool's
    // own, its server's per-tool override, its server's.
    for (const { id } of runner.registry.list()) {
      const ms = workspace.deadlineOf(id, timeoutMs);
      if (ms !== undefined) toolTimeouts[id] = ms;
    }
    for (const t of manifest.tools) {
      const server = t.entry.server === undefined ? undefined : manifest.servers[t.entry.server];
      const cap = t.entry.maxOutputBytes ?? server?.maxOutputBytes;
      if (cap !== undefined) toolMaxOutputBytes[t.id] = cap;
    }
    const gateway = await serve.Gateway.create(runner, {
      chains: chainsOf(manifest),
      prefixes,
      upstreams,
      toolTimeouts,
      toolMaxOutputBytes,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      logArgs: values["log-args"] === true,
      ...(requestStateKey === undefined ? {} : { requestStateKey }),
      // Every result, error, notification, access-log entry and span leaves scrubbed.
      redact,
      onAccess: (entry) => accessLog.write(serve.accessLogLine(entry)),
    });
    unowned = []; // the gateway closes them
    // The report page covers what the runner registered (the servers' tools included).
    const reportPage = values.report === true
      ? (await import("./report.ts")).servedReport(manifest, runner.registry.list(), redactor)
      : undefined;
    started = true;
    runner = undefined; // the gateway closes it
    try {
      if (starting.signal.aborted) {
        diagnose(io, redactor, "info", STOPPED_STARTING);
        return EXIT.interrupted;
      }
      if (listen === undefined) {
        const serving = serve.serveStdio(gateway, {
          ...(values["max-body-bytes"] === undefined
            ? {}
            : { maxMessageBytes: positive("--max-body-bytes", values["max-body-bytes"]) }),
          raiseHint: "raise it with --max-body-bytes N",
        });
        // SIGINT / SIGTERM end serving like the end of stdin: the gateway (below)
        // then stops every upstream's process group.
        await Promise.race([serving.finished, stopping.requested]);
        await serving.close();
        return EXIT.ok;
      }
      const serving = await serve.serveHttp(gateway, {
        ...listen,
        ...(auth === undefined ? {} : { auth, toolScopes }),
        allowedHosts: values["allow-host"] ?? [],
        allowedOrigins: values["allow-origin"] ?? [],
        sessions: values.sessions === true,
        state: state!,
        ...(reportPage === undefined ? {} : { pages: { "/report": reportPage } }),
        ...(limits.rate === undefined ? {} : { maxRate: limits.rate }),
        ...(values["max-body-bytes"] === undefined
          ? {}
          : { maxBodyBytes: positive("--max-body-bytes", values["max-body-bytes"]) }),
        ...(values["max-concurrent"] === undefined
          ? {}
          : { maxConcurrentPerClient: positive("--max-concurrent", values["max-concurrent"]) }),
      });
      state = undefined; // serving closes it
      diagnose(io, redactor, "info", `serving ${manifest.path} at ${serving.url}`);
      if (reportPage !== undefined) {
        diagnose(io, redactor, "info", `schema-loss report at ${new URL("/report", serving.url)}`);
      }
      void stopping.requested.then(() => serving.close());
      await serving.finished;
      return EXIT.ok;
    } finally {
      await gateway.close();
    }
  } catch (error) {
    if (starting.signal.aborted) {
      diagnose(io, redactor, "info", STOPPED_STARTING);
      return EXIT.interrupted;
    }
    if (
      (error as { code?: unknown })?.code === "auth_required" ||
      (error as { code?: unknown })?.code === "name_clash"
    ) {
      diagnose(io, redactor, "error", (error as Error).message);
      return EXIT.usage;
    }
    if ((error as { code?: unknown })?.code === "listen_failed") {
      diagnose(io, redactor, "error", (error as Error).message);
      return EXIT.failure;
    }
    return report(io, redactor, error);
  } finally {
    await Promise.all([runner?.close(), ...unowned.map((upstream) => upstream.close())]);
    await state?.close();
    stopping?.remove();
    accessLog.close();
  }
}

/** A stop asked for by SIGINT or SIGTERM (where signals exist). */
interface StopSignals {
  /** Settles at the first of the signals. */
  requested: Promise<void>;
  /** Removes the listeners. */
  remove(): void;
}

function onStopSignals(): StopSignals {
  let stop!: () => void;
  const requested = new Promise<void>((resolve) => (stop = resolve));
  // A second signal ends the CLI at once, after SIGKILL to every process group it started.
  return { requested, remove: onStopSignal(() => stop()) };
}

/**
 * `--prefix b=bee` serves `bee_shout`, not `beeshout`: a prefix that does not
 * end in a separator MCP names allow (`_`, `-`, `.`) gets `_`.
 */
function withSeparators(prefixes: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [server, prefix] of Object.entries(prefixes)) {
    out[server] = prefix === "" || /[_.-]$/.test(prefix) ? prefix : `${prefix}_`;
  }
  return out;
}
