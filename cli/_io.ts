// Private: the CLI's input and output, exit codes, and error printing.

import { pointerFromTokens } from "../model/json_pointer.ts";
import { findUnencodable } from "../model/json_text.ts";
import type { Redactor } from "../workspace/secrets.ts";
import { isSandboxDenial, UnserializableResultError } from "../workspace/errors.ts";

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
  /**
   * How much goes to stderr (`--quiet`, `--verbose`; default `normal`): quiet
   * prints results and errors only; verbose every warning, progress off a
   * terminal too, and details.
   */
  verbosity?: "quiet" | "normal" | "verbose";
  /** How warnings are written (`--warnings`; default `text`, summarised by kind). */
  warnings?: "text" | "json";
}

/** Labels of diagnostics `--quiet` leaves out: all but errors and serve's own lines. */
const CHATTY = new Set(["note", "warning", "ok", "retry", "progress"]);

/** Exit codes (documented in docs/exit-codes.md, the README and --help). */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  permission: 3,
  login: 4,
  changed: 5,
  interrupted: 130,
} as const;

const encoder = new TextEncoder();

/** Whether an error is a write into a closed pipe (the reader went away, e.g. `| head`). */
export function isBrokenPipe(error: unknown): boolean {
  const e = error as { name?: unknown; code?: unknown };
  return e?.name === "BrokenPipe" || e?.code === "EPIPE" ||
    (error instanceof Deno.errors.BrokenPipe);
}

/**
 * The message of a permission refusal: Deno's `NotCapable`, or a module the
 * CLI loads on demand that Deno refused to load (under
 * `--unstable-lazy-dynamic-imports`, the CLI's own modules need read access);
 * `undefined` for any other error.
 */
export function permissionRefusal(error: unknown): string | undefined {
  const e = error as { name?: unknown; code?: unknown; message?: unknown };
  if (typeof e?.message !== "string") return undefined;
  if (e.name === "NotCapable") return e.message;
  if (e.code === "ERR_MODULE_NOT_FOUND" && /^Requires (read|import) access to /.test(e.message)) {
    return `${e.message} (the CLI loads this command's modules when it runs, ` +
      `and Deno checks them under --unstable-lazy-dynamic-imports: grant read access to its source)`;
  }
  return undefined;
}

/**
 * A writer for one of the process's streams. Once the reader has gone away
 * (a closed pipe), further output is dropped quietly: the command finishes
 * and exits with its own code, with no error about the pipe.
 */
function streamWriter(file: { writeSync(p: Uint8Array): number }): (text: string) => void {
  let closed = false;
  return (text) => {
    if (closed) return;
    const bytes = encoder.encode(text);
    let offset = 0;
    try {
      while (offset < bytes.length) offset += file.writeSync(bytes.subarray(offset));
    } catch (error) {
      if (!isBrokenPipe(error)) throw error;
      closed = true;
    }
  };
}

/** The process's own standard streams. */
export function processIo(): CliIo {
  return {
    stdout: streamWriter(Deno.stdout),
    stderr: streamWriter(Deno.stderr),
    readStdin: () => new Response(Deno.stdin.readable).text(),
    stdinIsTerminal: Deno.stdin.isTerminal(),
    stderrIsTerminal: Deno.stderr.isTerminal(),
    // Deno sets noColor from NO_COLOR without asking for env permission.
    noColor: Deno.noColor,
  };
}

/**
 * Prints a diagnostic line on stderr, secrets scrubbed. Under `--quiet` only
 * errors and serve's own lines are printed (notes, warnings, ok, retry and
 * progress lines are not).
 */
export function diagnose(
  io: CliIo,
  redactor: Redactor | undefined,
  label: string,
  text: string,
): void {
  if (io.verbosity === "quiet" && CHATTY.has(label)) return;
  const prefix = io.noColor || !io.stderrIsTerminal ? `${label}:` : `\x1b[1m${label}:\x1b[0m`;
  io.stderr(`${prefix} ${redactor ? redactor.redact(text) : text}\n`);
}

/** What JSON.stringify cannot write in `value`, and where (a JSON Pointer). */
function jsonProblem(value: unknown): { what: string; pointer: string } | undefined {
  const found = findUnencodable(value);
  if (found === undefined) return undefined;
  return {
    what: found.problem === "bigint" ? "a BigInt" : "a cycle (a value that contains itself)",
    pointer: pointerFromTokens(found.path.map(String)),
  };
}

/**
 * JSON text of `value`, secrets scrubbed from its strings only.
 *
 * @throws {UnserializableResultError} When the value cannot be JSON.
 */
export function jsonText(
  value: unknown,
  redactor: Redactor | undefined,
  options: { indent?: number; toolId?: string } = {},
): string {
  try {
    return redactor
      ? redactor.redactJson(value, options.indent)
      : JSON.stringify(value, null, options.indent) ?? "null";
  } catch (cause) {
    const problem = jsonProblem(value) ??
      { what: `a value (${(cause as Error)?.message ?? cause})`, pointer: "" };
    throw new UnserializableResultError(problem.what, problem.pointer, {
      toolId: options.toolId,
      cause,
    });
  }
}

/** Prints JSON on stdout, secrets scrubbed from its strings. */
export function printJson(
  io: CliIo,
  redactor: Redactor | undefined,
  value: unknown,
  options: { toolId?: string } = {},
): void {
  io.stdout(`${jsonText(value, redactor, { indent: 2, toolId: options.toolId })}\n`);
}

/**
 * The exit code for an error of a run. A module tool's sandbox denial (its
 * manifest grant refused something) is that tool's failure, exit 1; exit 3 is
 * for the CLI's own permissions.
 */
export function exitCodeOf(error: unknown): number {
  const code = (error as { code?: unknown })?.code;
  if (code === "cancelled") return EXIT.interrupted;
  if (code === "tool_changed") return EXIT.changed;
  for (
    let e: unknown = error, i = 0;
    e !== null && e !== undefined && i < 8;
    e = (e as { cause?: unknown }).cause, i++
  ) {
    if ((e as { code?: unknown }).code === "auth_login_required") return EXIT.login; // see `auth`
    // A server tool that changed after a reconnect (the runner's pool checks the lock).
    if ((e as { code?: unknown }).code === "tool_changed") return EXIT.changed;
  }
  if (code === "permission_denied") {
    return isSandboxDenial(error) ? EXIT.failure : EXIT.permission;
  }
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
