// Private: scrubbing secrets out of what `serve` sends, as JSON values: only
// strings change (never keys, numbers or structure), so a JSON-RPC message
// keeps its shape and a result with no secret in it is passed as it was.

/** Replaces secrets in a text (the CLI's redactor). */
export type Redact = (text: string) => string;

/** A copy of `value` with `redact` applied to every string in it (arrays and plain objects are copied). */
export function scrubValue<T>(value: T, redact: Redact): T {
  return visit(value, redact) as T;
}

// Runs on every result and access-log entry: plain loops, no entry arrays.
function visit(v: unknown, redact: Redact): unknown {
  if (typeof v === "string") return redact(v);
  if (typeof v !== "object" || v === null) return v;
  if (Array.isArray(v)) {
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = visit(v[i], redact);
    return out;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return v;
  const out: Record<string, unknown> = {};
  const source = v as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    const x = visit(source[key], redact);
    // An own "__proto__" key (JSON.parse makes one) stays a plain property.
    if (key === "__proto__") {
      Object.defineProperty(out, key, {
        value: x,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    } else out[key] = x;
  }
  return out;
}
