// Private: a run error (by its code) as a failure the model can act on.

import type { McpContentBlock } from "../run/mod.ts";
import { argumentIssues, type ToolFailure } from "./failure.ts";

/** What the mapping needs to know of the call. */
export interface FailureSite {
  /** The tool name the model used. */
  toolName: string;
  /** Cleans a text for the model (secrets, stack traces, length). */
  clean: (text: string) => string;
  /** The failure of an unknown tool. */
  unknown: (cause: unknown) => ToolFailure;
}

/** The failure of a call whose run threw `error`. */
export function failureOf(error: unknown, site: FailureSite): ToolFailure {
  const e = error as {
    code?: unknown;
    message?: unknown;
    failures?: unknown;
    timeoutMs?: unknown;
    limitBytes?: unknown;
    content?: unknown;
  };
  const message = typeof e?.message === "string" ? e.message : String(error);
  const detail = (prefix: RegExp) => site.clean(message.replace(prefix, ""));
  const base = { cause: error };
  switch (e?.code) {
    case "input_validation":
    case "schema_validation": {
      const issues = argumentIssues(Array.isArray(e.failures) ? e.failures : []);
      return {
        ...base,
        code: "invalid_arguments",
        message: `the arguments do not match the input schema of ${
          JSON.stringify(site.toolName)
        } (${issues.length} problem${issues.length === 1 ? "" : "s"}); fix them and call again`,
        issues,
      };
    }
    case "tool_not_found":
    case "invalid_tool_id":
      return site.unknown(error);
    case "timeout":
      return {
        ...base,
        code: "timeout",
        message: `the tool did not finish within ${e.timeoutMs} ms and was stopped`,
      };
    case "tool_error": {
      const content = Array.isArray(e.content) ? e.content as McpContentBlock[] : [];
      const text = content.filter((b) => b?.type === "text" && typeof b.text === "string")
        .map((b) => b.text as string).join("\n");
      return {
        ...base,
        code: "tool_error",
        message: `the tool reported an error: ${text === "" ? "(no text)" : site.clean(text)}`,
        content,
      };
    }
    case "output_validation":
      return {
        ...base,
        code: "invalid_result",
        message: "the tool ran, but its result does not match its output schema",
      };
    case "output_too_large":
      return {
        ...base,
        code: "output_too_large",
        message: `the tool's output was larger than ${e.limitBytes} bytes and was not read`,
      };
    case "permission_denied": {
      // What to change is the operator's business (paths of their machine,
      // the manifest's grants): the model hears which kind of access was
      // refused and that repeating the call will not help; the operator's
      // note (stderr, the error's cause) keeps the whole message.
      const kind = /\bRequires (\w+) access\b/.exec(message)?.[1];
      return {
        ...base,
        code: "not_permitted",
        message: `the tool was refused ${
          kind === undefined ? "an operation" : `${kind} access`
        } it needs by the sandbox the operator set; the same call will fail the same way`,
      };
    }
    case "no_backend":
      return { ...base, code: "unavailable", message: "the tool cannot run here right now" };
    case "cancelled":
      return { ...base, code: "cancelled", message: "the call was cancelled" };
    default:
      return {
        ...base,
        code: "execution",
        message: `the tool failed: ${detail(/^(tool "[^"]*" failed|execution failed): /)}`,
      };
  }
}
