// The `lock` command: pins the definition of every tool the manifest's
// servers list (digest and definition) in <manifest>.lock.

import { parseArgs } from "../_args.ts";
import { Runner } from "../../run/mod.ts";
import { type CliIo, diagnose, EXIT } from "../_io.ts";
import { ServerUnavailableError, UsageError } from "../../workspace/errors.ts";
import { type LockFile, lockPath, lockTools } from "../../workspace/lock.ts";
import type { Tool } from "../../model/mod.ts";
import { Redactor } from "../../workspace/secrets.ts";
import { scrubConsole } from "../_console_scrub.ts";
import { serverProgress } from "../_progress.ts";
import { serverConfig, withServerAuth } from "../../workspace/runner_setup.ts";
import {
  MANIFEST_OPTIONS,
  openWorkspace,
  parseTimeout,
  report,
  requirePermissions,
  withInterrupt,
} from "./_shared.ts";

/** A server's failure, as lock reports it (cancellation and usage errors as they are). */
function unavailable(name: string, error: unknown): unknown {
  const code = (error as { code?: unknown })?.code;
  if (code === "cancelled" || code === "missing_secret" || code === "usage") return error;
  return new ServerUnavailableError(name, error);
}

/** `lock <manifest> [--timeout ms]` */
export async function lockCommand(argv: string[], io: CliIo): Promise<number> {
  const redactor = new Redactor();
  using _console = scrubConsole(redactor);
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { timeout: { type: "string" }, ...MANIFEST_OPTIONS },
    });
    const [path, ...extra] = positionals;
    if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`);
    const timeoutMs = parseTimeout(values.timeout) ?? 60_000;
    const workspace = await openWorkspace(path, values, redactor);
    const manifest = workspace.manifest;
    const names = Object.keys(manifest.servers);
    if (names.length === 0) throw new UsageError(`${path} has no servers; nothing to lock`);
    const plan = workspace.plan({ tools: names.map((n) => `${n}:\u0000`) });
    const file = lockPath(manifest.path);
    plan.needs.push({ name: "write", value: file, reason: "the lock file" });
    requirePermissions(plan);
    const runner = new Runner({ redact: (t) => redactor.redact(t), closeTimeoutMs: 150 });
    const lock: LockFile = { version: 1, servers: {} };
    try {
      await withInterrupt(async (interrupt) => {
        // Variables (and inputs, asked for once) one server after another; then
        // every server connects at once, each within its deadline.
        const servers = names.map((name) => {
          try {
            return workspace.server(name);
          } catch (error) {
            throw unavailable(name, error);
          }
        });
        const stop = new AbortController();
        const signal = AbortSignal.any([interrupt, stop.signal]);
        let first: { error: unknown } | undefined;
        using progress = serverProgress(io, names.length);
        const listed = await Promise.all(names.map(async (name, at) => {
          const server = servers[at];
          const started = performance.now();
          progress.onProgress?.({ server: name, state: "connecting", ms: 0 });
          try {
            await runner.setMcpServer(
              name,
              await withServerAuth(
                manifest,
                name,
                serverConfig(manifest, server, { redact: (t) => redactor.redact(t) }),
                { env: (n) => Deno.env.get(n), redactor },
              ),
            );
            const { imported } = await runner.importMcpTools(name, {
              namespace: null,
              signal,
              timeoutMs: server.timeoutMs ?? timeoutMs,
            });
            const ms = Math.round(performance.now() - started);
            progress.onProgress?.({ server: name, state: "ok", tools: imported.length, ms });
            return await lockTools(imported.map((e) => e.tool as Tool));
          } catch (error) {
            const ms = Math.round(performance.now() - started);
            progress.onProgress?.({ server: name, state: "failed", ms });
            // The first failure is the news; it stops the servers still starting.
            first ??= { error: unavailable(name, error) };
            stop.abort();
            return undefined;
          }
        }));
        if (first !== undefined) throw first.error;
        for (const [at, name] of names.entries()) lock.servers[name] = listed[at]!;
      });
    } finally {
      await Promise.race([runner.close().catch(() => {}), new Promise((r) => setTimeout(r, 2000))]);
    }
    await Deno.writeTextFile(file, `${JSON.stringify(lock, null, 2)}\n`);
    const count = Object.values(lock.servers).reduce((n, s) => n + Object.keys(s).length, 0);
    diagnose(io, redactor, "ok", `locked ${count} tool(s) of ${names.length} server(s) in ${file}`);
    return EXIT.ok;
  } catch (error) {
    return report(io, redactor, error);
  }
}
