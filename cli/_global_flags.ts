// Private: the options every command takes, read before the command's own:
// --quiet (-q), --verbose (-v) and --warnings text|json. They go into the
// CliIo the command gets, so each command needs no code of its own for them.

import type { CliIo } from "./_io.ts";

/** What {@linkcode globalFlags} found: the command's own arguments and the settings. */
export interface GlobalFlags {
  /** The arguments left for the command. */
  args: string[];
  /** The settings to merge into the command's CliIo. */
  io: Pick<CliIo, "verbosity" | "warnings">;
}

/**
 * Takes `--quiet`, `-q`, `--verbose`, `-v` and `--warnings text|json` out of
 * `args` (before a `--`, after which every argument is positional).
 *
 * @returns The rest and the settings, or an error message for a usage error.
 */
export function globalFlags(args: readonly string[]): GlobalFlags | string {
  const rest: string[] = [];
  let quiet = false;
  let verbose = false;
  let warnings: "text" | "json" | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      rest.push(...args.slice(i));
      break;
    }
    if (arg === "--quiet" || arg === "-q") quiet = true;
    else if (arg === "--verbose" || arg === "-v") verbose = true;
    else if (arg === "--warnings" || arg.startsWith("--warnings=")) {
      const value = arg === "--warnings" ? args[++i] : arg.slice("--warnings=".length);
      if (value !== "text" && value !== "json") {
        return `--warnings must be text or json, got ${
          value === undefined ? "nothing" : JSON.stringify(value)
        }`;
      }
      warnings = value;
    } else rest.push(arg);
  }
  if (quiet && verbose) return "give --quiet or --verbose, not both";
  return {
    args: rest,
    io: {
      ...(quiet
        ? { verbosity: "quiet" as const }
        : verbose
        ? { verbosity: "verbose" as const }
        : {}),
      ...(warnings === undefined ? {} : { warnings }),
    },
  };
}
