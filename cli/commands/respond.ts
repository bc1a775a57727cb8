// The `respond` command: the tool step of an agent loop for any language. Reads a
// model's response (JSON, or with --stream its server-sent events) on stdin, runs its
// tool calls with the manifest's tools, and prints the result messages in the
// provider's format on stdout.

import { Warnings } from "../_warnings.ts";
import { parseArgs } from "../_args.ts";
import { ToolNameMap } from "../../adapter/mod.ts";
import { DefaultValidator } from "../../model/default_validator.ts";
import { Runner } from "../../run/mod.ts";
import {
  answerToolCalls,
  LOOP_FORMATS,
  type LoopFormat,
  prepareTools,
  runToolCalls,
  type ToolCall,
  ToolStepCancelledError,
} from "../../loop/mod.ts";
import { readCalls } from "./_respond_input.ts";
import { type CliIo, diagnose, EXIT, printJson } from "../_io.ts";
import { ManifestError, UsageError } from "../../workspace/errors.ts";
import { Redactor } from "../../workspace/secrets.ts";
import { scrubConsole } from "../_console_scrub.ts";
import type { Workspace } from "../../workspace/workspace.ts";
import { checkToolSchemas } from "../../workspace/tool_checks.ts";
import {
  MANIFEST_OPTIONS,
  MODULE_PROCESS_OPTIONS,
  openWorkspace,
  parseMaxModuleProcesses,
  parseTimeout,
  report,
  withInterrupt,
} from "./_shared.ts";
import { serverTools } from "./_server_tools.ts";
import { noteSkipped } from "./_permission_lines.ts";

function parseConcurrency(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = /^[0-9]{1,4}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > 1000) {
    throw new UsageError(
      `--concurrency must be a whole number from 1 to 1000, got ${JSON.stringify(value)}`,
    );
  }
  return n;
}

/** `respond <manifest> --format <format>` */
export async function respondCommand(argv: string[], io: CliIo): Promise<number> {
  const redactor = new Redactor();
  using _console = scrubConsole(redactor);
  let workspace: Workspace | undefined;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        format: { type: "string" },
        stream: { type: "boolean" },
        strict: { type: "boolean" },
        timeout: { type: "string" },
        concurrency: { type: "string" },
        "media-as-text": { type: "boolean" },
        ...MANIFEST_OPTIONS,
        ...MODULE_PROCESS_OPTIONS,
      },
    });
    const [path, ...extra] = positionals;
    if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`);
    const format = values.format as LoopFormat | undefined;
    if (format === undefined || !LOOP_FORMATS.includes(format)) {
      throw new UsageError(
        `--format must be one of ${LOOP_FORMATS.join(", ")}${
          format === undefined ? "" : `, got ${JSON.stringify(format)}`
        }`,
      );
    }
    const cliTimeout = parseTimeout(values.timeout);
    const concurrency = parseConcurrency(values.concurrency);
    const maxModuleProcesses = parseMaxModuleProcesses(values["max-module-processes"]);
    const opened = workspace = await openWorkspace(path, values, redactor);
    const manifest = opened.manifest;
    // The tools offered are the workspace's exposed set, as list, convert and
    // serve see it: servers are contacted for theirs (filters, overrides, lock).
    // Their connections stay open for the calls: no server starts twice.
    const { tools: exposed } = await serverTools(
      io,
      workspace,
      { timeout: values.timeout },
      undefined,
      { keepConnections: true },
    );
    const offered = exposed.map((t) => t.id);
    const names = new ToolNameMap(offered, format);
    // The normalizers of the conversion the request used (`convert --strict` ↔ `--strict`).
    const withSchemas = exposed.filter((t) => !t.schemaFromServer).map((t) => t.tool);
    const normalizers = values.strict
      ? prepareTools(withSchemas, format, { strict: true }).normalizers
      : {};
    const calls = await readCalls(io, format, values.stream === true, { names, normalizers });
    const ids = [
      ...new Set(
        calls.flatMap((c) =>
          c.toolId !== undefined && offered.includes(c.toolId) ? [c.toolId] : []
        ),
      ),
    ];
    // Exactly what `run` needs for these tools; nothing runs when something is missing.
    noteSkipped(io, workspace.requirePermissions({ tools: ids }));
    const schemaIssues = ids.length === 0
      ? []
      : await checkToolSchemas(manifest, new DefaultValidator(), { tools: ids });
    if (schemaIssues.length > 0) throw new ManifestError(schemaIssues);
    return await answer(io, workspace, format, calls, {
      ids,
      offered,
      names,
      concurrency,
      maxModuleProcesses,
      media: values["media-as-text"] ? "text" : "native",
      timeout: (call) => opened.deadlineOf(call.toolId ?? "", cliTimeout),
    });
  } catch (error) {
    return report(io, redactor, error);
  } finally {
    // Connections no runner took over (no call, or an error before the calls).
    await workspace?.close();
  }
}

interface AnswerSetup {
  ids: string[];
  offered: string[];
  names: ToolNameMap;
  concurrency: number | undefined;
  maxModuleProcesses: number | undefined;
  media: "text" | "native";
  timeout: (call: ToolCall) => number | undefined;
}

async function answer(
  io: CliIo,
  workspace: Workspace,
  format: LoopFormat,
  calls: ToolCall[],
  setup: AnswerSetup,
): Promise<number> {
  const redactor = workspace.redactor;
  const runner = setup.ids.length === 0
    ? new Runner()
    : await withInterrupt((signal) =>
      workspace.runner({
        tools: setup.ids,
        signal,
        killGraceMs: 100,
        runner: {
          closeTimeoutMs: 150,
          ...(setup.maxModuleProcesses === undefined
            ? {}
            : { maxModuleProcesses: setup.maxModuleProcesses }),
        },
      })
    );
  let failed = true;
  try {
    const outcomes = await withInterrupt((signal) =>
      runToolCalls(runner, calls, {
        signal,
        names: setup.names,
        offered: setup.offered,
        timeoutMs: setup.timeout,
        redact: (text) => redactor.redact(text),
        ...(setup.concurrency === undefined ? {} : { concurrency: setup.concurrency }),
      })
    );
    const { messages, warnings } = answerToolCalls(format, outcomes, { media: setup.media });
    // Summarised by kind like every command's warnings (--verbose lists each).
    const summary = new Warnings(io, redactor);
    for (const w of warnings) {
      summary.add({
        kind: `${w.type} sent as text`,
        subject: `call ${w.callIndex}`,
        message: `call ${w.callIndex} (${w.callId ?? "no id"}): block ${w.block}: ${w.message}`,
        detail: { code: w.code, callIndex: w.callIndex, block: w.block, type: w.type },
      });
    }
    summary.flush();
    for (const o of outcomes) {
      if (o.failure === undefined) continue;
      diagnose(
        io,
        redactor,
        "note",
        `call ${o.call.index} (${o.call.name}): ${o.failure.code}: ${o.failure.message}${
          operatorDetail(o.failure)
        }`,
      );
    }
    printJson(io, redactor, messages);
    failed = outcomes.some((o) => o.status !== "ok");
    return failed ? EXIT.failure : EXIT.ok;
  } catch (error) {
    if (error instanceof ToolStepCancelledError) {
      diagnose(io, redactor, "error", error.message);
      return EXIT.interrupted;
    }
    throw error;
  } finally {
    if (failed) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        runner.close().catch(() => {}),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, 150))),
      ]);
      clearTimeout(timer);
    } else await runner.close();
  }
}

/**
 * For the operator's note: what the model was not told (a sandbox refusal's
 * path and the grant to change).
 */
function operatorDetail(failure: { code: string; message: string; cause?: unknown }): string {
  if (failure.code !== "not_permitted") return "";
  const cause = (failure.cause as { message?: unknown } | undefined)?.message;
  return typeof cause === "string" && cause !== "" ? ` (${cause})` : "";
}
