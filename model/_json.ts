// Private: JSON helpers for the validator (canonical keys, instance checks).

import { InvalidSchemaError, type ValidationFailure } from "./errors.ts";
import type { JsonSchema } from "./tool.ts";
import { escapePointerToken } from "./json_pointer.ts";
import { isPlainObject } from "./plain_object.ts";

/** JSON text with object keys sorted at every level: equal schemas give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** What is wrong with an instance before it reaches the validator, if anything. */
export interface InstanceProblem {
  /** Set when the value nests deeper than the limit. */
  depth: boolean;
  /** JSON Pointer of the offending value. */
  location: string;
  /** The failure to report when the value is not JSON. */
  failure?: ValidationFailure;
}

function describe(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
      return undefined;
    case "number":
      return Number.isFinite(value) ? undefined : `${value}`;
    case "object":
      if (value === null || Array.isArray(value) || isPlainObject(value)) return undefined;
      return `a ${value.constructor?.name ?? "non-plain"} object`;
    default:
      return typeof value;
  }
}

/**
 * Checks nesting depth and JSON-ness without recursion (a cyclic value is
 * reported as too deep). Returns `undefined` when the value is fine.
 */
export function checkInstance(value: unknown, maxDepth: number): InstanceProblem | undefined {
  const stack: [unknown, number, string][] = [[value, 0, ""]];
  while (stack.length > 0) {
    const [current, depth, location] = stack.pop()!;
    if (typeof current !== "object" || current === null) {
      const bad = describe(current);
      if (bad !== undefined) return notJson(location, bad);
      continue;
    }
    if (depth >= maxDepth) return { depth: true, location };
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) {
        stack.push([current[i], depth + 1, `${location}/${i}`]);
      }
    } else if (isPlainObject(current)) {
      const keys = Object.getOwnPropertyNames(current);
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push([current[keys[i]], depth + 1, `${location}/${escapePointerToken(keys[i])}`]);
      }
    } else {
      return notJson(location, describe(current)!);
    }
  }
  return undefined;
}

function notJson(location: string, what: string): InstanceProblem {
  return {
    depth: false,
    location,
    failure: {
      instanceLocation: location,
      keywordLocation: "",
      absoluteKeywordLocation: "",
      keyword: "",
      message: `must be a JSON value, found ${what}`,
    },
  };
}

/** Parses a schema given as an object, a boolean, JSON text or bytes. */
export function parseSchema(input: JsonSchema | string | Uint8Array): JsonSchema {
  if (typeof input === "boolean" || isPlainObject(input)) return input as JsonSchema;
  if (typeof input === "string" || input instanceof Uint8Array) {
    const text = typeof input === "string" ? input : new TextDecoder().decode(input);
    if (text.trim() === "") throw new InvalidSchemaError("the schema text is empty");
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (cause) {
      throw new InvalidSchemaError(`the schema is not valid JSON (${(cause as Error).message})`, {
        cause,
      });
    }
    if (typeof value === "boolean" || isPlainObject(value)) return value as JsonSchema;
    throw new InvalidSchemaError(`a schema must be an object or a boolean, found ${typeOf(value)}`);
  }
  throw new InvalidSchemaError(
    `a schema must be an object, a boolean, JSON text or bytes, found ${typeOf(input)}`,
  );
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/**
 * The value with every own property of its objects enumerable: the value
 * itself when none of its objects has a non-enumerable own property (what
 * `JSON.parse` makes), else a copy. The validator's members of an object are
 * its own names, enumerable or not (what the fast check, the generated
 * failures and the JSON check list, with `Object.getOwnPropertyNames`);
 * Hyperjump lists them with `Object.keys`, so it is given this. For a JSON
 * value within the depth limit (the JSON check passed): iterative, no cycles.
 */
export function allMembersEnumerable(value: unknown): unknown {
  if (!hasHidden(value)) return value;
  const root = shell(value);
  const stack: [unknown, unknown][] = [[value, root]];
  while (stack.length > 0) {
    const [from, to] = stack.pop()! as [Record<string, unknown>, Record<string, unknown>];
    const names = Array.isArray(from) ? from.keys() : Object.getOwnPropertyNames(from);
    for (const name of names) {
      const member = from[name as string];
      const copy = shell(member);
      Object.defineProperty(to, name, {
        value: copy,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      if (copy !== member) stack.push([member, copy]);
    }
  }
  return root;
}

/** Whether an object in the value has a non-enumerable own property (arrays: by index only). */
function hasHidden(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current !== "object" || current === null) continue;
    if (Array.isArray(current)) {
      for (let i = 0; i < current.length; i++) stack.push(current[i]);
      continue;
    }
    const names = Object.getOwnPropertyNames(current);
    if (names.length !== Object.keys(current).length) return true;
    for (const name of names) stack.push((current as Record<string, unknown>)[name]);
  }
  return false;
}

/** An empty container like `value` (same prototype), or a primitive itself. */
function shell(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return new Array(value.length);
  return Object.create(Object.getPrototypeOf(value));
}
