// The `chain` command.

import { parseArgs } from "../_args.ts";
import type { ChainResult } from "../../run/mod.ts";
import { type CliIo, EXIT, exitCodeOf, jsonText, printJson } from "../_io.ts";
import { ManifestError, UsageError } from "../../workspace/errors.ts";
import { Redactor } from "../../workspace/secrets.ts";
import { scrubConsole } from "../_console_scrub.ts";
import { DefaultValidator } from "../../model/default_validator.ts";
import { checkChainInput, checkChains } from "../../workspace/chain_check.ts";
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
import { chainJson, stepJson } from "./_result_json.ts";
import { noteSkipped } from "./_permission_lines.ts";

/** `chain <manifest> <chain>` */
export async function chainCommand(argv: string[], io: CliIo): Promise<number> {
  const redactor = new Redactor();
  using _console = scrubConsole(redactor);
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
        ...MODULE_PROCESS_OPTIONS,
      },
    });
    const [path, name, ...extra] = positionals;
    if (name === undefined) {
      throw new UsageError("usage: chain <manifest> <chain>; see chain --help");
    }
    if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`);
    const cliTimeout = parseTimeout(values.timeout);
    const maxModuleProcesses = parseMaxModuleProcesses(values["max-module-processes"]);
    const workspace = await openWorkspace(path, values, redactor);
    const manifest = workspace.manifest;
    const chain = workspace.chain(name);
    const ids = [...new Set(chain.steps.map((s) => s.tool))];
    const chainReads = values["args-file"] === undefined ? [] : [values["args-file"]];
    noteSkipped(io, workspace.requirePermissions({ tools: ids, extraReads: chainReads }));
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
      timeoutMs: workspace.deadlineOf(s.tool, cliTimeout, s.timeoutMs),
    }));
    return await execute(
      io,
      values.events === true,
      workspace,
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
      validator,
      maxModuleProcesses,
    );
  } catch (error) {
    return report(io, redactor, error);
  }
}
