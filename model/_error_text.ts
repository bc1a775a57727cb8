// Private: the messages of the model's error classes (`errors.ts`): what is
// wrong, where, and how to fix it.

import {
  formatFailures,
  formatIssues,
  type ToolIssue,
  type ValidationFailure,
} from "./format_failures.ts";

/** `invalid tool: /name: ...; /version: ...`. */
export function invalidToolMessage(issues: readonly ToolIssue[]): string {
  return `invalid tool: ${formatIssues(issues)}`;
}

/** Which pattern, where, and why it cannot run in bounded time. */
export function unsupportedPatternMessage(
  pattern: string,
  keywordLocation: string,
  reason: string,
): string {
  return `the regular expression ${JSON.stringify(pattern)} at ${
    keywordLocation || "/"
  } cannot run in bounded time: ${reason}`;
}

/** The dialect found and the supported ones. */
export function unsupportedSchemaMessage(dialect: string, supported: readonly string[]): string {
  return `unsupported JSON Schema dialect ${JSON.stringify(dialect)}; supported: ${
    supported.join(", ")
  }`;
}

/** The reference, where it resolves to, and how to pass the document instead. */
export function externalRefMessage(ref: string, uri: string): string {
  return `external $ref resolution is disabled: ${JSON.stringify(ref)}` +
    (ref === uri ? "" : ` (resolves to ${uri})`) +
    "; pass the document in memory with `new DefaultValidator({ schemas })`";
}

/** `<subject> is invalid: <failures>` (subject default `value`). */
export function schemaValidationMessage(
  subject: string | undefined,
  failures: readonly ValidationFailure[],
): string {
  return `${subject ?? "value"} is invalid: ${formatFailures(failures)}`;
}

/** The limit, where it was exceeded, and how to fix it. */
export function instanceDepthMessage(maxDepth: number, instanceLocation: string): string {
  return `value nests deeper than ${maxDepth} levels at ${
    instanceLocation || "/"
  }; flatten it or raise the validator's maxDepth`;
}
