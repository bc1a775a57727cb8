// Private: what every command shares: opening a manifest with its permission
// checked first, the permission check itself, and error reporting.

import {
  type CliIo,
  describeError,
  diagnose,
  EXIT,
  exitCodeOf,
  permissionRefusal,
} from "../_io.ts";
import {
  ManifestError,
  MissingPermissionError,
  ToolChangedError,
  UsageError,
} from "../../workspace/errors.ts";
import type { Manifest } from "../../workspace/manifest.ts";
import {
  type PermissionNeed,
  type PermissionPlan,
  requirePlan,
} from "../../workspace/permissions.ts";
import type { Redactor } from "../../workspace/secrets.ts";
import { onStopSignal } from "../_stop_signals.ts";
import { Workspace } from "../../workspace/workspace.ts";

/** Throws MissingPermissionError when a required need is not granted; returns the optional ones not granted. */
export const requirePermissions: (plan: PermissionPlan) => PermissionNeed[] = requirePlan;

/** The option every command that reads a manifest takes. */
export const MANIFEST_OPTIONS = { "max-manifest-bytes": { type: "string" } } as const;

/** The option of every command that runs module tools (run, chain, respond, serve). */
export const MODULE_PROCESS_OPTIONS = { "max-module-processes": { type: "string" } } as const;

/** The most `--max-module-processes` takes (as the runner's `maxModuleProcesses`). */
const MOST_MODULE_PROCESSES = 65_536;

/**
 * Parses `--max-module-processes`: how many module-tool processes may live at
 * once (a whole number from 1 to 65536; default: the runner's, 16).
 */
export function parseMaxModuleProcesses(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = /^[0-9]{1,16}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MOST_MODULE_PROCESSES) {
    throw new UsageError(
      `--max-module-processes must be a whole number of processes from 1 to ` +
        `${MOST_MODULE_PROCESSES} (module tools running at once), got ${JSON.stringify(value)}`,
    );
  }
  return n;
}

/** Parses `--max-manifest-bytes` (a positive whole number of bytes). */
function parseMaxBytes(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = /^[0-9]{1,16}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new UsageError(
      `--max-manifest-bytes must be a positive whole number of bytes, got ${JSON.stringify(value)}`,
    );
  }
  return n;
}

/**
 * Opens a manifest as a workspace (read permission checked first): every
 * command goes through one, so each gets the same tool set, secrets and errors.
 */
export function openWorkspace(
  path: string | undefined,
  values: { "max-manifest-bytes"?: string | boolean } = {},
  redactor?: Redactor,
): Promise<Workspace> {
  if (path === undefined) throw new UsageError("missing <manifest>; see --help");
  const raw = values["max-manifest-bytes"];
  const maxBytes = parseMaxBytes(typeof raw === "string" ? raw : undefined);
  return Workspace.open(path, { maxBytes, ...(redactor === undefined ? {} : { redactor }) });
}

/** Reads and checks a manifest, checking read permission first. */
export async function openManifest(
  path: string | undefined,
  values: { "max-manifest-bytes"?: string | boolean } = {},
): Promise<Manifest> {
  return (await openWorkspace(path, values)).manifest;
}

/** Prints an error the way its kind asks and returns the exit code. */
export function report(io: CliIo, redactor: Redactor | undefined, error: unknown): number {
  if (error instanceof ManifestError) {
    for (const issue of error.issues) {
      io.stderr(
        `${issue.file}:${issue.line}:${issue.column}: ${issue.path || "/"}: ${issue.message}\n`,
      );
    }
    diagnose(
      io,
      redactor,
      "error",
      `invalid manifest (${error.issues.length} problem${
        error.issues.length === 1 ? "" : "s"
      }); nothing was run`,
    );
    return EXIT.usage;
  }
  if (error instanceof ToolChangedError) {
    diagnose(io, redactor, "error", error.message);
    return EXIT.changed;
  }
  if (error instanceof MissingPermissionError) {
    diagnose(io, redactor, "error", error.message);
    return EXIT.permission;
  }
  if (error instanceof UsageError) {
    diagnose(io, redactor, "error", (error as Error).message);
    return EXIT.usage;
  }
  const refused = permissionRefusal(error);
  if (refused !== undefined) {
    diagnose(io, redactor, "error", `missing permission: ${refused}`);
    return EXIT.permission;
  }
  diagnose(io, redactor, "error", describeError(error));
  return exitCodeOf(error);
}

/** The largest deadline a timer can hold: 2^31-1 ms (about 24.8 days). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** Parses `--timeout`: whole milliseconds from 1 to {@linkcode MAX_TIMEOUT_MS}. */
export function parseTimeout(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = /^[0-9]{1,16}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_TIMEOUT_MS) {
    throw new UsageError(
      `--timeout must be whole milliseconds from 1 to ${MAX_TIMEOUT_MS}, got ${
        JSON.stringify(value)
      }`,
    );
  }
  return n;
}

/**
 * Runs `work` with an AbortSignal that Ctrl-C (SIGINT) or SIGTERM aborts; a
 * second signal ends the CLI at once, after SIGKILL to every process group it
 * started (see `../_stop_signals.ts`).
 */
export async function withInterrupt<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const release = onStopSignal((signal) =>
    controller.abort(
      new DOMException(
        signal === "SIGINT" ? "interrupted (SIGINT)" : "terminated (SIGTERM)",
        "AbortError",
      ),
    )
  );
  try {
    return await work(controller.signal);
  } finally {
    release();
  }
}
