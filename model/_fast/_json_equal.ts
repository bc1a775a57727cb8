// Private: JSON equality exactly as Hyperjump decides it for `enum`, `const`
// and `uniqueItems` (its `deterministicStringify`: object keys sorted, numbers
// as JSON prints them), for instances that are plain JSON values.

/** JSON text with object keys sorted at every level (Hyperjump's deterministic form). */
export function sortedJson(value: unknown): string {
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ",";
      out += sortedJson(value[i]) ?? "null";
    }
    return out + "]";
  }
  let out = "{";
  const object = value as Record<string, unknown>;
  for (const key of Object.getOwnPropertyNames(object).sort()) {
    const text = sortedJson(object[key]);
    if (text === undefined) continue;
    if (out.length > 1) out += ",";
    out += JSON.stringify(key) + ":" + text;
  }
  return out + "}";
}

/**
 * A membership test for a list of JSON values: primitives compared directly
 * (`-0` equals `0`, as in their JSON text), arrays and objects by their sorted
 * JSON text.
 */
export function jsonMembership(values: readonly unknown[]): (value: unknown) => boolean {
  const primitives = new Set<unknown>();
  const composites = new Set<string>();
  for (const value of values) {
    if (typeof value === "object" && value !== null) composites.add(sortedJson(value));
    else primitives.add(value);
  }
  if (composites.size === 0) {
    if (primitives.size === 1) {
      const [only] = primitives;
      return (value) => value === only;
    }
    return (value) => primitives.has(value);
  }
  return (value) =>
    typeof value === "object" && value !== null
      ? composites.has(sortedJson(value))
      : primitives.has(value);
}

/** Whether every item of a JSON array is distinct (Hyperjump's `uniqueItems`). */
export function allDistinct(items: readonly unknown[]): boolean {
  const primitives = new Set<unknown>();
  let composites: Set<string> | undefined;
  for (const item of items) {
    if (typeof item === "object" && item !== null) {
      const key = sortedJson(item);
      composites ??= new Set();
      if (composites.has(key)) return false;
      composites.add(key);
    } else {
      if (primitives.has(item)) return false;
      primitives.add(item);
    }
  }
  return true;
}
