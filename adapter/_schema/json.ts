// Private: small JSON helpers shared by the adapters (no I/O, no mutation of inputs).

import { escapePointerToken, unescapePointerToken } from "../../model/json_pointer.ts";
import { isNonArrayObject } from "../../model/plain_object.ts";
import { depthError } from "./shape.ts";
import { MAX_VALUE_DEPTH } from "../limits.ts";

/** A plain JSON object. */
export type Obj = Record<string, unknown>;

/**
 * Sets an own data property, also for the key `__proto__`: on engines where
 * `Object.prototype.__proto__` is an accessor (Node, Bun, browsers) a plain
 * assignment of that key would replace the object's prototype instead.
 */
export function put(obj: Obj, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(obj, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } else obj[key] = value;
}

/** Thrown through a copy that goes too deep; collects the path on the way out. */
class TooDeep {
  /** The reference tokens from the deepest up (reversed). */
  readonly tokens: string[] = [];
}

function escTokens(tokens: string[]): string {
  let out = "";
  for (let i = tokens.length - 1; i >= 0; i--) out += `/${escapePointerToken(tokens[i])}`;
  return out;
}

function copy(value: unknown, depth: number): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (depth > MAX_VALUE_DEPTH) throw new TooDeep();
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    let i = 0;
    try {
      for (; i < value.length; i++) out[i] = copy(value[i], depth + 1);
    } catch (e) {
      if (e instanceof TooDeep) e.tokens.push(String(i));
      throw e;
    }
    return out;
  }
  const out: Obj = {};
  let key = "";
  try {
    for (key of Object.keys(value)) put(out, key, copy((value as Obj)[key], depth + 1));
  } catch (e) {
    if (e instanceof TooDeep) e.tokens.push(key);
    throw e;
  }
  return out;
}

/**
 * A deep copy of a JSON value (objects and arrays only; other values as they
 * are). Own `__proto__` keys stay data. `value` is at nesting `level` (1: the
 * value counts as the first level; 0 for a whole tool, whose schemas are level
 * 1); objects and arrays deeper than `MAX_VALUE_DEPTH` are refused with a
 * SchemaShapeError located at `at` (a JSON Pointer into the tool, `""` when
 * unknown) plus the path inside the value.
 */
export function clone<T>(value: T, at = "", level = 1): T {
  try {
    return copy(value, level) as T;
  } catch (e) {
    if (e instanceof TooDeep) {
      throw depthError(at + escTokens(e.tokens), MAX_VALUE_DEPTH, "levels of objects and arrays");
    }
    throw e;
  }
}

/** A new object with `fn` applied to each value of `obj`, keys in order. */
export function mapValues(obj: Obj, fn: (value: unknown, key: string) => unknown): Obj {
  const out: Obj = {};
  for (const [key, value] of Object.entries(obj)) put(out, key, fn(value, key));
  return out;
}

/**
 * Structural equality of JSON values (object key order ignored). Values
 * nested deeper than `MAX_VALUE_DEPTH` compare unequal.
 */
export function deepEqual(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (depth >= MAX_VALUE_DEPTH) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (isNonArrayObject(a) && isNonArrayObject(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const k of ka) {
      if (!Object.hasOwn(b, k) || !deepEqual(a[k], b[k], depth + 1)) return false;
    }
    return true;
  }
  return false;
}

/** Resolves a JSON Pointer ("" is the root) inside a value; `undefined` when absent. */
export function atPointer(root: unknown, pointer: string): unknown {
  if (pointer === "") return root;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split("/")) {
    const token = unescapePointerToken(raw);
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      node = node[Number(token)];
    } else if (isNonArrayObject(node)) {
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
