// Private: `checkModuleTool`, the load check `validate` runs on a module tool
// before anything runs. The module is imported in a child Deno process with
// no permissions at all (its top-level code runs there, never with the
// user's permissions), which reports the types of its exports. Its imports
// follow the tool's rule (`_module_imports.ts`): the check downloads no more
// than the tool could.

import { childEnv } from "../process/child_env.ts";
import { spawnGroup } from "../process/group.ts";
import { probeMainUrl } from "./_host.ts";
import { moduleToolDeno } from "./deno.ts";
import { importFlags, refusedImport, refusedImportText } from "./_imports.ts";
import type { ManifestGrant } from "./permissions.ts";

/** Why a module tool is certain to fail. */
export interface ModuleToolProblem {
  /** `missing` file, `unparsable` source, `unresolvable` import, `no_export`. */
  reason: "missing" | "unparsable" | "unresolvable" | "no_export";
  /** What is wrong, for a person. */
  message: string;
}

/** Options of {@linkcode checkModuleTool}. */
export interface CheckModuleToolOptions {
  /** The export to look for (default `default`). */
  export?: string;
  /** The `deno` executable (default: as module tools run). */
  deno?: string;
  /**
   * The tool's `net` grant: where its imports may come from (nowhere but the
   * cache without one; see `moduleHandler`).
   */
  net?: ManifestGrant;
  /** The tool's ID, for the advice of a refused import (default `"the tool"`). */
  toolId?: string;
  /** How long the import may take (default 15000 ms); past it, nothing is reported. */
  timeoutMs?: number;
  /** Cancels the check. */
  signal?: AbortSignal;
}

const STRIP_ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/**
 * Checks, before anything runs, that a module tool's file exists, parses,
 * resolves its imports and has a function export of the given name. The
 * module is imported in a sandbox without any permission and a 256 MB heap;
 * a failure that could depend on permissions (or a timeout) is not reported,
 * since only what is certain to fail is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkModuleTool } from "@toolfoundation/core/workspace";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/t.ts`, "export const run = () => 1;");
 * assert.equal(await checkModuleTool(`${dir}/t.ts`, { export: "run" }), undefined);
 * assert.equal((await checkModuleTool(`${dir}/t.ts`))?.reason, "no_export");
 * assert.equal((await checkModuleTool(`${dir}/nope.ts`))?.reason, "missing");
 * ```
 *
 * @param file The module's path.
 * @param options Export name, executable, time limit, signal.
 * @returns The problem, or `undefined` when none is certain.
 */
export async function checkModuleTool(
  file: string,
  options: CheckModuleToolOptions = {},
): Promise<ModuleToolProblem | undefined> {
  const exportName = options.export ?? "default";
  let real: string;
  try {
    const info = await Deno.stat(file);
    if (!info.isFile) return { reason: "missing", message: `${file} is not a file` };
    real = await Deno.realPath(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return { reason: "missing", message: `${file} does not exist` };
    }
    throw error;
  }
  const nonce = crypto.randomUUID().replaceAll("-", "");
  const child = spawnGroup(options.deno ?? moduleToolDeno(), {
    args: [
      "run",
      "--quiet",
      "--no-prompt",
      "--v8-flags=--max-old-space-size=256",
      ...importFlags(options.net),
      probeMainUrl(new URL(`file://${real}`).href),
      nonce,
    ],
    env: childEnv({ env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" } }),
    stdin: "null",
  });
  const timer = setTimeout(() => void child.stop(0), options.timeoutMs ?? 15000);
  const onAbort = () => void child.stop(0);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  let out: Deno.CommandOutput;
  try {
    out = await child.process.output();
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
  options.signal?.throwIfAborted();
  const stdout = new TextDecoder().decode(out.stdout.subarray(0, 1 << 20));
  const line = stdout.split("\n").find((l) => l.startsWith(`${nonce} `));
  if (line !== undefined) {
    const types = JSON.parse(line.slice(nonce.length + 1)).types as Record<string, string>;
    const type = Object.hasOwn(types, exportName) ? types[exportName] : undefined;
    if (type === "function") return undefined;
    const names = Object.keys(types).map((n) => JSON.stringify(n)).join(", ") || "none";
    return {
      reason: "no_export",
      message: type === undefined
        ? `${file} has no export ${JSON.stringify(exportName)} (its exports: ${names})`
        : `${file}: export ${JSON.stringify(exportName)} is a ${type}, not a function`,
    };
  }
  const stderr = new TextDecoder().decode(out.stderr).replace(STRIP_ANSI, "").trim();
  const first = stderr.split("\n").find((l) => l.trim() !== "") ?? "";
  const offline = importFlags(options.net)[0] === "--cached-only";
  const refused = refusedImport(stderr, offline);
  if (refused !== undefined) {
    return {
      reason: "unresolvable",
      message: `${file} cannot be loaded: ${refusedImportText(refused, options.toolId ?? "")}`,
    };
  }
  if (/could not be parsed|SyntaxError|Unexpected token|Expected /.test(first)) {
    return { reason: "unparsable", message: `${file} does not parse: ${first}` };
  }
  if (
    /Module not found|Relative import path|Import .* not a dependency|Cannot resolve/.test(first)
  ) {
    return { reason: "unresolvable", message: `${file} cannot be loaded: ${first}` };
  }
  return undefined; // a top-level failure that may depend on permissions, or a timeout
}
