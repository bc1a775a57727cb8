/**
 * The two object checks every layer shares: a non-array object (for the
 * structural checks of parsed JSON and YAML and of user-given records), and a
 * plain JSON object (for the validator, which must tell JSON values from class
 * instances such as `Date` or `Map`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isNonArrayObject, isPlainObject } from "@toolfoundation/core/model";
 *
 * assert.equal(isNonArrayObject(new Map()), true);
 * assert.equal(isPlainObject(new Map()), false);
 * assert.equal(isPlainObject(JSON.parse('{"a":1}')), true);
 * ```
 *
 * @module
 */

/**
 * Whether a value is a non-null, non-array object, whatever its prototype.
 * For structural checks of parsed JSON/YAML and of user-given records (tool
 * records, backends, manifests, MCP answers, schemas in the adapters).
 *
 * @param value Any value.
 * @returns `true` for objects other than `null` and arrays.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isNonArrayObject } from "@toolfoundation/core/model";
 *
 * assert.equal(isNonArrayObject({ a: 1 }), true);
 * assert.equal(isNonArrayObject([1]), false);
 * assert.equal(isNonArrayObject(null), false);
 * ```
 */
export function isNonArrayObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Whether a value is a plain JSON object: a non-array object whose prototype
 * is `Object.prototype` or `null` (class instances such as `Date` or `Map` are
 * not). For the validator, which must tell JSON values from other values.
 *
 * @param value Any value.
 * @returns `true` for non-array objects whose prototype is `Object.prototype` or `null`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isPlainObject } from "@toolfoundation/core/model";
 *
 * assert.equal(isPlainObject(Object.create(null)), true);
 * assert.equal(isPlainObject(new Date(0)), false);
 * ```
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isNonArrayObject(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
