/**
 * Module tools: a local module's export run in a child Deno process whose
 * permission flags are exactly what the manifest grants the tool (nothing by
 * default) and whose heap is bounded (`memoryMb`, default 512 MB). The process
 * is kept for the next call of the same tool and stopped by `close()` (or
 * when the parent exits). The processes of the module tools that share a
 * {@linkcode ModuleProcessLimit} (a Runner's, by default 16) are capped:
 * beyond it an idle process is retired, or the call waits for a slot. The
 * tool's own stdout and stderr output goes to the log sink (the parent's
 * stderr), never to the parent's stdout. A tool that
 * reaches outside its grant fails with `permission_denied` naming the grant
 * to change; a symbolic link inside a granted directory that leads outside
 * the grant is refused before the tool runs. Imports come from the lockfile
 * and the cache: a tool with no `net` grant downloads no code at all (npm,
 * jsr and https modules must be cached), one with a `net` grant imports
 * remote modules only from the hosts it names.
 *
 * @module
 */

import { ExecutionError, PermissionDeniedError } from "../errors.ts";
import type { LocalHandler, ToolContext } from "../local.ts";
import { AnsiStripper } from "../process/ansi.ts";
import { childEnv } from "../process/child_env.ts";
import type { ManifestPermissions } from "./permissions.ts";
import { ModuleProcess } from "./_process.ts";
import type { HostOutcome } from "./_outcome.ts";
import { moduleToolDeno } from "./deno.ts";
import { checkGrantLinks, listOf, permissionFlags } from "./_grants.ts";
import { downloadsNothing, importFlags } from "./_imports.ts";
import { translate } from "./_outcome.ts";
import { ModuleProcessLimit, type ModuleProcessSlot } from "./process_limit.ts";

export { checkModuleTool, type CheckModuleToolOptions, type ModuleToolProblem } from "./_check.ts";

/** Default heap limit of a module tool's process, in MB. */
export const DEFAULT_MODULE_MEMORY_MB = 512;
/** Default cap of a module tool's result (its JSON text), in bytes: 10 MiB. */
export const DEFAULT_MODULE_OUTPUT_BYTES: number = 10 * 1024 * 1024;

/** Default time an idle module tool process is kept for the next call: 30 s. */
export const DEFAULT_MODULE_KEEP_ALIVE_MS = 30_000;

/** Options of {@linkcode moduleHandler}. */
export interface ModuleHandlerOptions {
  /** The export to call (default `default`). */
  export?: string;
  /**
   * What the tool's process may do (nothing by default). `net` also says
   * where it may import remote code from: nowhere without it (only what the
   * cache holds), its hosts with a list, anywhere with `true`.
   */
  permissions?: ManifestPermissions;
  /** Directory that relative grant paths resolve against (default `.`). */
  dir?: string;
  /** Heap limit of the tool's process in MB (default {@linkcode DEFAULT_MODULE_MEMORY_MB}). */
  memoryMb?: number;
  /** Cap of one result in bytes (default {@linkcode DEFAULT_MODULE_OUTPUT_BYTES}). */
  maxOutputBytes?: number;
  /** The `deno` executable (default: {@linkcode moduleToolDeno}). */
  deno?: string;
  /**
   * How long an idle process is kept for the next call, in ms (default
   * {@linkcode DEFAULT_MODULE_KEEP_ALIVE_MS}); `0` stops it after every call.
   */
  keepAliveMs?: number;
  /** Receives the tool's own output, stdout and stderr alike (default: written to stderr). */
  onLog?: (text: string) => void;
  /**
   * The cap of live processes this tool shares with other module tools (a
   * Runner's is `runner.moduleProcesses`); default: a cap of its own, of
   * `DEFAULT_MAX_MODULE_PROCESSES` (16) processes.
   */
  processes?: ModuleProcessLimit;
}

/** A module tool's handler; `close()` stops its processes. */
export interface ModuleHandler extends LocalHandler {
  /** Stops every process of this handler; later calls fail. */
  close(): Promise<void>;
}

// Deno 2.9's setTimeout returns a Node-style Timeout object (with unref); older ones a number.
function unrefTimer(timer: ReturnType<typeof setTimeout>): void {
  const t = timer as unknown as { unref?: () => void };
  if (typeof t.unref === "function") t.unref();
  else Deno.unrefTimer(timer as unknown as number);
}

function writeStderr(text: string): void {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  while (offset < bytes.length) offset += Deno.stderr.writeSync(bytes.subarray(offset));
}

/** The default log sink: stderr, without terminal escapes when it is not a terminal. */
function stderrSink(): (text: string) => void {
  if (Deno.stderr.isTerminal()) return writeStderr;
  const strip = new AnsiStripper();
  return (text) => writeStderr(strip.push(text));
}

/**
 * A local handler that runs `export` of a module in a sandboxed child Deno
 * process: exactly the granted permissions, a bounded heap, the result as
 * JSON (capped), the tool's own output on the log sink. One process serves
 * one call at a time; it is kept for the next call, stopped when a call is
 * cancelled, and by `close()`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { moduleHandler } from "@toolfoundation/core/workspace";
 * import { Runner } from "@toolfoundation/core/run";
 *
 * const source = "export default (args) => ({ shout: String(args.text).toUpperCase() });";
 * const module = new URL(`data:text/javascript,${encodeURIComponent(source)}`);
 * const handler = moduleHandler(module);
 * const runner = new Runner();
 * runner.addLocalTool({ name: "shout", inputSchema: { type: "object" } }, handler);
 * assert.deepEqual((await runner.run("shout", { text: "hi" })).structured, { shout: "HI" });
 * await handler.close();
 * await runner.close();
 * ```
 *
 * @param module The module's URL.
 * @param options Export name, grants, the directory grants resolve against, limits.
 * @returns The handler.
 */
export function moduleHandler(module: URL, options: ModuleHandlerOptions = {}): ModuleHandler {
  const dir = options.dir ?? ".";
  const p = options.permissions ?? {};
  const memoryMb = options.memoryMb ?? DEFAULT_MODULE_MEMORY_MB;
  const cap = options.maxOutputBytes ?? DEFAULT_MODULE_OUTPUT_BYTES;
  const onLog = options.onLog ?? stderrSink();
  const pathGrants = (name: "read" | "write"): string[] => {
    const v = listOf(p[name], dir, true);
    return Array.isArray(v) ? v : [];
  };
  const grants = { read: pathGrants("read"), write: pathGrants("write") };
  const keepAliveMs = options.keepAliveMs ?? DEFAULT_MODULE_KEEP_ALIVE_MS;
  const offline = downloadsNothing(p.net);
  const limit = options.processes ?? new ModuleProcessLimit();
  // Who this handler is to the limit: a slot handed over is always one of its own processes.
  const owner = {};
  const idle: ModuleProcess[] = [];
  const idleTimers = new Map<ModuleProcess, ReturnType<typeof setTimeout>>();
  // Live processes (not yet told to stop), each with the slot it holds until it has exited.
  const all = new Set<ModuleProcess>();
  const slotOf = new Map<ModuleProcess, ModuleProcessSlot>();
  const processOf = new Map<ModuleProcessSlot, ModuleProcess>();
  const stopping = new Set<Promise<void>>();
  const closing = new AbortController();
  let closed = false;

  const unpark = (proc: ModuleProcess): void => {
    const i = idle.indexOf(proc);
    if (i >= 0) idle.splice(i, 1);
    clearTimeout(idleTimers.get(proc));
    idleTimers.delete(proc);
  };

  // Its slot frees once it has exited (see start).
  const retire = (proc: ModuleProcess): void => {
    unpark(proc);
    slotOf.get(proc)?.busy();
    if (!all.delete(proc)) return;
    const stopped = proc.stop().finally(() => stopping.delete(stopped));
    stopping.add(stopped);
  };

  const start = (toolId: string, slot: ModuleProcessSlot): ModuleProcess => {
    if (!Number.isInteger(memoryMb) || memoryMb < 16) {
      throw new Error(`memoryMb must be an integer of at least 16, got ${memoryMb}`);
    }
    const envGrant = p.env;
    const deno = options.deno ?? moduleToolDeno();
    const spec = {
      deno,
      flags: [
        ...permissionFlags(p, dir),
        ...importFlags(p.net),
        `--v8-flags=--max-old-space-size=${memoryMb}`,
      ],
      env: childEnv({
        inheritEnv: envGrant === true ? "all" : Array.isArray(envGrant) ? envGrant : [],
        env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
      }),
      moduleUrl: module.href,
      exportName: options.export ?? "default",
      maxOutputBytes: cap,
      memoryMb,
      onLog,
    };
    let proc: ModuleProcess;
    try {
      proc = new ModuleProcess(spec);
    } catch (cause) {
      if (cause instanceof Deno.errors.NotCapable) {
        throw new PermissionDeniedError(
          `module tools run in a child Deno process: add --allow-run=${deno}`,
          { toolId, cause },
        );
      }
      throw new ExecutionError(
        `cannot start ${deno} to run the module tool (${(cause as Error)?.message}); ` +
          "module tools need a deno executable (a compiled binary finds it on PATH)",
        { toolId, cause },
      );
    }
    all.add(proc);
    slotOf.set(proc, slot);
    processOf.set(slot, proc);
    // However it ends (stopped, crashed, exited by itself), its slot is free once it is gone.
    // A busy one is retired by its call, once the call has its outcome (stopping it now would
    // lose it); an idle one at once.
    void proc.exited.then(() => {
      if (idle.includes(proc)) retire(proc);
      slotOf.get(proc)?.busy();
      slotOf.delete(proc);
      processOf.delete(slot);
      slot.release();
    });
    return proc;
  };

  // An idle process waits for the next call, without keeping the parent alive, for keepAliveMs;
  // a call of this tool waiting for a slot takes it at once; one of another tool may retire it.
  const park = (proc: ModuleProcess): void => {
    const slot = slotOf.get(proc)!;
    if (keepAliveMs <= 0) return retire(proc);
    if (slot.handOver()) return;
    proc.setIdle(true);
    idle.push(proc);
    const timer = setTimeout(() => retire(proc), keepAliveMs);
    unrefTimer(timer);
    idleTimers.set(proc, timer);
    slot.idle(() => retire(proc));
  };

  // This tool's idle process, else a slot (waiting for one) and a new process in it.
  const obtain = async (ctx: ToolContext): Promise<ModuleProcess> => {
    const signal = AbortSignal.any([ctx.signal, closing.signal]);
    for (;;) {
      let proc: ModuleProcess | undefined;
      while ((proc = idle.pop()) !== undefined) {
        unpark(proc);
        if (!proc.dead) {
          slotOf.get(proc)!.busy();
          return proc;
        }
        retire(proc);
      }
      const slot = await limit.acquire(owner, signal);
      const handed = processOf.get(slot);
      if (handed !== undefined) {
        if (!handed.dead) return handed;
        retire(handed);
        continue;
      }
      if (closed) {
        slot.release();
        throw new ExecutionError("its handler was closed", { toolId: ctx.toolId });
      }
      try {
        return start(ctx.toolId, slot);
      } catch (error) {
        slot.release();
        throw error;
      }
    }
  };

  const checkLinks = (ctx: ToolContext): Promise<void> => checkGrantLinks(grants, ctx);

  const handler = async (args: Record<string, unknown>, ctx: ToolContext): Promise<unknown> => {
    if (closed) throw new ExecutionError("its handler was closed", { toolId: ctx.toolId });
    ctx.signal.throwIfAborted();
    await checkLinks(ctx);
    const proc = await obtain(ctx);
    if (ctx.signal.aborted) {
      // Given up while it waited for a process: the process is unused and stays for the next call.
      if (closed) retire(proc);
      else park(proc);
      throw ctx.signal.reason;
    }
    proc.setIdle(false);
    let onAbort: () => void = () => {};
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(ctx.signal.reason);
      ctx.signal.addEventListener("abort", onAbort, { once: true });
    });
    aborted.catch(() => {});
    let loading = true;
    try {
      try {
        await Promise.race([proc.ready, aborted]);
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        if (closed) {
          throw new ExecutionError("its handler was closed while the call ran", {
            toolId: ctx.toolId,
          });
        }
        return translate(error as HostOutcome, ctx, { dir, cap, loading, offline });
      }
      loading = false;
      const outcome = await Promise.race([
        proc.call(ctx.toolId, args, (u) => ctx.progress(u as number)),
        aborted,
      ]);
      return translate(outcome, ctx, { dir, cap, loading, offline });
    } finally {
      ctx.signal.removeEventListener("abort", onAbort);
      if (!proc.dead && !ctx.signal.aborted && !closed) {
        park(proc);
      } else {
        retire(proc);
      }
    }
  };
  return Object.assign(handler, {
    close: async (): Promise<void> => {
      closed = true;
      closing.abort(new ExecutionError("its handler was closed"));
      for (const proc of [...all]) retire(proc);
      await Promise.all([...stopping]);
    },
  });
}
