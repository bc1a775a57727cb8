// Private: the size budget of `$ref` inlining. Shared references can multiply
// when inlined (a definition that uses another twice, nested n deep, inlines
// 2^n copies), so a walk stops inlining once the schema nodes it has copied
// would exceed the profile's `limits.maxInlinedNodes`.

import { isNonArrayObject } from "../../model/plain_object.ts";

/** The budget when a profile names none. */
export const DEFAULT_MAX_INLINED_NODES = 10_000;

/** The number of schema nodes (objects, arrays and booleans) in a value (iteratively: any depth). */
function countNodes(value: unknown): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      count++;
      for (const item of node) stack.push(item);
    } else if (isNonArrayObject(node)) {
      count++;
      for (const [key, item] of Object.entries(node)) {
        if (key !== "enum" && key !== "const" && key !== "default" && key !== "examples") {
          stack.push(item);
        }
      }
    } else if (typeof node === "boolean") count++;
  }
  return count;
}

/** The nodes a walk may still copy by inlining. */
export class InlineBudget {
  #used = 0;
  readonly #sizes = new Map<string, number>();
  constructor(readonly max: number) {}

  /** Charges the inlining of the schema at `target`; `false` when it does not fit. */
  take(target: string, schema: unknown): boolean {
    let size = this.#sizes.get(target);
    if (size === undefined) this.#sizes.set(target, size = countNodes(schema));
    if (this.#used + size > this.max) return false;
    this.#used += size;
    return true;
  }
}
