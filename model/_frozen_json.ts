// Private: whether a value can never change again as JSON, so that a cache
// keyed by its identity needs no re-check of its text. True only for
// primitives and for plain objects and arrays that are frozen, hold data
// properties only (no getters: a frozen getter can answer differently) and
// whose every reachable value is such a value too. Freezing cannot be undone,
// so the answer, once true, stays true. Functions, other prototypes (a
// `toJSON` or a class), typed arrays, cycles and nesting deeper than the
// limit answer false: their text is checked as before.

const OBJECT = Object.prototype;
const ARRAY = Array.prototype;

/**
 * Whether `value` is deep-frozen plain JSON data (see the file's comment).
 *
 * @param value The value.
 * @param maxDepth How deep objects may nest before the answer is false.
 * @returns True when the value's JSON text cannot change.
 */
export function frozenJson(value: unknown, maxDepth = 512): boolean {
  return walk(value, maxDepth, new Set());
}

function walk(value: unknown, depth: number, open: Set<object>): boolean {
  if (typeof value !== "object") return typeof value !== "function";
  if (value === null) return true;
  if (depth <= 0 || open.has(value) || !Object.isFrozen(value)) return false;
  const proto = Object.getPrototypeOf(value);
  if (proto !== OBJECT && proto !== ARRAY && proto !== null) return false;
  if (proto !== ARRAY && Object.hasOwn(value, "toJSON")) return false;
  open.add(value);
  const descriptors = Object.getOwnPropertyDescriptors(value);
  for (const key of Reflect.ownKeys(descriptors)) {
    const descriptor = descriptors[key as keyof typeof descriptors];
    if (!("value" in descriptor)) return false;
    if (!walk(descriptor.value, depth - 1, open)) return false;
  }
  open.delete(value);
  return true;
}
