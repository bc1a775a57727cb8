// Private: the command-line parser of the commands. node:util's parseArgs
// costs ~20 ms at start (it loads ~40 modules of Deno's Node compatibility
// layer); this is the subset the commands use, with its strict behaviour:
// long options only, `--name value` or `--name=value` for strings, `--name`
// for booleans, `multiple` collects repeats, `--` ends the options, anything
// else starting with `-` is an error.

import { UsageError } from "../workspace/errors.ts";

/** One option: a string or a boolean, given once (the last wins) or repeatedly. */
export interface OptionSpec {
  type: "string" | "boolean";
  multiple?: boolean;
}

/** The parsed values of `O`: absent options are `undefined`. */
export type ParsedValues<O extends Record<string, OptionSpec>> = {
  [K in keyof O]?: O[K] extends { type: "boolean" }
    ? (O[K] extends { multiple: true } ? boolean[] : boolean)
    : (O[K] extends { multiple: true } ? string[] : string);
};

/** What {@linkcode parseArgs} returns. */
export interface ParsedArgs<O extends Record<string, OptionSpec>> {
  values: ParsedValues<O>;
  positionals: string[];
}

/** The arguments to parse and the options they may hold. */
export interface ParseArgsConfig<O extends Record<string, OptionSpec>> {
  args: readonly string[];
  options: O;
  /** Whether arguments that are not options are accepted (default false). */
  allowPositionals?: boolean;
}

/**
 * Parses `args` against `options`.
 *
 * @throws {UsageError} An unknown option, a string option without its value,
 * a boolean option given a value, or a positional where none is allowed.
 */
export function parseArgs<const O extends Record<string, OptionSpec>>(
  config: ParseArgsConfig<O>,
): ParsedArgs<O> {
  // No prototype: an option named like an Object.prototype member stays data.
  const values: Record<string, unknown> = Object.create(null);
  const positionals: string[] = [];
  const positional = (arg: string) => {
    if (config.allowPositionals !== true) {
      throw new UsageError(`unexpected argument ${JSON.stringify(arg)}`);
    }
    positionals.push(arg);
  };
  const args = config.args;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      for (const rest of args.slice(i + 1)) positional(rest);
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positional(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.startsWith("--") ? arg.slice(2, eq === -1 ? undefined : eq) : "";
    const spec = Object.hasOwn(config.options, name) ? config.options[name] : undefined;
    if (spec === undefined) {
      throw new UsageError(
        `unknown option ${JSON.stringify(arg.slice(0, eq === -1 ? undefined : eq))}; ` +
          `a positional argument starting with "-" goes after "--"`,
      );
    }
    let value: string | boolean;
    if (spec.type === "boolean") {
      if (eq !== -1) throw new UsageError(`option --${name} takes no value`);
      value = true;
    } else if (eq !== -1) {
      value = arg.slice(eq + 1);
    } else {
      const next = args[i + 1];
      if (next === undefined) throw new UsageError(`option --${name} needs a value`);
      if (next.startsWith("-") && next !== "-") {
        throw new UsageError(
          `option --${name} needs a value, got the option-like ${JSON.stringify(next)}; ` +
            `a value starting with "-" is written --${name}=${next}`,
        );
      }
      value = next;
      i++;
    }
    if (spec.multiple === true) {
      const list = (values[name] ?? []) as unknown[];
      list.push(value);
      values[name] = list;
    } else {
      values[name] = value;
    }
  }
  return { values: values as ParsedValues<O>, positionals };
}
