/**
 * The toolfoundation command line as a function: {@linkcode main} parses the
 * arguments, runs a command and returns the exit code; `cli.ts` wires it to
 * the process. Commands load lazily, so `--help` starts fast: this module
 * imports no manifest parser, validator or MCP SDK.
 *
 * @module
 */

import { HELP, USAGE } from "./_help.ts";
import { type CliIo, EXIT, isBrokenPipe, permissionRefusal, processIo } from "./_io.ts";
import { VERSION } from "./_version.ts";
import { guardStopSignals } from "./_stop_signals.ts";
import { globalFlags } from "./_global_flags.ts";

export type { CliIo };

/** Options of {@linkcode main}. */
export interface MainOptions {
  /** Replaces parts of the process's standard streams (for tests and embedding). */
  io?: Partial<CliIo>;
}

type Command = (argv: string[], io: CliIo) => Promise<number>;

// A Map: a command name typed by the user never reaches Object.prototype.
const COMMANDS: ReadonlyMap<string, () => Promise<Command>> = new Map([
  ["run", () => import("./commands/run.ts").then((m) => m.runCommand)],
  ["chain", () => import("./commands/chain.ts").then((m) => m.chainCommand)],
  ["list", () => import("./commands/inspect.ts").then((m) => m.listCommand)],
  ["validate", () => import("./commands/inspect.ts").then((m) => m.validateCommand)],
  ["convert", () => import("./commands/inspect.ts").then((m) => m.convertCommand)],
  ["report", () => import("./commands/report.ts").then((m) => m.reportCommand)],
  ["permissions", () => import("./commands/inspect.ts").then((m) => m.permissionsCommand)],
  ["respond", () => import("./commands/respond.ts").then((m) => m.respondCommand)],
  ["auth", () => import("./commands/auth.ts").then((m) => m.authCommand)],
  ["import", () => import("./commands/import.ts").then((m) => m.importCommand)],
  ["lock", () => import("./commands/lock.ts").then((m) => m.lockCommand)],
  ["mcp", () => import("./commands/mcp.ts").then((m) => m.mcpCommand)],
  ["serve", () => import("./commands/serve.ts").then((m) => m.serveCommand)],
  ["completions", () => import("./commands/completions.ts").then((m) => m.completionsCommand)],
]);

/**
 * Runs the CLI with `args` (without the program name) and returns the exit
 * code: 0 ok, 1 tool or validation failure, 2 usage or manifest error, 3
 * missing permission, 4 a server needs `auth login`, 130 interrupted.
 *
 * @example Printing the version
 * ```ts
 * import assert from "node:assert/strict";
 * import { main } from "@toolfoundation/core/cli";
 *
 * const out: string[] = [];
 * const code = await main(["--version"], { io: { stdout: (text) => out.push(text) } });
 * assert.equal(code, 0);
 * assert.match(out.join(""), /^toolfoundation \d+\.\d+\.\d+\n$/);
 * ```
 *
 * @param args The command-line arguments.
 * @param options Standard stream replacements.
 * @returns The exit code.
 */
export async function main(args: string[], options: MainOptions = {}): Promise<number> {
  const io: CliIo = { ...processIo(), ...options.io };
  const [command, ...rest] = args;
  if (command === "help" && rest.length > 0) {
    // `help <command>` prints that command's help.
    const help = HELP.get(rest[0]);
    if (help === undefined) {
      io.stderr(`error: no help for ${JSON.stringify(rest[0])}; commands: ${names()}\n`);
      return EXIT.usage;
    }
    io.stdout(help);
    return EXIT.ok;
  }
  if (command === undefined || command === "-h" || command === "--help" || command === "help") {
    (command === undefined ? io.stderr : io.stdout)(USAGE);
    return command === undefined ? EXIT.usage : EXIT.ok;
  }
  if (command === "-V" || command === "--version") {
    io.stdout(`toolfoundation ${VERSION}\n`);
    return EXIT.ok;
  }
  const load = COMMANDS.get(command);
  if (load === undefined) {
    io.stderr(`error: unknown command ${JSON.stringify(command)}; commands: ${names()}\n`);
    return EXIT.usage;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout(HELP.get(command) ?? USAGE);
    return EXIT.ok;
  }
  // --quiet, --verbose and --warnings belong to every command.
  const global = globalFlags(rest);
  if (typeof global === "string") {
    io.stderr(`error: ${global}; see --help\n`);
    return EXIT.usage;
  }
  // While the command runs, SIGINT and SIGTERM are caught: no process group it
  // started may outlive the CLI (a signal's default action would leave them).
  const releaseSignals = guardStopSignals();
  try {
    return await (await load())(global.args, { ...io, ...global.io });
  } catch (error) {
    // The reader of our output went away (`| head`): end quietly.
    if (isBrokenPipe(error)) return EXIT.ok;
    // Commands report their own errors; this is the last resort (e.g. a module
    // that cannot be loaded under the granted permissions).
    const refused = permissionRefusal(error);
    if (refused !== undefined) {
      io.stderr(`error: missing permission: ${refused}\n`);
      return EXIT.permission;
    }
    io.stderr(`error: ${(error as Error)?.message ?? error}\n`);
    return EXIT.failure;
  } finally {
    releaseSignals();
  }
}

function names(): string {
  return [...COMMANDS.keys()].join(", ");
}

// The CLI from its TypeScript sources (cli.ts runs the same code bundled).
if (import.meta.main) Deno.exit(await main(Deno.args));
