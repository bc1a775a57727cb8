// The `completions` command: prints a completion script for bash, zsh or fish,
// generated from the table of commands and flags (cli/_flags.ts) that the
// help is checked against, so a new flag is completed as soon as it is there.

import { type CliIo, EXIT } from "../_io.ts";
import { COMMAND_SPECS, type CommandSpec, type FlagSpec, GLOBAL_FLAGS } from "../_flags.ts";
import { parseArgs } from "../_args.ts";
import { UsageError } from "../../workspace/errors.ts";
import { report } from "./_shared.ts";

/** The shells a script is written for. */
const SHELLS = ["bash", "zsh", "fish"] as const;

/** The program the scripts complete (the compiled binary, or an alias of `deno run ... cli.ts`). */
const PROGRAM = "toolfoundation";

function flagsOf(command: CommandSpec): FlagSpec[] {
  return [...command.flags, ...GLOBAL_FLAGS];
}

/** Every flag with fixed choices, by name (the same choices wherever a name is used). */
function choiceFlags(): Map<string, readonly string[]> {
  const found = new Map<string, readonly string[]>();
  for (const c of COMMAND_SPECS) {
    for (const f of flagsOf(c)) if (f.choices !== undefined) found.set(f.name, f.choices);
  }
  return found;
}

function fileFlags(): string[] {
  return [
    ...new Set(COMMAND_SPECS.flatMap((c) => c.flags.filter((f) => f.file).map((f) => f.name))),
  ];
}

function bash(): string {
  const names = COMMAND_SPECS.map((c) => c.name).join(" ");
  const lines = [
    `# ${PROGRAM} completion for bash. Load it with:`,
    `#   source <(${PROGRAM} completions bash)`,
    `_${PROGRAM}() {`,
    `  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"`,
    `  if [[ $COMP_CWORD -eq 1 ]]; then`,
    `    COMPREPLY=($(compgen -W "${names} help --help --version" -- "$cur"))`,
    `    return`,
    `  fi`,
    `  local cmd="\${COMP_WORDS[1]}"`,
    `  case "$prev" in`,
  ];
  for (const [name, choices] of choiceFlags()) {
    lines.push(
      `    --${name}) COMPREPLY=($(compgen -W "${choices.join(" ")}" -- "$cur")); return ;;`,
    );
  }
  const files = fileFlags().map((f) => `--${f}`).join("|");
  if (files !== "") lines.push(`    ${files}) COMPREPLY=($(compgen -f -- "$cur")); return ;;`);
  lines.push(`  esac`, `  local flags="" words="" files=1`, `  case "$cmd" in`);
  for (const c of COMMAND_SPECS) {
    const flags = flagsOf(c).map((f) => `--${f.name}`).join(" ");
    lines.push(
      `    ${c.name}) flags="${flags}"; words="${(c.words ?? []).join(" ")}"; files=${
        c.files ? 1 : 0
      } ;;`,
    );
  }
  lines.push(
    `    help) COMPREPLY=($(compgen -W "${names}" -- "$cur")); return ;;`,
    `  esac`,
    `  if [[ "$cur" == -* ]]; then`,
    `    COMPREPLY=($(compgen -W "$flags" -- "$cur"))`,
    `  elif [[ $COMP_CWORD -eq 2 && -n "$words" ]]; then`,
    `    COMPREPLY=($(compgen -W "$words" -- "$cur"))`,
    `  elif [[ $files -eq 1 ]]; then`,
    `    COMPREPLY=($(compgen -f -- "$cur"))`,
    `  fi`,
    `}`,
    `complete -o filenames -F _${PROGRAM} ${PROGRAM}`,
  );
  return `${lines.join("\n")}\n`;
}

/** Text safe inside a zsh `_arguments` spec in single quotes. */
function zshText(text: string): string {
  return text.replaceAll("'", "").replaceAll("[", "(").replaceAll("]", ")").replaceAll(":", "\\:");
}

function zshSpec(f: FlagSpec): string {
  const about = `[${zshText(f.about)}]`;
  if (f.value === undefined) return `'--${f.name}${about}'`;
  const action = f.choices !== undefined ? `(${f.choices.join(" ")})` : f.file ? "_files" : " ";
  return `'*--${f.name}=${about}:${zshText(f.value)}:${action}'`;
}

function zsh(): string {
  const lines = [
    `#compdef ${PROGRAM}`,
    `# ${PROGRAM} completion for zsh. Load it with (compinit loaded):`,
    `#   source <(${PROGRAM} completions zsh)`,
    `# or save it as _${PROGRAM} in a folder of $fpath.`,
    `_${PROGRAM}() {`,
    `  local -a commands`,
    `  commands=(`,
    ...COMMAND_SPECS.map((c) => `    '${c.name}:${zshText(c.about)}'`),
    `    'help:Show the help of a command'`,
    `  )`,
    `  if (( CURRENT == 2 )); then`,
    `    _describe -t commands 'command' commands`,
    `    return`,
    `  fi`,
    `  local cmd=$words[2]`,
    `  case $cmd in`,
  ];
  for (const c of COMMAND_SPECS) {
    const rest = c.words !== undefined
      ? `'1:what:(${c.words.join(" ")})' '*:file:_files'`
      : c.files
      ? `'*:file:_files'`
      : "";
    lines.push(
      `    ${c.name})`,
      `      _arguments -s \\`,
      ...flagsOf(c).map((f) => `        ${zshSpec(f)} \\`),
      `        ${rest}`,
      `      ;;`,
    );
  }
  lines.push(
    `    help) _describe -t commands 'command' commands ;;`,
    `  esac`,
    `}`,
    `if [[ "$funcstack[1]" == "_${PROGRAM}" ]]; then`,
    `  _${PROGRAM} "$@"`,
    `else`,
    `  compdef _${PROGRAM} ${PROGRAM}`,
    `fi`,
  );
  return `${lines.join("\n")}\n`;
}

/** Text in fish single quotes. */
function fishText(text: string): string {
  return `'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

function fish(): string {
  const names = COMMAND_SPECS.map((c) => c.name);
  const lines = [
    `# ${PROGRAM} completion for fish. Load it with:`,
    `#   ${PROGRAM} completions fish | source`,
    `# or save it as ~/.config/fish/completions/${PROGRAM}.fish.`,
    `complete -c ${PROGRAM} -f`,
    `complete -c ${PROGRAM} -n __fish_use_subcommand -l help -d 'Show help'`,
    `complete -c ${PROGRAM} -n __fish_use_subcommand -l version -d 'Show the version'`,
    `complete -c ${PROGRAM} -n __fish_use_subcommand -a help -d 'Show a command help'`,
  ];
  for (const c of COMMAND_SPECS) {
    lines.push(
      `complete -c ${PROGRAM} -n __fish_use_subcommand -a ${c.name} -d ${fishText(c.about)}`,
    );
  }
  lines.push(
    `complete -c ${PROGRAM} -n '__fish_seen_subcommand_from help' -a ${fishText(names.join(" "))}`,
  );
  for (const c of COMMAND_SPECS) {
    const when = `'__fish_seen_subcommand_from ${c.name}'`;
    if (c.words !== undefined) {
      lines.push(`complete -c ${PROGRAM} -n ${when} -a ${fishText(c.words.join(" "))}`);
    }
    if (c.files) lines.push(`complete -c ${PROGRAM} -n ${when} -F`);
    for (const f of flagsOf(c)) {
      let line = `complete -c ${PROGRAM} -n ${when} -l ${f.name}`;
      if (f.value !== undefined) line += f.file ? " -r -F" : " -x";
      if (f.choices !== undefined) line += ` -a ${fishText(f.choices.join(" "))}`;
      lines.push(`${line} -d ${fishText(f.about)}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/** `completions bash|zsh|fish` */
export function completionsCommand(argv: string[], io: CliIo): Promise<number> {
  try {
    const { positionals } = parseArgs({ args: argv, allowPositionals: true, options: {} });
    const [shell, ...extra] = positionals;
    if (shell === undefined || !(SHELLS as readonly string[]).includes(shell)) {
      throw new UsageError(
        `completions needs a shell: ${SHELLS.join(", ")}${
          shell === undefined ? "" : `, got ${JSON.stringify(shell)}`
        }`,
      );
    }
    if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`);
    io.stdout(shell === "bash" ? bash() : shell === "zsh" ? zsh() : fish());
    return Promise.resolve(EXIT.ok);
  } catch (error) {
    return Promise.resolve(report(io, undefined, error));
  }
}
