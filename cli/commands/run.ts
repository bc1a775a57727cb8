// The `run` command.

import { parseArgs } from "node:util";
import { diagnose, EXIT, exitCodeOf, jsonText, printJson } from "../_io.ts";
import type { CliIo } from "../main.ts";
import { ManifestError, UsageError } from "../errors.ts";
import { planPermissions } from "../permissions.ts";
import { Redactor } from "../secrets.ts";
import { DefaultValidator } from "../../model/mod.ts";
import { checkToolSchemas } from "../_tool_checks.ts";
import {
  MANIFEST_OPTIONS,
  openManifest,
  parseTimeout,
  report,
  requirePermissions,
} from "./_shared.ts";
import { deadlineOf, DEFAULT_DEADLINE_MS, execute } from "./_execute.ts";
import { resultJson } from "./_result_json.ts";

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
    if (!manifest.tools.some((t) => t.id === id)) {
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
        const listed = manifest.tools.some((t) => t.id === id && t.schemaFromServer);
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
    return report(io, redactor, error);
  }
}
