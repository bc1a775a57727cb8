// The `run` command.

import { parseArgs } from "../_args.ts";
import { type CliIo, diagnose, EXIT, exitCodeOf, jsonText, printJson } from "../_io.ts";
import { ManifestError, UsageError } from "../../workspace/errors.ts";
import { Redactor } from "../../workspace/secrets.ts";
import { scrubConsole } from "../_console_scrub.ts";
import { DefaultValidator } from "../../model/default_validator.ts";
import { checkToolSchemas } from "../../workspace/tool_checks.ts";
import {
  MANIFEST_OPTIONS,
  MODULE_PROCESS_OPTIONS,
  openWorkspace,
  parseMaxModuleProcesses,
  parseTimeout,
  report,
} from "./_shared.ts";
import { DEFAULT_DEADLINE_MS, execute, readArguments } from "./_execute.ts";
import { serverOfId } from "../../workspace/server_ids.ts";
import { resultJson } from "./_result_json.ts";
import { noteSkipped } from "./_permission_lines.ts";

/** `run <manifest> <toolId>` */
export async function runCommand(argv: string[], io: CliIo): Promise<number> {
  const redactor = new Redactor();
  using _console = scrubConsole(redactor);
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
        ...MODULE_PROCESS_OPTIONS,
      },
    });
    const [path, id, ...extra] = positionals;
    if (id === undefined) throw new UsageError("usage: run <manifest> <toolId>; see run --help");
    if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`);
    const cliTimeout = parseTimeout(values.timeout);
    const maxModuleProcesses = parseMaxModuleProcesses(values["max-module-processes"]);
    const workspace = await openWorkspace(path, values, redactor);
    const manifest = workspace.manifest;
    workspace.checkTool(id);
    const deadlineMs = workspace.deadlineOf(id, cliTimeout) ?? DEFAULT_DEADLINE_MS;
    const extraReads = values["args-file"] === undefined ? [] : [values["args-file"]];
    noteSkipped(io, workspace.requirePermissions({ tools: [id], extraReads }));
    // A schema no validator can evaluate is the manifest's error; nothing runs.
    const validator = new DefaultValidator();
    const schemaIssues = await checkToolSchemas(manifest, validator, { tools: [id] });
    if (schemaIssues.length > 0) throw new ManifestError(schemaIssues);
    const args = await readArguments(io, values);
    const started = performance.now();
    return await execute(
      io,
      values.events === true,
      workspace,
      [id],
      deadlineMs,
      async (runner, signal, line) => {
        // The deadline covers connecting and listing too (when the tool's
        // schemas came from its server): the run gets what is left, and a
        // timeout names the deadline the user set.
        const listed = manifest.tools.some((t) => t.id === id && t.schemaFromServer) ||
          serverOfId(manifest, id) !== undefined;
        const timeoutMs = deadlineMs;
        const spentMs = listed ? Math.round(performance.now() - started) : 0;
        if (values.events) {
          let exit: number = EXIT.ok;
          for await (const event of runner.runStream(id, args, { signal, timeoutMs, spentMs })) {
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
          spentMs,
          onProgress: (p) => line.update(id, p),
        });
        line.clear();
        for (const w of result.warnings ?? []) diagnose(io, redactor, "warning", w.message);
        printJson(io, redactor, resultJson(result), { toolId: id });
        return EXIT.ok;
      },
      validator,
      maxModuleProcesses,
    );
  } catch (error) {
    return report(io, redactor, error);
  }
}
