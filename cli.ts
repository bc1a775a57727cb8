/**
 * The toolfoundation command line: run and chain tools defined in a YAML
 * manifest under explicit Deno permissions. `main` is the whole program;
 * this file only wires it to the process.
 *
 * ```sh
 * deno run --allow-read=examples cli.ts run examples/tools.yaml math:calculate \
 *   --args '{"operation":"add","a":2,"b":3}'
 * ```
 *
 * Commands load lazily, so `--help` starts fast. The building blocks
 * (manifests, permissions, built-ins) are in `cli/mod.ts`, exported as
 * `@toolfoundation/core/cli` together with `main`.
 *
 * @example
 * ```ts ignore
 * import { main } from "@toolfoundation/core/cli";
 *
 * const code = await main(["list", "examples/tools.yaml"]);
 * ```
 *
 * @module
 */

import denoJson from "./deno.json" with { type: "json" };
import { HELP, USAGE } from "./cli/_help.ts";
import { type CliIo, EXIT, isBrokenPipe, processIo } from "./cli/_io.ts";

export type { CliIo } from "./cli/_io.ts";

/** Options of {@linkcode main}. */
export interface MainOptions {
  /** Replaces parts of the process's standard streams (for tests and embedding). */
  io?: Partial<CliIo>;
}

type Command = (argv: string[], io: CliIo) => Promise<number>;

// A Map: a command name typed by the user never reaches Object.prototype.
const COMMANDS: ReadonlyMap<string, () => Promise<Command>> = new Map([
  ["run", () => import("./cli/commands/run.ts").then((m) => m.runCommand)],
  ["chain", () => import("./cli/commands/run.ts").then((m) => m.chainCommand)],
  ["list", () => import("./cli/commands/inspect.ts").then((m) => m.listCommand)],
  ["validate", () => import("./cli/commands/inspect.ts").then((m) => m.validateCommand)],
  ["convert", () => import("./cli/commands/inspect.ts").then((m) => m.convertCommand)],
  ["permissions", () => import("./cli/commands/inspect.ts").then((m) => m.permissionsCommand)],
]);

/**
 * Runs the CLI with `args` (without the program name) and returns the exit
 * code: 0 ok, 1 tool or validation failure, 2 usage or manifest error, 3
 * missing permission, 130 interrupted.
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
    io.stdout(`toolfoundation ${denoJson.version}\n`);
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
  try {
    return await (await load())(rest, io);
  } catch (error) {
    // The reader of our output went away (`| head`): end quietly.
    if (isBrokenPipe(error)) return EXIT.ok;
    // Commands report their own errors; this is the last resort (e.g. a module
    // that cannot be loaded under the granted permissions).
    const notCapable = (error as Error)?.name === "NotCapable";
    io.stderr(
      `error: ${notCapable ? "missing permission: " : ""}${(error as Error)?.message ?? error}\n`,
    );
    return notCapable ? EXIT.permission : EXIT.failure;
  }
}

function names(): string {
  return [...COMMANDS.keys()].join(", ");
}

if (import.meta.main) Deno.exit(await main(Deno.args));
