/**
 * Where a value cannot be written as JSON text: the one place that looks for
 * what `JSON.stringify` cannot write (a BigInt, a cycle), so the runner (tool
 * arguments it sends) and the command line (results it prints) name the same
 * value at the same place. Each caller words the place its own way (a JSON
 * Pointer, a JSONPath-like location).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findUnencodable } from "@toolfoundation/core/model";
 *
 * assert.deepEqual(findUnencodable({ a: [1, 2n] }), { problem: "bigint", path: ["a", 1] });
 * assert.equal(findUnencodable({ a: [1, 2] }), undefined);
 * ```
 *
 * @module
 */

/** What `JSON.stringify` cannot write, and where. */
export interface Unencodable {
  /** `bigint`: a BigInt; `cycle`: a value that contains itself. */
  problem: "bigint" | "cycle";
  /** The path from the root: property names, and numbers for array indices. */
  path: (string | number)[];
}

/**
 * The first value (in document order) that `JSON.stringify` cannot write:
 * a BigInt, or an object or array that contains itself. A value with a
 * `toJSON` method is taken as written by it and not searched. Iterative, so a
 * deeply nested value is safe.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findUnencodable } from "@toolfoundation/core/model";
 *
 * const a: unknown[] = [1];
 * a.push(a);
 * assert.deepEqual(findUnencodable({ a }), { problem: "cycle", path: ["a", 1] });
 * ```
 *
 * @param value Any value.
 * @returns The problem and its path, or `undefined` when there is none found.
 */
export function findUnencodable(value: unknown): Unencodable | undefined {
  // Each entry links to its parent's, so a deep value costs no copied paths.
  interface Step {
    v: unknown;
    key: string | number | undefined;
    up: Step | undefined;
    leave?: object;
  }
  const pathOf = (step: Step): (string | number)[] => {
    const path: (string | number)[] = [];
    for (let s: Step | undefined = step; s?.up !== undefined; s = s.up) path.push(s.key!);
    return path.reverse();
  };
  const onPath = new Set<object>();
  const stack: Step[] = [{ v: value, key: undefined, up: undefined }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    const v = step.v;
    if (step.leave !== undefined) {
      onPath.delete(step.leave);
      continue;
    }
    if (typeof v === "bigint") return { problem: "bigint", path: pathOf(step) };
    if (typeof v !== "object" || v === null) continue;
    if (onPath.has(v)) return { problem: "cycle", path: pathOf(step) };
    if (typeof (v as { toJSON?: unknown }).toJSON === "function") continue;
    onPath.add(v);
    stack.push({ v: undefined, key: undefined, up: undefined, leave: v });
    // Pushed last to first, so the first entry is searched first.
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], key: i, up: step });
    } else {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        stack.push({ v: entries[i][1], key: entries[i][0], up: step });
      }
    }
  }
  return undefined;
}
