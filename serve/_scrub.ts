// Private: scrubbing secrets out of what `serve` sends, as JSON values: only
// strings change (never keys, numbers or structure), so a JSON-RPC message
// keeps its shape and a result with no secret in it is passed as it was.

/** Replaces secrets in a text (the CLI's redactor). */
export type Redact = (text: string) => string;

/** A copy of `value` with `redact` applied to every string in it (arrays and plain objects are copied). */
export function scrubValue<T>(value: T, redact: Redact): T {
  const visit = (v: unknown): unknown => {
    if (typeof v === "string") return redact(v);
    if (Array.isArray(v)) return v.map(visit);
    if (typeof v === "object" && v !== null) {
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) return v;
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, visit(x)]));
    }
    return v;
  };
  return visit(value) as T;
}
