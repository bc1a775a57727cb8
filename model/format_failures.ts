/**
 * The one-line text of validation failures, as used in
 * `SchemaValidationError`'s message.
 *
 * @module
 */

import type { ValidationFailure } from "./errors.ts";

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
  return failures.map((f) => `${f.instanceLocation || "/"}: ${f.message}`).join("; ");
}
