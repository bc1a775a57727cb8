// Private: turns what a module tool's process reported (`HostOutcome`) into
// the call's result or a typed error: too large, sandbox denial (naming the
// grant to change), a thrown error, a process that died.

import { ExecutionError, OutputTooLargeError, SandboxDeniedError } from "../errors.ts";
import type { ToolContext } from "../local.ts";
import { resolvePath } from "./paths.ts";
import { refusedImport, refusedImportText } from "./_imports.ts";

/** How a call or the process ended, as the host reported it. */
export type HostOutcome =
  | { kind: "result"; value: unknown }
  | {
    kind: "error";
    name: string;
    message: string;
    stack?: string;
    denied?: { name: string; value?: string };
    unserializable?: boolean;
  }
  | { kind: "too_large"; bytes?: number }
  | { kind: "died"; reason: string; oom: boolean; stderr: string };

/**
 * Why a module tool process ended, from its last message (exit, uncaught,
 * fatal), its stderr (out of memory) or its exit status.
 */
export function deathOf(
  words: Record<string, unknown> | undefined,
  stderr: string,
  status: Deno.CommandStatus,
  memoryMb: number,
): { reason: string; oom: boolean } {
  const oom = /out of memory|Reached heap limit|Allocation failed/i.test(stderr);
  if (words?.type === "exit") {
    return { reason: `the module called Deno.exit(${words.code})`, oom: false };
  } else if (words?.type === "uncaught") {
    return { reason: `${words.kind}: ${words.name}: ${words.message}`, oom: false };
  } else if (words?.type === "fatal") {
    return { reason: String(words.message), oom: false };
  } else if (oom) {
    return {
      reason: `ran out of memory (its heap limit is ${memoryMb} MB; raise the tool's memoryMb)`,
      oom: true,
    };
  } else {
    const how = status.signal !== null
      ? `was killed by ${status.signal}`
      : `exited with code ${status.code}`;
    return { reason: `its process ${how}`, oom: false };
  }
}

function absolute(path: string): string {
  return path.startsWith("/") ? path : `${Deno.cwd()}/${path}`.replace(/\/\.?$/, "");
}

/** Says which grant to change for a sandbox denial. */
function grantAdvice(denied: { name: string; value?: string }, dir: string, tool: string): string {
  if (!["read", "write", "net", "env", "run"].includes(denied.name)) {
    return `module tools cannot be granted ${denied.name} access`;
  }
  let value = denied.value;
  if (value !== undefined && (denied.name === "read" || denied.name === "write")) {
    const base = absolute(resolvePath(dir, "."));
    if (value.startsWith(`${base}/`)) value = `./${value.slice(base.length + 1)}`;
  }
  return value === undefined
    ? `set permissions.${denied.name} of tool ${JSON.stringify(tool)} in the manifest`
    : `add ${JSON.stringify(value)} to permissions.${denied.name} of tool ${
      JSON.stringify(tool)
    } in the manifest`;
}

/** The result of a call, or the error it becomes. */
export function translate(
  outcome: HostOutcome,
  ctx: ToolContext,
  o: { dir: string; cap: number; loading: boolean; offline?: boolean },
): unknown {
  const toolId = ctx.toolId;
  switch (outcome.kind) {
    case "result":
      return outcome.value;
    case "too_large":
      throw new OutputTooLargeError(o.cap, { toolId });
    case "error": {
      if (outcome.denied?.name === "import" && outcome.denied.value !== undefined) {
        const host = outcome.denied.value;
        throw new SandboxDeniedError(
          refusedImportText({ kind: "host", what: host, host }, toolId),
          { toolId },
        );
      }
      const uncached = o.offline === true && outcome.name === "TypeError"
        ? refusedImport(outcome.message, true)
        : undefined;
      if (uncached?.kind === "cache") {
        throw new SandboxDeniedError(refusedImportText(uncached, toolId), { toolId });
      }
      if (outcome.denied !== undefined) {
        throw new SandboxDeniedError(
          `${
            outcome.message.replace(/, run again with the --allow-\w+ flag\.?$/, "")
          }; the tool's permissions do not cover it: ${grantAdvice(outcome.denied, o.dir, toolId)}`,
          { toolId },
        );
      }
      throw new ExecutionError(
        outcome.unserializable
          ? `its result cannot be represented as JSON (${outcome.name}: ${outcome.message})`
          : `${outcome.name}: ${outcome.message}`,
        { toolId, details: { stack: outcome.stack } },
      );
    }
    case "died": {
      // A static import the rule refused ends the process before any module runs:
      // Deno's own message on stderr, not one the tool's code raised (the host reports those).
      const refused = o.loading && /^its process /.test(outcome.reason)
        ? refusedImport(outcome.stderr, o.offline === true)
        : undefined;
      if (refused !== undefined) {
        throw new SandboxDeniedError(refusedImportText(refused, toolId), { toolId });
      }
      const structured = !/^its process /.test(outcome.reason);
      const stderr = outcome.stderr.trim();
      const detail = structured || stderr === "" ? outcome.reason : `${outcome.reason}: ${stderr}`;
      throw new ExecutionError(o.loading ? `the module failed to load: ${detail}` : detail, {
        toolId,
        details: { stderr: outcome.stderr, outOfMemory: outcome.oom },
      });
    }
  }
}
