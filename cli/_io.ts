// Private: the CLI's input and output, exit codes, and error printing.

import type { Redactor } from "./secrets.ts";

/** Exit codes (documented in the README and in --help). */
export const EXIT = { ok: 0, failure: 1, usage: 2, permission: 3, interrupted: 130 } as const;

/** Where the CLI reads and writes; tests substitute their own. */
export interface CliIo {
  /** Writes to standard output. */
  stdout(text: string): void;
  /** Writes to standard error. */
  stderr(text: string): void;
  /** Reads all of standard input. */
  readStdin(): Promise<string>;
  /** Whether standard input is a terminal. */
  stdinIsTerminal: boolean;
  /** Whether standard error is a terminal (live progress line). */
  stderrIsTerminal: boolean;
  /** Whether colour is off (NO_COLOR). */
  noColor: boolean;
}

const encoder = new TextEncoder();

function writeAll(file: { writeSync(p: Uint8Array): number }, text: string): void {
  const bytes = encoder.encode(text);
  let offset = 0;
  while (offset < bytes.length) offset += file.writeSync(bytes.subarray(offset));
}

/** The process's own standard streams. */
export function processIo(): CliIo {
  return {
    stdout: (text) => writeAll(Deno.stdout, text),
    stderr: (text) => writeAll(Deno.stderr, text),
    readStdin: () => new Response(Deno.stdin.readable).text(),
    stdinIsTerminal: Deno.stdin.isTerminal(),
    stderrIsTerminal: Deno.stderr.isTerminal(),
    noColor: Deno.noColor,
  };
}

/** Prints a diagnostic line on stderr, secrets scrubbed. */
export function diagnose(
  io: CliIo,
  redactor: Redactor | undefined,
  label: string,
  text: string,
): void {
  const prefix = io.noColor || !io.stderrIsTerminal ? `${label}:` : `\x1b[1m${label}:\x1b[0m`;
  io.stderr(`${prefix} ${redactor ? redactor.redact(text) : text}\n`);
}

/** Prints JSON on stdout, secrets scrubbed. */
export function printJson(io: CliIo, redactor: Redactor | undefined, value: unknown): void {
  const text = JSON.stringify(value, null, 2) ?? "null";
  io.stdout(`${redactor ? redactor.redact(text) : text}\n`);
}

/** The exit code for an error of a run. */
export function exitCodeOf(error: unknown): number {
  const code = (error as { code?: unknown })?.code;
  if (code === "cancelled") return EXIT.interrupted;
  if (code === "permission_denied") return EXIT.permission;
  if (["usage", "invalid_manifest", "tool_not_found", "missing_secret"].includes(String(code))) {
    return EXIT.usage;
  }
  return EXIT.failure;
}

/** One line describing an error, with its cause chain. */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 5; depth++) {
    const e = current as { code?: string; message?: string };
    const text = e instanceof Error || typeof e?.message === "string"
      ? e.message!
      : String(current);
    if (!parts.some((p) => p.includes(text))) parts.push(e.code ? `[${e.code}] ${text}` : text);
    current = (current as { cause?: unknown })?.cause;
  }
  return parts.join("\n  caused by: ");
}
