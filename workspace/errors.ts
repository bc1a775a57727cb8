/**
 * Every error the CLI layer raises, in one place, each with a stable `code`
 * from {@linkcode CliErrorCode} and its `cause` kept: a manifest that cannot
 * be used, a secret that is not set, a result JSON cannot hold, a usage error,
 * a missing Deno permission, and a module tool's sandbox denial. This module
 * imports no manifest parser, validator or MCP SDK, so that `--help` stays fast.
 *
 * @module
 */

import { ToolFoundationError } from "../model/errors.ts";
import type { RunErrorCode } from "../run/errors.ts";
import type { PermissionNeed } from "./permission_need.ts";

// A module tool's sandbox denial is raised by the run layer (run/module/), where it is declared.
export { isSandboxDenial, SandboxDeniedError } from "../run/errors.ts";

/**
 * Every code an error of the CLI layer can carry. `permission_denied` is the
 * run layer's code: {@linkcode SandboxDeniedError} is a `PermissionDeniedError`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { type CliErrorCode, MissingSecretError } from "@toolfoundation/core/workspace";
 *
 * const code: CliErrorCode = "missing_secret";
 * assert.equal(new MissingSecretError("TOKEN").code, code);
 * ```
 */
export type CliErrorCode =
  | "invalid_manifest"
  | "missing_secret"
  | "unserializable_result"
  | "usage"
  | "missing_permission"
  | "server_unavailable"
  | "tool_changed"
  | Extract<RunErrorCode, "permission_denied">;

/** One problem in a manifest. */
export interface ManifestIssue {
  /** The file. */
  file: string;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
  /** JSON Pointer into the document. */
  path: string;
  /** What is wrong. */
  message: string;
}

/**
 * A manifest cannot be used; `issues` lists every problem found (code
 * `invalid_manifest`, exit code 2).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ManifestError } from "@toolfoundation/core/workspace";
 *
 * const error = new ManifestError([
 *   { file: "tools.yaml", line: 3, column: 5, path: "/tools/0/name", message: "must be string" },
 * ]);
 * assert.equal(error.code, "invalid_manifest");
 * assert.equal(error.message, "tools.yaml:3:5: /tools/0/name: must be string");
 * ```
 */
export class ManifestError extends ToolFoundationError {
  /** Every problem, in document order. */
  readonly issues: readonly ManifestIssue[];

  /**
   * Creates the error.
   *
   * @param issues The problems.
   * @param options The cause, if any.
   */
  constructor(issues: readonly ManifestIssue[], options?: { cause?: unknown }) {
    super(
      "invalid_manifest" satisfies CliErrorCode,
      issues.map((i) => `${i.file}:${i.line}:${i.column}: ${i.path || "/"}: ${i.message}`).join(
        "\n",
      ),
      options,
    );
    this.issues = issues;
  }
}

/**
 * A variable a reference names is not set (code `missing_secret`, exit code 2:
 * a configuration error).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MissingSecretError } from "@toolfoundation/core/workspace";
 *
 * const error = new MissingSecretError("API_TOKEN");
 * assert.equal(error.code, "missing_secret");
 * assert.equal(error.variable, "API_TOKEN");
 * ```
 */
export class MissingSecretError extends ToolFoundationError {
  /** The variable's name. */
  readonly variable: string;

  /**
   * Creates the error.
   *
   * @param variable The variable's name.
   */
  constructor(variable: string) {
    super(
      "missing_secret" satisfies CliErrorCode,
      `environment variable ${variable} is not set (referenced as \${env:${variable}})`,
    );
    this.variable = variable;
  }
}

/** A result holds a value JSON cannot represent (a BigInt, a cycle, ...); exit code 1. */
export class UnserializableResultError extends ToolFoundationError {
  /** JSON Pointer of the offending value. */
  readonly pointer: string;

  /**
   * Creates the error.
   *
   * @param what What the value is (e.g. "a BigInt").
   * @param pointer Where it is.
   * @param options The tool (for the message) and the cause.
   */
  constructor(what: string, pointer: string, options: { toolId?: string; cause?: unknown } = {}) {
    super(
      "unserializable_result" satisfies CliErrorCode,
      `${
        options.toolId === undefined ? "the result" : `tool ${JSON.stringify(options.toolId)}`
      } returned a value JSON cannot hold: ${what} at ${pointer || "/"}`,
      { cause: options.cause },
    );
    this.pointer = pointer;
  }
}

/** A usage error: wrong arguments or options (exit 2). */
export class UsageError extends ToolFoundationError {
  /**
   * Creates the error.
   *
   * @param message What is wrong and how to fix it.
   * @param options The cause, if any.
   */
  constructor(message: string, options?: { cause?: unknown }) {
    super("usage" satisfies CliErrorCode, message, options);
  }
}

/** The `--allow-*` flags of a {@linkcode MissingPermissionError}. */
export interface MissingPermissionFlags {
  /** The flags of the needs that are not granted. */
  missing: readonly string[];
  /** Every flag the command needs. */
  all: readonly string[];
  /** Sentences that help, one per line after the flags (e.g. why `kill` may be missing). */
  notes?: readonly string[];
  /** The flags without the optional ones, when there are optional ones. */
  required?: readonly string[];
}

/** Deno has not granted permissions a command needs; nothing was run (exit 3). */
export class MissingPermissionError extends ToolFoundationError {
  /** The needs that are not granted. */
  readonly missing: readonly PermissionNeed[];
  /** Every flag the command needs. */
  readonly flags: readonly string[];

  /**
   * Creates the error.
   *
   * @param missing The needs that are not granted.
   * @param flags Their flags and every flag the command needs.
   */
  constructor(missing: readonly PermissionNeed[], flags: MissingPermissionFlags) {
    const lines: string[] = [];
    for (const flag of flags.missing) {
      const name = flag.replace(/^'/, "").slice("--allow-".length).split("=")[0];
      const reasons = [...new Set(missing.filter((n) => n.name === name).map((n) => n.reason))];
      lines.push(`  ${flag}  (${reasons.join("; ")})`);
    }
    super(
      "missing_permission" satisfies CliErrorCode,
      `missing permission; nothing was run. Add:\n${lines.join("\n")}\n` +
        (flags.notes ?? []).map((note) => `${note}\n`).join("") +
        `All the flags this needs: ${flags.all.join(" ")}` +
        (flags.required === undefined
          ? ""
          : `\nOr without the optional ones (skipped when not granted): ${
            flags.required.join(" ")
          }`),
    );
    this.missing = missing;
    this.flags = flags.all;
  }
}

/**
 * An MCP server of the manifest cannot be reached or listed (code
 * `server_unavailable`, exit code 1); the message names the server.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ServerUnavailableError } from "./errors.ts";
 *
 * const error = new ServerUnavailableError("memory", new Error("spawn failed"));
 * assert.equal(error.code, "server_unavailable");
 * assert.match(error.message, /server "memory"/);
 * ```
 */
export class ServerUnavailableError extends ToolFoundationError {
  /** The server's name in the manifest. */
  readonly server: string;

  /**
   * Creates the error.
   *
   * @param server The server's name.
   * @param cause Why it failed.
   */
  constructor(server: string, cause: unknown) {
    super(
      "server_unavailable" satisfies CliErrorCode,
      `server ${JSON.stringify(server)} cannot be used: ${
        (cause as Error)?.message ?? String(cause)
      } (list, validate and convert take --offline to use the manifest alone, --keep-going to skip it)`,
      { cause },
    );
    this.name = "ServerUnavailableError";
    this.server = server;
  }
}

/**
 * Server tools differ from what the lock file pins (code `tool_changed`, exit
 * code 5): each changed tool with what changed. Run `lock` again to approve.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ToolChangedError } from "./errors.ts";
 *
 * const error = new ToolChangedError([{ server: "s", tool: "echo", changes: ["description: \"a\" -> \"b\""] }], "tools.yaml");
 * assert.equal(error.code, "tool_changed");
 * assert.match(error.message, /s:echo/);
 * ```
 */
export class ToolChangedError extends ToolFoundationError {
  /** The changed tools. */
  readonly tools: readonly { server: string; tool: string; changes: readonly string[] }[];

  /**
   * Creates the error.
   *
   * @param tools The changed tools and their differences.
   * @param manifest The manifest (for the `lock` command line).
   */
  constructor(
    tools: readonly { server: string; tool: string; changes: readonly string[] }[],
    manifest: string,
  ) {
    super(
      "tool_changed" satisfies CliErrorCode,
      `${tools.length} server tool(s) changed since they were locked; refused:\n${
        tools.map((t) => `  ${t.server}:${t.tool}\n${t.changes.map((c) => `    ${c}`).join("\n")}`)
          .join("\n")
      }\n  to approve the new definitions: toolfoundation lock ${manifest}`,
    );
    this.name = "ToolChangedError";
    this.tools = tools;
  }
}
