// The `run` and `chain` commands.

import { parseArgs } from "node:util";
import { serializeError } from "../../run/stream.ts";
import { buildRunner } from "../build_runner.ts";
import type { ChainResult, ChainStepResult, Runner, RunResult } from "../../run/mod.ts";
import { diagnose, EXIT, exitCodeOf, jsonText, printJson } from "../_io.ts";
import type { CliIo } from "../main.ts";
import { ManifestError, UsageError } from "../errors.ts";
import type { Manifest } from "../manifest.ts";
import { planPermissions } from "../permissions.ts";
import { Redactor } from "../secrets.ts";
import { DefaultValidator } from "../../model/mod.ts";
import { checkChainInput, checkChains } from "../_chain_check.ts";
import { checkToolSchemas } from "../_tool_checks.ts";
import { serverOfId, serverToolTimeout } from "../server_ids.ts";
import { ToolChangedError } from "../errors.ts";
import { reportChanged } from "./_server_tools.ts";
import {
  MANIFEST_OPTIONS,
  openManifest,
  parseTimeout,
  report,
  requirePermissions,
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
    ? { index: s.index, toolId: s.toolId, structured: s.result ? resultJson(s.result) : null }
    : { index: s.index, toolId: s.toolId, error: serializeError(s.error) };
}

/** The chain's JSON: every step that ran, and, when it failed, which step and what never ran. */
function chainJson(name: string, result: ChainResult): unknown {
  const failed = result.failed;
  return {
    chain: name,
    ok: result.ok,
    steps: result.steps.map(stepJson),
    result: chainResultJson(result),
    ...(failed === undefined ? {} : {
      failed: { index: failed.index, toolId: failed.toolId, error: serializeError(failed.error) },
    }),
    notRun: result.notRun ?? [],
  };
}

/** Content block types that are text (the rest: image, audio, resource_link, resource, ...). */
const TEXT_BLOCK = "text";

/**
 * What the CLI prints for a result: its `structured` value (`null` when
 * none). An MCP result with `structuredContent` and also non-text content
 * blocks (image, audio, resource link, embedded resource) is printed as
 * `{"structured": <structuredContent>, "content": [<every block, as sent>]}`
 * so that nothing is dropped.
 */
function resultJson(result: RunResult): unknown {
  const structured = result.structured === undefined ? null : result.structured;
  const mcp = result.mcpResult;
  const content = Array.isArray(mcp?.content) ? mcp.content : [];
  const mixed = mcp?.structuredContent !== undefined && mcp.structuredContent !== null &&
    content.some((b) => (b as { type?: unknown })?.type !== TEXT_BLOCK);
  return mixed ? { structured, content } : structured;
}

/** The result of the last step that succeeded, printed like `run` prints it. */
function chainResultJson(result: ChainResult): unknown {
  const last = result.steps.findLast((s) => s.error === undefined && s.result !== undefined);
  return last?.result === undefined ? (result.structured ?? null) : resultJson(last.result);
}

/**
 * The deadline of a tool's run: `--timeout` when given (it overrides the
 * manifest), else the step's own `timeoutMs`, else the tool's `timeoutMs`,
 * else the runner's default (60 s).
 */
export function deadlineOf(
  manifest: Manifest,
  toolId: string,
  cli: number | undefined,
  step?: number,
): number | undefined {
  return cli ?? step ?? manifest.tools.find((t) => t.id === toolId)?.entry.timeoutMs ??
    serverToolTimeout(manifest, toolId);
}

type Line = ReturnType<typeof progressLine>;

/**
 * Where a module tool's own output goes: with `--events`, each line becomes a
 * `{"kind":"log","toolId":...,"data":{"text":...}}` line on stderr (JSON
 * Lines, secrets scrubbed); otherwise it is written to stderr as is (scrubbed).
 * Never stdout.
 */
function moduleLog(io: CliIo, redactor: Redactor, events: boolean) {
  const partial = new Map<string, string>();
  const emit = (toolId: string, text: string) =>
    io.stderr(`${jsonText({ kind: "log", toolId, data: { text } }, redactor)}\n`);
  return {
    write(toolId: string, text: string): void {
      if (!events) return io.stderr(redactor.redact(text));
      const lines = ((partial.get(toolId) ?? "") + text).split("\n");
      partial.set(toolId, lines.pop()!);
      for (const line of lines) emit(toolId, line);
    },
    /** Writes what is left of unfinished lines. */
    flush(): void {
      for (const [toolId, text] of partial) if (text !== "") emit(toolId, text);
      partial.clear();
    },
  };
}

/** The runner's default deadline (60 s), used when neither the CLI nor the manifest sets one. */
const DEFAULT_DEADLINE_MS = 60_000;

/** How long the CLI waits, after a failed run, for abandoned work and connections to close. */
const CLOSE_AFTER_FAILURE_MS = 150;
/** How long a stopped command provider gets between SIGTERM and SIGKILL under the CLI. */
const CLI_KILL_GRACE_MS = 100;

/** Closes the runner; after a failure, waits no longer than CLOSE_AFTER_FAILURE_MS. */
async function closeRunner(runner: Runner, failed: boolean): Promise<void> {
  if (!failed) return await runner.close();
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    runner.close().catch(() => {}),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_AFTER_FAILURE_MS))),
  ]);
  clearTimeout(timer);
}

function warnShortSecrets(io: CliIo, redactor: Redactor, events: boolean): void {
  for (const s of redactor.tooShort) {
    const message = `the value of ${
      s.variable === undefined ? "a secret" : `\${env:${s.variable}}`
    } has ${s.length} characters; values shorter than 6 are not scrubbed from output`;
    if (events) io.stderr(`${JSON.stringify({ kind: "warning", data: { message } })}\n`);
    else diagnose(io, redactor, "warning", message);
  }
}

/**
 * Builds the runner for `ids`, runs `work` with Ctrl-C wired to its signal,
 * reports any error, and always clears the progress line and closes the runner.
 * A run that failed (a timeout, Ctrl-C) does not wait for abandoned work: the
 * CLI exits right after the error is printed.
 */
async function execute(
  io: CliIo,
  redactor: Redactor,
  events: boolean,
  manifest: Manifest,
  ids: string[],
  deadlineMs: number,
  work: (runner: Runner, signal: AbortSignal, line: Line) => Promise<number>,
): Promise<number> {
  // Listing a server's tools (for tools whose schemas come from it) is part of
  // the run: it shares the run's deadline.
  const logs = moduleLog(io, redactor, events);
  const runner = await withInterrupt((signal) =>
    buildRunner(manifest, {
      tools: ids,
      redactor,
      signal,
      killGraceMs: CLI_KILL_GRACE_MS,
      importTimeoutMs: deadlineMs,
      runner: {
        closeTimeoutMs: CLOSE_AFTER_FAILURE_MS,
        onRetry: (event) =>
          events
            ? io.stderr(
              `${jsonText({ kind: "retry", toolId: event.toolId, data: event }, redactor)}\n`,
            )
            : diagnose(
              io,
              redactor,
              "retry",
              `${event.toolId}: ${event.reason}; attempt ${event.attempt} in ${event.delayMs} ms`,
            ),
      },
      onModuleLog: (toolId, text) => logs.write(toolId, text),
    })
  );
  warnShortSecrets(io, redactor, events);
  const line = progressLine(io, events);
  let code: number = EXIT.failure;
  try {
    code = await withInterrupt((signal) => work(runner, signal, line));
    return code;
  } catch (error) {
    line.clear();
    code = report(io, redactor, error);
    return code;
  } finally {
    line.clear();
    await closeRunner(runner, code !== EXIT.ok);
    logs.flush();
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
        ...MANIFEST_OPTIONS,
      },
    });
    const [path, id, ...extra] = positionals;
    if (id === undefined) throw new UsageError("usage: run <manifest> <toolId>; see run --help");
    if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`);
    const cliTimeout = parseTimeout(values.timeout);
    const manifest = await openManifest(path, values);
    if (!manifest.tools.some((t) => t.id === id) && serverOfId(manifest, id) === undefined) {
      throw new UsageError(
        `unknown tool ${JSON.stringify(id)}; tools: ${
          manifest.tools.map((t) => t.id).join(", ") || "none"
        }`,
      );
    }
    const deadlineMs = deadlineOf(manifest, id, cliTimeout) ?? DEFAULT_DEADLINE_MS;
    const extraReads = values["args-file"] === undefined ? [] : [values["args-file"]];
    requirePermissions(planPermissions(manifest, { tools: [id], extraReads }));
    // A schema no validator can evaluate is the manifest's error; nothing runs.
    const schemaIssues = await checkToolSchemas(manifest, new DefaultValidator(), { tools: [id] });
    if (schemaIssues.length > 0) throw new ManifestError(schemaIssues);
    const args = await readArguments(io, values);
    const started = performance.now();
    return await execute(
      io,
      redactor,
      values.events === true,
      manifest,
      [id],
      deadlineMs,
      async (runner, signal, line) => {
        // What is left of the deadline after connecting and listing (when the
        // tool's schemas came from its server).
        const listed = manifest.tools.some((t) => t.id === id && t.schemaFromServer) ||
          serverOfId(manifest, id) !== undefined;
        const timeoutMs = listed
          ? Math.max(1, Math.round(deadlineMs - (performance.now() - started)))
          : deadlineMs;
        if (values.events) {
          let exit: number = EXIT.ok;
          for await (const event of runner.runStream(id, args, { signal, timeoutMs })) {
            const data = event.kind === "done"
              ? { structured: resultJson(event.data) }
              : event.data;
            const text = jsonText({ kind: event.kind, toolId: event.toolId, data }, redactor, {
              toolId: id,
            });
            io.stderr(`${text}\n`);
            if (event.kind === "done") {
              printJson(io, redactor, resultJson(event.data), { toolId: id });
            }
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
        printJson(io, redactor, resultJson(result), { toolId: id });
        return EXIT.ok;
      },
    );
  } catch (error) {
    if (error instanceof ToolChangedError) return reportChanged(io, error);
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
      options: {
        timeout: { type: "string" },
        events: { type: "boolean" },
        args: { type: "string" },
        "args-file": { type: "string" },
        ...MANIFEST_OPTIONS,
      },
    });
    const [path, name, ...extra] = positionals;
    if (name === undefined) {
      throw new UsageError("usage: chain <manifest> <chain>; see chain --help");
    }
    if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`);
    const cliTimeout = parseTimeout(values.timeout);
    const manifest = await openManifest(path, values);
    if (!Object.hasOwn(manifest.chains, name)) {
      const names = Object.keys(manifest.chains).sort();
      throw new UsageError(
        `no chain named ${JSON.stringify(name)} in ${path}; chains: ${
          names.length > 0 ? names.join(", ") : "none defined"
        }`,
      );
    }
    const chain = manifest.chains[name];
    const ids = [...new Set(chain.steps.map((s) => s.tool))];
    const chainReads = values["args-file"] === undefined ? [] : [values["args-file"]];
    requirePermissions(planPermissions(manifest, { tools: ids, extraReads: chainReads }));
    // Nothing runs when a step is certain to fail.
    const validator = new DefaultValidator();
    const issues = [
      ...await checkToolSchemas(manifest, validator, { tools: ids }),
      ...await checkChains(manifest, validator, name),
    ];
    if (issues.length > 0) throw new ManifestError(issues);
    const input = values.args === undefined && values["args-file"] === undefined
      ? undefined
      : await readArguments(io, values);
    await checkChainInput(name, chain, input, validator);
    const steps = chain.steps.map((s) => ({
      toolId: s.tool,
      ...(s.id === undefined ? {} : { id: s.id }),
      args: s.args ?? {},
      usePrevious: s.usePrevious ?? false,
      timeoutMs: deadlineOf(manifest, s.tool, cliTimeout, s.timeoutMs),
    }));
    return await execute(
      io,
      redactor,
      values.events === true,
      manifest,
      ids,
      Math.max(...steps.map((s) => s.timeoutMs ?? DEFAULT_DEADLINE_MS)),
      async (runner, signal) => {
        let result: ChainResult;
        if (!values.events) {
          result = await runner.runChain(steps, { signal, input });
        } else {
          let final: ChainResult | undefined;
          for await (const event of runner.runChainStream(steps, { signal, input })) {
            let data: unknown = event.data;
            if (event.kind === "step_finished") data = stepJson(event.data);
            if (event.kind === "done") data = { ok: true, result: event.data.structured ?? null };
            if (event.kind === "error") data = { ...event.data, notRun: event.chain.notRun };
            const line = { kind: event.kind, index: event.index, toolId: event.toolId, data };
            io.stderr(`${jsonText(line, redactor, { toolId: event.toolId })}\n`);
            if (event.kind === "done") final = event.data;
            if (event.kind === "error") final = event.chain;
          }
          result = final!;
        }
        printJson(io, redactor, chainJson(name, result));
        if (result.ok) return EXIT.ok;
        return values.events
          ? exitCodeOf(result.failed!.error)
          : report(io, redactor, result.failed!.error);
      },
    );
  } catch (error) {
    if (error instanceof ToolChangedError) return reportChanged(io, error);
    return report(io, redactor, error);
  }
}
