// Private: small JSON helpers shared by the adapters (no I/O, no mutation of inputs).

/** A plain JSON object. */
export type Obj = Record<string, unknown>;

/** Whether a value is a plain (non-array, non-null) object. */
export function isObj(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A deep copy of a JSON value (objects and arrays only; other values as they are). */
export function clone<T>(value: T): T {
  if (Array.isArray(value)) return value.map(clone) as T;
  if (isObj(value)) {
    const out: Obj = {};
    for (const key of Object.keys(value)) out[key] = clone(value[key]);
    return out as T;
  }
  return value;
}

/** A new object with `fn` applied to each value of `obj`, keys in order. */
export function mapValues(obj: Obj, fn: (value: unknown) => unknown): Obj {
  const out: Obj = {};
  for (const [key, value] of Object.entries(obj)) out[key] = fn(value);
  return out;
}

/** Structural equality of JSON values (object key order ignored). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const k of ka) if (!(k in b) || !deepEqual(a[k], b[k])) return false;
    return true;
  }
  return false;
}

/** Escapes one JSON Pointer reference token. */
export function esc(token: string): string {
  return token.indexOf("~") < 0 && token.indexOf("/") < 0
    ? token
    : token.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** Unescapes one JSON Pointer reference token. */
export function unesc(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

/** Resolves a JSON Pointer ("" is the root) inside a value; `undefined` when absent. */
export function atPointer(root: unknown, pointer: string): unknown {
  if (pointer === "") return root;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split("/")) {
    const token = unesc(raw);
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      node = node[Number(token)];
    } else if (isObj(node)) {
      if (!Object.hasOwn(node, token)) return undefined;
      node = node[token];
    } else return undefined;
  }
  return node;
}

/** FNV-1a 32-bit hash of a string, as 8 lowercase hex digits. */
export function hash8(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

/** A short JSON rendering of a value for messages and descriptions. */
export function show(value: unknown, max = 80): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
