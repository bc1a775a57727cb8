// Test helper: run code with and without `Object.prototype.__proto__`.
//
// Node, Bun and browsers have the accessor, so `obj["__proto__"] = v` sets the
// prototype there; Deno has it only with `--unstable-unsafe-proto` (without the
// flag its stand-in turns the assignment into an own property).
// These helpers make the tests that use them meaningful either way: they put
// the accessor in place (as V8 defines it) for the duration of a call when
// Deno has removed it, and take it away for the "plain" run.

import assert from "node:assert/strict";

const ORIGINAL = Object.getOwnPropertyDescriptor(Object.prototype, "__proto__");

/**
 * Whether the process has the engine's own accessor (Deno: with
 * `--unstable-unsafe-proto`; without it, Deno has a stand-in whose setter
 * defines an own property).
 */
export const UNSAFE_PROTO_FLAG: boolean = ORIGINAL?.set !== undefined &&
  String(ORIGINAL.set).includes("[native code]");

const ACCESSOR: PropertyDescriptor = UNSAFE_PROTO_FLAG ? ORIGINAL! : {
  get(this: object): object | null {
    return Object.getPrototypeOf(this);
  },
  set(this: object, proto: unknown): void {
    if (typeof proto === "object" || typeof proto === "function") {
      Object.setPrototypeOf(this, proto);
    }
  },
  enumerable: false,
  configurable: true,
};

function install(descriptor: PropertyDescriptor | undefined): void {
  if (descriptor === undefined) delete (Object.prototype as { __proto__?: unknown }).__proto__;
  else Object.defineProperty(Object.prototype, "__proto__", descriptor);
}

/** Runs `fn` where assigning `__proto__` sets the prototype (as on Node, Bun, browsers). */
export function withProtoAccessor<T>(fn: () => T): T {
  install(ACCESSOR);
  try {
    const probe: Record<string, unknown> = {};
    probe["__proto__"] = { inherited: true };
    assert.equal(Object.hasOwn(probe, "__proto__"), false, "the accessor is in place");
    return fn();
  } finally {
    install(ORIGINAL);
  }
}

/** Runs `fn` where `__proto__` is an ordinary key (Deno's default). */
export function withoutProtoAccessor<T>(fn: () => T): T {
  install(undefined);
  try {
    return fn();
  } finally {
    install(ORIGINAL);
  }
}

/**
 * The JSON Pointers of objects in `value` whose prototype is not the one a
 * JSON value has (`Object.prototype`, `Array.prototype`).
 */
export function foreignPrototypes(value: unknown, at = ""): string[] {
  if (typeof value !== "object" || value === null) return [];
  const proto = Object.getPrototypeOf(value);
  const out: string[] = [];
  if (proto !== (Array.isArray(value) ? Array.prototype : Object.prototype)) out.push(at);
  for (const key of Object.keys(value)) {
    out.push(...foreignPrototypes((value as Record<string, unknown>)[key], `${at}/${key}`));
  }
  return out;
}
