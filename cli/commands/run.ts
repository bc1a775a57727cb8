// The `run` and `chain` commands.

import { parseArgs } from "node:util";
import {
  type ChainResult,
  type ChainStepResult,
  type RunResult,
  serializeError,
} from "../../run/mod.ts";
import { buildRunner } from "../build_runner.ts";
import type { Runner } from "../../run/mod.ts";
import { type CliIo, diagnose, EXIT, exitCodeOf, printJson } from "../_io.ts";
import { planPermissions } from "../permissions.ts";
import { Redactor } from "../secrets.ts";
import {
  openManifest,
  parseTimeout,
  report,
  requirePermissions,
  UsageError,
  withInterrupt,
} from "./_shared.ts";

function progressLine(io: CliIo, events: boolean) {
  let shown = false;
  return {
    update(toolId: string, p: { progress: number; total?: number; message?: string }): void {
      if (events || !io.stderrIsTerminal) return;
      const of = p.total === undefined ? `${p.progress}` : `${p.progress}/${p.total}`;
      io.stderr(`\r\x1b[2K${toolId}: ${of}${p.message ? ` ${p.message}` : ""}`);
      shown = true;
    },
    clear(): void {
      if (shown) io.stderr("\r\x1b[2K");
      shown = false;
    },
  };
}

async function readArguments(
  io: CliIo,
  values: { args?: string; "args-file"?: string },
): Promise<Record<string, unknown>> {
  if (values.args !== undefined && values["args-file"] !== undefined) {
    throw new UsageError("give --args or --args-file, not both");
  }
  let text: string;
  let from: string;
  if (values.args !== undefined) [text, from] = [values.args, "--args"];
  else if (values["args-file"] !== undefined) {
    from = values["args-file"];
    try {
      text = await Deno.readTextFile(from);
    } catch (cause) {
      throw new UsageError(`cannot read --args-file ${from}: ${(cause as Error).message}`);
    }
  } else if (!io.stdinIsTerminal) [text, from] = [await io.readStdin(), "stdin"];
  else [text, from] = ["", "none"];
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new UsageError(`the arguments (${from}) are not valid JSON: ${(cause as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError(`the arguments (${from}) must be a JSON object`);
  }
  return value as Record<string, unknown>;
}

function stepJson(s: ChainStepResult): unknown {
  return s.error === undefined
    ? { index: s.index, toolId: s.toolId, structured: s.result?.structured ?? null }
    : { index: s.index, toolId: s.toolId, error: serializeError(s.error) };
}

function resultJson(result: RunResult): unknown {
  return result.structured === undefined ? null : result.structured;
}

type Line = ReturnType<typeof progressLine>;

/**
 * Builds the runner for `ids`, runs `work` with Ctrl-C wired to its signal,
 * reports any error, and always clears the progress line and closes the runner.
 */
async function execute(
  io: CliIo,
  redactor: Redactor,
  events: boolean,
  manifest: Awaited<ReturnType<typeof openManifest>>,
  ids: string[],
  work: (runner: Runner, signal: AbortSignal, line: Line) => Promise<number>,
): Promise<number> {
  const runner = await buildRunner(manifest, { tools: ids, redactor });
  const line = progressLine(io, events);
  try {
    return await withInterrupt((signal) => work(runner, signal, line));
  } catch (error) {
    line.clear();
    return report(io, redactor, error);
  } finally {
    line.clear();
    await runner.close();
  }
}

/** `run <manifest> <toolId>` */
export async function runCommand(argv: string[], io: CliIo): Promise<number> {
  const redactor = new Redactor();
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        args: { type: "string" },
        "args-file": { type: "string" },
        timeout: { type: "string" },
        events: { type: "boolean" },
      },
    });
    const [path, id, ...extra] = positionals;
    if (id === undefined) throw new UsageError("usage: run <manifest> <toolId>; see run --help");
    if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`);
    const timeoutMs = parseTimeout(values.timeout);
    const manifest = await openManifest(path);
    if (!manifest.tools.some((t) => t.id === id)) {
      throw new UsageError(
        `unknown tool ${JSON.stringify(id)}; tools: ${
          manifest.tools.map((t) => t.id).join(", ") || "none"
        }`,
      );
    }
    const extraReads = values["args-file"] === undefined ? [] : [values["args-file"]];
    requirePermissions(planPermissions(manifest, { tools: [id], extraReads }));
    const args = await readArguments(io, values);
    return await execute(
      io,
      redactor,
      values.events === true,
      manifest,
      [id],
      async (runner, signal, line) => {
        if (values.events) {
          let exit: number = EXIT.ok;
          for await (const event of runner.runStream(id, args, { signal, timeoutMs })) {
            const data = event.kind === "done"
              ? { structured: resultJson(event.data) }
              : event.data;
            io.stderr(
              redactor.redact(JSON.stringify({ kind: event.kind, toolId: event.toolId, data })) +
                "\n",
            );
            if (event.kind === "done") printJson(io, redactor, resultJson(event.data));
            // With --events, stderr stays pure JSON Lines: the error event says it all.
            if (event.kind === "error") exit = exitCodeOf(event.error);
          }
          return exit;
        }
        const result = await runner.run(id, args, {
          signal,
          timeoutMs,
          onProgress: (p) => line.update(id, p),
        });
        line.clear();
        for (const w of result.warnings ?? []) diagnose(io, redactor, "warning", w.message);
        printJson(io, redactor, resultJson(result));
        return EXIT.ok;
      },
    );
  } catch (error) {
    return report(io, redactor, error);
  }
}

/** `chain <manifest> <chain>` */
export async function chainCommand(argv: string[], io: CliIo): Promise<number> {
  const redactor = new Redactor();
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { timeout: { type: "string" }, events: { type: "boolean" } },
    });
    const [path, name, ...extra] = positionals;
    if (name === undefined) {
      throw new UsageError("usage: chain <manifest> <chain>; see chain --help");
    }
    if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`);
    const timeoutMs = parseTimeout(values.timeout);
    const manifest = await openManifest(path);
    const chain = manifest.chains[name];
    if (chain === undefined) {
      throw new UsageError(
        `unknown chain ${JSON.stringify(name)}; chains: ${
          Object.keys(manifest.chains).sort().join(", ") || "none"
        }`,
      );
    }
    const ids = [...new Set(chain.steps.map((s) => s.tool))];
    requirePermissions(planPermissions(manifest, { tools: ids }));
    const steps = chain.steps.map((s) => ({
      toolId: s.tool,
      args: s.args ?? {},
      usePrevious: s.usePrevious ?? false,
      timeoutMs: s.timeoutMs,
    }));
    return await execute(
      io,
      redactor,
      values.events === true,
      manifest,
      ids,
      async (runner, signal) => {
        let result: ChainResult;
        if (!values.events) {
          result = await runner.runChain(steps, { signal, timeoutMs });
        } else {
          let final: ChainResult | undefined;
          for await (const event of runner.runChainStream(steps, { signal, timeoutMs })) {
            let data: unknown = event.data;
            if (event.kind === "step_finished") data = stepJson(event.data);
            if (event.kind === "done") data = { ok: true, result: event.data.structured ?? null };
            const line = { kind: event.kind, index: event.index, toolId: event.toolId, data };
            io.stderr(redactor.redact(JSON.stringify(line)) + "\n");
            if (event.kind === "done") final = event.data;
            if (event.kind === "error") final = event.chain;
          }
          result = final!;
        }
        printJson(io, redactor, {
          chain: name,
          ok: result.ok,
          steps: result.steps.map(stepJson),
          result: result.structured ?? null,
        });
        if (result.ok) return EXIT.ok;
        return values.events
          ? exitCodeOf(result.failed!.error)
          : report(io, redactor, result.failed!.error);
      },
    );
  } catch (error) {
    return report(io, redactor, error);
  }
}
