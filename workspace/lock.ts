/**
 * Pinning what was approved: `lock <manifest>` records each server tool's
 * definition (name, description, input and output schemas, annotations) with
 * its SHA-256 digest (of canonical JSON: keys sorted, no spaces) in a lock
 * file next to the manifest (`<manifest>.lock`). Commands that connect
 * compare what a server lists with it: a tool whose definition changed is
 * refused until `lock` runs again, a new tool is not exposed until locked,
 * and a removed one is reported. Without a lock file nothing is compared.
 *
 * @module
 */

import type { Tool } from "../model/mod.ts";
import { escapePointerToken } from "../model/json_pointer.ts";

/** The fields of a tool definition that are pinned. */
export const LOCKED_FIELDS = [
  "name",
  "description",
  "inputSchema",
  "outputSchema",
  "annotations",
] as const;

/** One pinned tool. */
export interface LockedTool {
  /** `sha256:<hex>` of the canonical JSON of `definition`. */
  digest: string;
  /** The pinned fields, as the server listed them. */
  definition: Record<string, unknown>;
}

/** A lock file. */
export interface LockFile {
  /** Format version. */
  version: 1;
  /** Pinned tools by server, then by the tool's name on the server. */
  servers: Record<string, Record<string, LockedTool>>;
}

/** The lock file of a manifest: `<manifest>.lock`, next to it. */
export function lockPath(manifestPath: string): string {
  return `${manifestPath}.lock`;
}

/**
 * JSON with object keys sorted at every level and no whitespace.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { canonicalJson } from "./lock.ts";
 *
 * assert.equal(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] }), '{"a":[{"c":3,"d":2}],"b":1}');
 * ```
 *
 * @param value A JSON value.
 * @returns Its canonical text.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const keys = Object.keys(value).filter((k) =>
      (value as Record<string, unknown>)[k] !== undefined
    ).sort();
    return `{${
      keys.map((k) =>
        `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`
      )
        .join(",")
    }}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The pinned fields of a tool as the server listed it. */
export function lockedDefinition(tool: Tool): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of LOCKED_FIELDS) {
    const v = (tool as unknown as Record<string, unknown>)[field];
    if (v !== undefined) out[field] = structuredClone(v);
  }
  return out;
}

/** `sha256:<hex>` of a definition's canonical JSON. */
export async function digestOf(definition: Record<string, unknown>): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalJson(definition));
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `sha256:${[...hash].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** Pins tools. */
export async function lockTools(tools: readonly Tool[]): Promise<Record<string, LockedTool>> {
  const out: Record<string, LockedTool> = {};
  for (const tool of [...tools].sort((a, b) => a.name.localeCompare(b.name))) {
    const definition = lockedDefinition(tool);
    out[tool.name] = { digest: await digestOf(definition), definition };
  }
  return out;
}

/** One difference between a pinned definition and the listed one. */
export interface LockDifference {
  /** A JSON Pointer into the definition (`/description`, `/inputSchema/properties/a/type`). */
  path: string;
  /** What it was (absent: `undefined`). */
  locked?: unknown;
  /** What it is now. */
  listed?: unknown;
}

/** The differences of two JSON values, as pointers (at most `limit`). */
export function differences(
  locked: unknown,
  listed: unknown,
  path = "",
  limit = 20,
  out: LockDifference[] = [],
): LockDifference[] {
  if (out.length >= limit) return out;
  const isObj = (v: unknown) => typeof v === "object" && v !== null;
  if (isObj(locked) && isObj(listed) && Array.isArray(locked) === Array.isArray(listed)) {
    const a = locked as Record<string, unknown>;
    const b = listed as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) {
      differences(a[k], b[k], `${path}/${escapePointerToken(k)}`, limit, out);
    }
    return out;
  }
  if (canonicalJson(locked) !== canonicalJson(listed)) {
    const d: LockDifference = { path: path || "/" };
    if (locked !== undefined) d.locked = locked;
    if (listed !== undefined) d.listed = listed;
    out.push(d);
  }
  return out;
}

/** What comparing one server's listing with the lock found. */
export interface LockComparison {
  /** Tools whose definition differs from the pinned one, with the differences. */
  changed: { name: string; differences: LockDifference[] }[];
  /** Tools the lock does not know. */
  added: string[];
  /** Pinned tools the server no longer lists. */
  removed: string[];
}

/** Compares a server's listed tools with what the lock pins for it. */
export async function compareWithLock(
  pinned: Readonly<Record<string, LockedTool>> | undefined,
  listed: readonly Tool[],
): Promise<LockComparison> {
  const out: LockComparison = { changed: [], added: [], removed: [] };
  const pins = pinned ?? {};
  for (const tool of listed) {
    if (!Object.hasOwn(pins, tool.name)) {
      out.added.push(tool.name);
      continue;
    }
    const definition = lockedDefinition(tool);
    if (await digestOf(definition) === pins[tool.name].digest) continue;
    out.changed.push({
      name: tool.name,
      differences: differences(pins[tool.name].definition, definition),
    });
  }
  const names = new Set(listed.map((t) => t.name));
  out.removed = Object.keys(pins).filter((n) => !names.has(n)).sort();
  return out;
}

/** A difference as one line: `description: "a" -> "b"`, `inputSchema/properties/x: added`. */
export function describeDifference(d: LockDifference): string {
  const short = (v: unknown) => {
    const text = JSON.stringify(v) ?? "undefined";
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  };
  const where = d.path.slice(1) || "(whole definition)";
  if (d.locked === undefined) return `${where}: added ${short(d.listed)}`;
  if (d.listed === undefined) return `${where}: removed (was ${short(d.locked)})`;
  return `${where}: ${short(d.locked)} -> ${short(d.listed)}`;
}

/**
 * Reads a lock file; `undefined` when there is none.
 *
 * @throws {Error} When it exists but cannot be read or is not a lock file.
 */
export async function readLock(path: string): Promise<LockFile | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  const value = JSON.parse(text) as LockFile;
  if (value?.version !== 1 || typeof value.servers !== "object" || value.servers === null) {
    throw new Error(`${path} is not a toolfoundation lock file (version 1); run lock again`);
  }
  return value;
}
