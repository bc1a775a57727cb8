// Private: how the `run` and `chain` commands execute: the runner built for
// the tools involved, Ctrl-C wired to the run's signal, the live progress
// line, module tools' log output, the deadlines, and closing the runner.

import type { Runner } from "../../run/mod.ts";
import { AnsiStripper } from "../../run/process/ansi.ts";
import type { SchemaValidator } from "../../model/schema_validator.ts";
import { type CliIo, diagnose, EXIT, jsonText } from "../_io.ts";
import type { Redactor } from "../../workspace/secrets.ts";
import { report, withInterrupt } from "./_shared.ts";
import { UsageError } from "../../workspace/errors.ts";
import type { Workspace } from "../../workspace/workspace.ts";
import { serverProgress } from "../_progress.ts";

function progressLine(io: CliIo, events: boolean) {
  let shown = false;
  return {
    update(toolId: string, p: { progress: number; total?: number; message?: string }): void {
      if (events || !io.stderrIsTerminal || io.verbosity === "quiet") return;
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

/** The live progress line on stderr. */
type Line = ReturnType<typeof progressLine>;

/**
 * Where a module tool's own output goes: with `--events`, each line becomes a
 * `{"kind":"log","toolId":...,"data":{"text":...}}` line on stderr (JSON
 * Lines, secrets scrubbed); otherwise it is written to stderr as is (scrubbed;
 * terminal escapes stripped when stderr is not a terminal).
 * Never stdout.
 */
function moduleLog(io: CliIo, redactor: Redactor, events: boolean) {
  const partial = new Map<string, string>();
  // Off a terminal (a file, a pipe, JSON Lines), a tool's colours are noise.
  const strippers = new Map<string, AnsiStripper>();
  const plain = (toolId: string, text: string): string => {
    if (io.stderrIsTerminal && !events) return text;
    let strip = strippers.get(toolId);
    if (strip === undefined) strippers.set(toolId, strip = new AnsiStripper());
    return strip.push(text);
  };
  const emit = (toolId: string, text: string) =>
    io.stderr(`${jsonText({ kind: "log", toolId, data: { text } }, redactor)}\n`);
  return {
    write(toolId: string, raw: string): void {
      const text = plain(toolId, raw);
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
export const DEFAULT_DEADLINE_MS = 60_000;

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
export async function execute(
  io: CliIo,
  events: boolean,
  workspace: Workspace,
  ids: string[],
  deadlineMs: number,
  work: (runner: Runner, signal: AbortSignal, line: Line) => Promise<number>,
  validator?: SchemaValidator,
  maxModuleProcesses?: number,
): Promise<number> {
  // Listing a server's tools (for tools whose schemas come from it) is part of
  // the run: it shares the run's deadline.
  const redactor = workspace.redactor;
  const logs = moduleLog(io, redactor, events);
  // Progress while servers connect and list (not with --events: stderr is JSON Lines then).
  const connecting = events || Object.keys(workspace.manifest.servers).length === 0
    ? undefined
    : serverProgress(io);
  const runner = await withInterrupt((signal) =>
    workspace.runner({
      ...(connecting?.onProgress === undefined ? {} : { onProgress: connecting.onProgress }),
      tools: ids,
      signal,
      killGraceMs: CLI_KILL_GRACE_MS,
      importTimeoutMs: deadlineMs,
      runner: {
        // The validator the command checked the tools' schemas with: its
        // compiled schemas are reused, not compiled again.
        ...(validator === undefined ? {} : { validator }),
        ...(maxModuleProcesses === undefined ? {} : { maxModuleProcesses }),
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
  ).finally(() => connecting?.[Symbol.dispose]());
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

export async function readArguments(
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
