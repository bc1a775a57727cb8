// The `list`, `validate`, `convert` and `permissions` commands: they read the
// manifest and never run a tool; `list`, `validate` and `convert` connect to
// the manifest's servers for their tools (not with --offline).

import { parseArgs } from "../_args.ts";
import type { FeatureLossWarning } from "../../adapter/mod.ts";
import { InvalidSchemaError, ToolFoundationError } from "../../model/errors.ts";
import { type CliIo, diagnose, EXIT, printJson } from "../_io.ts";
import { ManifestError, UsageError } from "../../workspace/errors.ts";
import type { ResolvedTool } from "../../workspace/manifest.ts";
import { commandLines, formatFlags, missingPermissions } from "../../workspace/permissions.ts";
import { permissionLines } from "./_permission_lines.ts";
import { Redactor } from "../../workspace/secrets.ts";
import { MANIFEST_OPTIONS, openWorkspace, report, withInterrupt } from "./_shared.ts";
import { scrubConsole } from "../_console_scrub.ts";
import { serverOfId } from "../../workspace/server_ids.ts";
import { SERVER_OPTIONS, serverTools } from "./_server_tools.ts";
import { Warnings } from "../_warnings.ts";
import { stateChoice } from "./_serve_state.ts";
// Start-up: validate and convert load their checks and the adapters on first
// use (checksKit); the format names come from the help text (checked equal).
import { adapterKit, checksKit } from "./_checks_kit.ts";
import type { DefaultValidator } from "../../model/default_validator.ts";
import { FORMATS as TARGETS } from "../_help.ts";

function backendLabel(t: ResolvedTool): string {
  const e = t.entry;
  if (e.builtin !== undefined) return `builtin:${e.builtin}`;
  if (e.module !== undefined) return `module:${e.module}`;
  if (e.provider !== undefined) return `provider:${e.provider}`;
  return `mcp:${e.server}`;
}

function oneManifest(argv: string[], options: Record<string, { type: "string" | "boolean" }>) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { ...options, ...MANIFEST_OPTIONS, ...SERVER_OPTIONS },
  });
  return { values: values as Record<string, string | boolean | undefined>, positionals };
}

/** `list <manifest>` */
export async function listCommand(argv: string[], io: CliIo): Promise<number> {
  const redactor = new Redactor();
  try {
    const { values, positionals } = oneManifest(argv, {});
    if (positionals.length > 1) {
      throw new UsageError(`unexpected argument ${JSON.stringify(positionals[1])}`);
    }
    const workspace = await openWorkspace(positionals[0], values, redactor);
    const manifest = workspace.manifest;
    using _console = scrubConsole(redactor);
    const { tools, servers } = await serverTools(io, workspace, values);
    printJson(io, redactor, {
      tools: tools.map((t) => ({
        id: t.id,
        backend: backendLabel(t),
        ...(t.tool.description === undefined ? {} : { description: t.tool.description }),
        ...(t.schemaFromServer ? { schema: "from the server at run time" } : {}),
        ...(t.tool.annotations === undefined || t.importedFrom === undefined
          ? {}
          : { annotations: t.tool.annotations }),
      })),
      ...(servers.length === 0 ? {} : { servers }),
      chains: Object.entries(manifest.chains).map(([name, c]) => ({
        name,
        ...(c.description === undefined ? {} : { description: c.description }),
        steps: c.steps.map((s) => s.tool),
      })),
    });
    return EXIT.ok;
  } catch (error) {
    return report(io, redactor, error);
  }
}

function withSchemas(tools: readonly ResolvedTool[], io: CliIo): ResolvedTool[] {
  const skipped = tools.filter((t) => t.schemaFromServer);
  for (const t of skipped) {
    diagnose(
      io,
      undefined,
      "note",
      `${t.id}: its schemas come from server "${t.entry.server}" at run time; not checked here`,
    );
  }
  return tools.filter((t) => !t.schemaFromServer);
}

/** One problem `validate` found (its `--json` verdict lists them). */
interface Problem {
  /** The tool, when the problem is one tool's. */
  tool?: string;
  /** What is wrong. */
  message: string;
  /** Where in the manifest file (a manifest error). */
  file?: string;
  line?: number;
  column?: number;
  /** JSON Pointer into the manifest, or into the converted tools (a preflight). */
  pointer?: string;
}

/** Schemas of server tools that no validator can evaluate: one problem each. */
async function checkImported(
  tools: readonly ResolvedTool[],
  validator: DefaultValidator,
): Promise<Problem[]> {
  const problems: Problem[] = [];
  for (const t of tools) {
    if (t.importedFrom === undefined) continue;
    for (const key of ["inputSchema", "outputSchema"] as const) {
      const schema = t.tool[key];
      if (schema === undefined) continue;
      try {
        await validator.compile(schema);
      } catch (error) {
        if (!(error instanceof ToolFoundationError)) throw error;
        problems.push({
          tool: t.id,
          message: `${t.id} (server ${JSON.stringify(t.importedFrom)}): ${key}: ${error.message}`,
        });
      }
    }
  }
  return problems;
}

/** Feature-loss warnings of converting one tool, for the command's summary. */
function addWarnings(warnings: Warnings, id: string, found: readonly FeatureLossWarning[]): void {
  for (const w of found) {
    warnings.add({
      kind: `${w.feature} ${w.action}`,
      subject: id,
      message: `${id}: ${w.path}: ${w.feature} ${w.action} (${w.effect}): ${w.message}`,
      detail: {
        tool: id,
        path: w.path,
        feature: w.feature,
        action: w.action,
        effect: w.effect,
        from: w.from,
        to: w.to,
        reason: w.message,
      },
    });
  }
}

/** `validate <manifest> [--target t] [--strict] [--json]` */
export async function validateCommand(argv: string[], io: CliIo): Promise<number> {
  const redactor = new Redactor();
  let json = false;
  let path: string | undefined;
  try {
    const { values, positionals } = oneManifest(argv, {
      target: { type: "string" },
      strict: { type: "boolean" },
      json: { type: "boolean" },
    });
    json = values.json === true;
    path = positionals[0];
    const target = values.target as string | undefined;
    if (target !== undefined && !TARGETS.includes(target)) {
      throw new UsageError(
        `--target must be one of ${TARGETS.join(", ")}, got ${JSON.stringify(target)}`,
      );
    }
    const workspace = await openWorkspace(positionals[0], values, redactor);
    const manifest = workspace.manifest;
    const {
      DefaultValidator,
      checkToolSchemas,
      moduleCheckNeeds,
      checkModuleTools,
      checkChains,
      sortIssues,
    } = await checksKit();
    const validator = new DefaultValidator();
    // What is certain to fail is a manifest error (exit 2), located: schemas no
    // validator can evaluate, module tools that cannot load, chain steps.
    const issues = await checkToolSchemas(manifest, validator);
    const moduleNeeds = moduleCheckNeeds(manifest);
    const missing = missingPermissions({ needs: moduleNeeds, workers: false, modules: [] });
    if (missing.length > 0) {
      diagnose(
        io,
        undefined,
        "note",
        `module tools not checked (loading them needs ${
          formatFlags({ needs: missing, workers: false }).join(" ")
        })`,
      );
    } else if (moduleNeeds.length > 0) {
      issues.push(...await withInterrupt((signal) => checkModuleTools(manifest, { signal })));
    }
    using _console = scrubConsole(redactor);
    const found = await serverTools(io, workspace, values);
    issues.push(...await checkChains({ ...manifest, tools: found.tools }, validator));
    if (issues.length > 0) throw new ManifestError(sortIssues(issues));
    const problems = await checkImported(found.tools, validator);
    const tools = withSchemas(found.tools, io);
    if (target !== undefined) {
      const { defaultRegistry, preflight } = await adapterKit();
      const registry = defaultRegistry();
      const converted = tools.map((t) =>
        registry.convert(t.tool, "mcp", target, values.strict ? { strict: true } : undefined).tool
      );
      for (const p of preflight(converted, target)) {
        const index = Number(p.path.split("/")[1]);
        const id = tools[index]?.id ?? p.tool;
        problems.push({
          tool: id,
          pointer: p.path,
          message: `${id}: ${target} would reject ${p.path}: [${p.code}] ${p.message}`,
        });
      }
    }
    const chains = Object.keys(manifest.chains).length;
    const summary = `${found.tools.length} tool(s), ${chains} chain(s)`;
    if (json) {
      printJson(io, redactor, {
        valid: problems.length === 0,
        manifest: manifest.path,
        tools: found.tools.length,
        chains,
        ...(target === undefined ? {} : { target }),
        problems,
      });
      return problems.length > 0 ? EXIT.failure : EXIT.ok;
    }
    for (const p of problems) diagnose(io, redactor, "error", p.message);
    if (problems.length > 0) {
      diagnose(io, undefined, "error", `${problems.length} problem(s) in ${summary}`);
      return EXIT.failure;
    }
    diagnose(
      io,
      undefined,
      "ok",
      `${summary} valid${target ? `; ${target} preflight passed` : ""}`,
    );
    return EXIT.ok;
  } catch (error) {
    if (json && error instanceof ManifestError) {
      // The verdict of an invalid manifest: every problem located in the file.
      printJson(io, redactor, {
        valid: false,
        manifest: path,
        problems: error.issues.map((issue) => ({
          message: issue.message,
          file: issue.file,
          line: issue.line,
          column: issue.column,
          pointer: issue.path || "/",
        })),
      });
      return EXIT.usage;
    }
    return report(io, redactor, error);
  }
}

/** `convert <manifest> --to <format> [--strict]` */
export async function convertCommand(argv: string[], io: CliIo): Promise<number> {
  const redactor = new Redactor();
  try {
    const { values, positionals } = oneManifest(argv, {
      to: { type: "string" },
      strict: { type: "boolean" },
    });
    const to = values.to as string | undefined;
    if (to === undefined || !TARGETS.includes(to)) {
      throw new UsageError(
        `--to must be one of ${TARGETS.join(", ")}${
          to === undefined ? "" : `, got ${JSON.stringify(to)}`
        }`,
      );
    }
    const workspace = await openWorkspace(positionals[0], values, redactor);
    const manifest = workspace.manifest;
    const [{ DefaultValidator, checkToolSchemas, sortIssues }, { defaultRegistry }] = await Promise
      .all([checksKit(), adapterKit()]);
    // A schema no validator can evaluate is the manifest's error (exit 2, located), as in validate.
    const issues = await checkToolSchemas(manifest, new DefaultValidator());
    if (issues.length > 0) throw new ManifestError(sortIssues(issues));
    using _console = scrubConsole(redactor);
    const warnings = new Warnings(io, redactor);
    const found = await serverTools(io, workspace, values, warnings);
    const problems = await checkImported(found.tools, new DefaultValidator());
    if (problems.length > 0) {
      warnings.flush();
      for (const p of problems) diagnose(io, redactor, "error", p.message);
      return EXIT.failure;
    }
    const registry = defaultRegistry();
    const out: unknown[] = [];
    // `--to mcp` writes MCP `Tool` fields only (what serve sends); the others are warnings.
    const options = {
      ...(values.strict ? { strict: true } : {}),
      ...(to === "mcp" ? { providers: { mcp: { fields: "mcp" } } } : {}),
    };
    for (const t of withSchemas(found.tools, io)) {
      try {
        const result = registry.convert(t.tool, "mcp", to, options);
        addWarnings(warnings, t.id, result.warnings);
        out.push(result.tool);
      } catch (error) {
        if (error instanceof InvalidSchemaError && t.importedFrom === undefined) {
          // keywordLocation is into the tool (`/inputSchema/...`).
          const where = error.keywordLocation ?? "";
          const inSchema = /^\/(input|output)Schema(\/|$)/.test(where);
          const pointer = `/tools/${t.index}${inSchema ? where : ""}`;
          const at = manifest.locate?.(pointer) ?? { line: 1, column: 1 };
          throw new ManifestError([{
            file: manifest.path,
            ...at,
            path: pointer,
            message: `tool ${JSON.stringify(t.id)}: ${error.message}`,
          }], { cause: error });
        }
        if (!(error instanceof ToolFoundationError)) throw error;
        warnings.flush();
        diagnose(io, undefined, "error", `${t.id}: ${error.message}`);
        return EXIT.failure;
      }
    }
    warnings.flush();
    printJson(io, redactor, out);
    return EXIT.ok;
  } catch (error) {
    return report(io, redactor, error);
  }
}

/** `permissions <manifest> [toolId|chain]` */
export async function permissionsCommand(argv: string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = oneManifest(argv, {
      serve: { type: "boolean" },
      http: { type: "string" },
      "token-env": { type: "string" },
      "request-state-key-env": { type: "string" },
      state: { type: "string" },
    });
    const [path, target, ...extra] = positionals;
    if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`);
    const workspace = await openWorkspace(path, values);
    const manifest = workspace.manifest;
    let tools: string[] | undefined;
    let command = ["run", path!, "<toolId>"];
    const listen = typeof values.http === "string" ? values.http : undefined;
    const tokenEnv = typeof values["token-env"] === "string" ? [values["token-env"]] : [];
    const keyEnv = typeof values["request-state-key-env"] === "string"
      ? values["request-state-key-env"]
      : undefined;
    const stateUrl = typeof values.state === "string" ? values.state : undefined;
    if (stateUrl !== undefined && values.serve !== true) {
      throw new UsageError("--state plans for serve: add --serve");
    }
    const state = stateUrl === undefined || stateUrl === "memory"
      ? undefined
      : stateChoice({ state: stateUrl }, true);
    const serve = values.serve === true
      ? {
        ...(listen ? { listen } : {}),
        env: keyEnv === undefined ? tokenEnv : [...tokenEnv, keyEnv],
        ...(state?.kind === "redis" ? { state: state.net } : {}),
      }
      : undefined;
    if (serve !== undefined) {
      command = ["serve", path!, ...(listen ? ["--http", listen] : ["--stdio"])];
      command.push(...tokenEnv.flatMap((name) => ["--token-env", name]));
      if (state !== undefined) command.push("--state", stateUrl!);
      if (keyEnv !== undefined) command.push("--request-state-key-env", keyEnv);
    }
    if (target !== undefined) {
      if (manifest.tools.some((t) => t.id === target)) {
        tools = [target];
        command = ["run", path!, target];
      } else if (serverOfId(manifest, target) !== undefined) {
        tools = [target]; // a server's tool the manifest does not list
        command = ["run", path!, target];
      } else if (Object.hasOwn(manifest.chains, target)) {
        tools = [...new Set(manifest.chains[target].steps.map((s) => s.tool))];
        command = ["chain", path!, target];
      } else {
        const chains = Object.keys(manifest.chains).sort();
        throw new UsageError(
          `${JSON.stringify(target)} is neither a tool nor a chain of ${path}; ${
            workspace.unknownTool(target).message.replace(/^unknown tool "[^"]*"; /, "")
          }; chains: ${chains.join(", ") || "none defined"}`,
        );
      }
    }
    const plan = workspace.plan({ tools, serve });
    const lines = commandLines(plan, { command });
    io.stdout(`${lines.run}\n`);
    io.stdout(`${lines.compile}\n`);
    if (io.verbosity === "quiet") return EXIT.ok;
    // One line per permission and reason: `--allow-env=A,B: why`.
    for (const line of permissionLines(plan.needs)) io.stderr(`${line}\n`);
    return EXIT.ok;
  } catch (error) {
    return report(io, undefined, error);
  }
}
