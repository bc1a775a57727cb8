/**
 * Validation failures and tool issues: the records, and the one place that
 * words them as text (`<location>: <message>`, joined with `; `), so an error
 * message, a gateway answer and a manifest check say the same thing.
 *
 * @module
 */

/** One reason an instance does not match a schema. */
export interface ValidationFailure {
  /** JSON Pointer into the instance, `""` for the root. */
  instanceLocation: string;
  /** JSON Pointer to the failing keyword inside the schema document that holds it. */
  keywordLocation: string;
  /** Absolute URI of the failing keyword, including the document it lives in. */
  absoluteKeywordLocation: string;
  /** The failing keyword, e.g. `required` or `minimum`. */
  keyword: string;
  /** A human message, e.g. `must have required property 'to'`. */
  message: string;
}

/** One problem found in a tool definition. */
export interface ToolIssue {
  /** JSON Pointer to the offending field, e.g. `/name` or `/inputSchema/type`. */
  path: string;
  /** What is wrong and how to fix it. */
  message: string;
}

/**
 * The text of one validation failure: where in the instance (`/` for the
 * root), then what is wrong.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatFailure } from "@toolfoundation/core/model";
 *
 * const text = formatFailure({
 *   instanceLocation: "/to",
 *   keywordLocation: "/properties/to/type",
 *   absoluteKeywordLocation: "#/properties/to/type",
 *   keyword: "type",
 *   message: "must be string",
 * });
 * assert.equal(text, "/to: must be string");
 * ```
 *
 * @param failure The failure.
 * @returns `<instanceLocation or "/">: <message>`.
 */
export function formatFailure(failure: ValidationFailure): string {
  return `${failure.instanceLocation || "/"}: ${failure.message}`;
}

/**
 * Turns validation failures into one compact line, e.g.
 * `/to: must be string; /: must have required property 'subject'`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatFailures } from "@toolfoundation/core/model";
 *
 * const text = formatFailures([{
 *   instanceLocation: "",
 *   keywordLocation: "/required",
 *   absoluteKeywordLocation: "#/required",
 *   keyword: "required",
 *   message: "must have required property 'to'",
 * }]);
 * assert.equal(text, "/: must have required property 'to'");
 * ```
 *
 * @param failures The failures to format.
 * @returns One line, failures separated by `; `.
 */
export function formatFailures(failures: readonly ValidationFailure[]): string {
  return failures.map(formatFailure).join("; ");
}

/**
 * Turns the issues of a tool definition into one compact line, e.g.
 * `/name: must not be empty; /inputSchema: must be an object`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatIssues } from "@toolfoundation/core/model";
 *
 * assert.equal(
 *   formatIssues([{ path: "", message: "must be an object" }, { path: "/name", message: "is empty" }]),
 *   "/: must be an object; /name: is empty",
 * );
 * ```
 *
 * @param issues The issues to format.
 * @returns One line, `<path or "/">: <message>` separated by `; `.
 */
export function formatIssues(issues: readonly ToolIssue[]): string {
  return issues.map((i) => `${i.path || "/"}: ${i.message}`).join("; ");
}
