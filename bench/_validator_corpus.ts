// The validator benchmark's corpus: every MCP tool schema the tests already
// use (each `inputSchema` and `outputSchema` of the recorded conversion
// snapshots and of the real npm MCP servers' tools/list output), each with a
// minimal valid instance and an invalid one derived from it.

import { CASES } from "./_schemas.ts";
import { unescapePointerToken } from "../model/mod.ts";

/** A schema with one valid and one invalid instance. */
export interface CorpusCase {
  /** Where it comes from. */
  name: string;
  /** The schema. */
  schema: Record<string, unknown> | boolean;
  /** A minimal instance meant to be valid (checked by the caller). */
  valid: unknown;
  /** An instance meant to be invalid (checked by the caller). */
  invalid: unknown;
}

const FIXTURES = new URL("../tests/fixtures/adapter/", import.meta.url);
const FILES = [
  ...["builtins", "cases", "golden_sources", "seed_examples", "server_everything"]
    .map((f) => `snapshots/${f}.json`),
  "snapshots/server_filesystem.json",
  "snapshots/server_memory.json",
  "mcp_servers/server_everything.json",
  "mcp_servers/server_filesystem.json",
  "mcp_servers/server_memory.json",
];

function collect(value: unknown, out: Record<string, unknown>[]): void {
  if (Array.isArray(value)) {
    for (const item of value) collect(item, out);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (
        (key === "inputSchema" || key === "outputSchema") && typeof item === "object" &&
        item !== null && !Array.isArray(item)
      ) {
        out.push(item as Record<string, unknown>);
      } else {
        collect(item, out);
      }
    }
  }
}

async function readRecords(file: string): Promise<unknown[]> {
  const text = await Deno.readTextFile(new URL(file, FIXTURES));
  try {
    return [JSON.parse(text)];
  } catch {
    return text.split("\n").flatMap((line) => {
      try {
        return [JSON.parse(line.replace(/,\s*$/, ""))];
      } catch {
        return [];
      }
    });
  }
}

/** Every `inputSchema` and `outputSchema` in the fixtures (duplicates kept, as tools repeat). */
export async function realSchemas(): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (const file of FILES) collect(await readRecords(file), out);
  return out;
}

type Schema = Record<string, unknown> | boolean;

function resolve(schema: Schema, root: Schema): Schema {
  let current = schema;
  for (let i = 0; i < 20 && typeof current === "object" && typeof current.$ref === "string"; i++) {
    const ref = current.$ref as string;
    if (!ref.startsWith("#")) return current;
    let target: unknown = root;
    for (const token of ref.slice(1).split("/").slice(1)) {
      target = (target as Record<string, unknown> | undefined)?.[
        unescapePointerToken(decodeURIComponent(token))
      ];
    }
    if (typeof target !== "object" && typeof target !== "boolean") return current;
    current = target as Schema;
  }
  return current;
}

/** A small instance meant to satisfy `schema` (best effort: callers check it). */
export function minimalInstance(schema: Schema, root: Schema = schema, depth = 0): unknown {
  const s = resolve(schema, root);
  if (typeof s === "boolean" || depth > 8) return null;
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const branch = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  const types = Array.isArray(s.type) ? s.type : s.type === undefined ? [] : [s.type];
  let type = types.find((t) => t !== "null") ?? types[0];
  if (type === undefined) {
    if (branch !== undefined && branch.length > 0) {
      return minimalInstance(branch[0], root, depth + 1);
    }
    if (Array.isArray(s.allOf) && s.allOf.length > 0) {
      return minimalInstance(s.allOf[0] as Schema, root, depth + 1);
    }
    type = s.properties || s.required ? "object" : s.items ? "array" : "string";
  }
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      const properties = (s.properties ?? {}) as Record<string, Schema>;
      for (const name of (s.required ?? []) as string[]) {
        out[name] = properties[name] === undefined
          ? "x"
          : minimalInstance(properties[name], root, depth + 1);
      }
      return out;
    }
    case "array": {
      const items = (s.items ?? true) as Schema;
      const count = typeof s.minItems === "number" ? s.minItems : 0;
      return Array.from({ length: count }, () => minimalInstance(items, root, depth + 1));
    }
    case "string":
      return "a".repeat(typeof s.minLength === "number" ? s.minLength : 1);
    case "integer":
    case "number": {
      const min = typeof s.minimum === "number"
        ? s.minimum
        : typeof s.exclusiveMinimum === "number"
        ? Math.floor(s.exclusiveMinimum) + 1
        : 1;
      return Math.max(min, Math.min(1, typeof s.maximum === "number" ? s.maximum : 1));
    }
    case "boolean":
      return true;
    default:
      return null;
  }
}

/** An instance derived from a valid one that breaks `schema` (best effort: callers check it). */
export function invalidInstance(schema: Schema, valid: unknown, root: Schema = schema): unknown {
  const s = resolve(schema, root);
  if (typeof s === "boolean") return s ? undefined : 1;
  const properties = s.properties as Record<string, Schema> | undefined;
  if (
    typeof valid === "object" && valid !== null && !Array.isArray(valid) && properties &&
    Object.keys(properties).length > 0
  ) {
    // Every declared property with a value of the wrong type.
    const out: Record<string, unknown> = { ...valid };
    for (const [name, property] of Object.entries(properties)) {
      const p = resolve(property, root);
      const type = typeof p === "object" ? p.type : undefined;
      out[name] = type === "string" || (Array.isArray(type) && type.includes("string"))
        ? 12345
        : "wrong";
    }
    return out;
  }
  return typeof valid === "string" ? 12345 : "wrong";
}

/** The bench's seed cases and every real schema, with their instances. */
export async function corpus(): Promise<{ seeds: CorpusCase[]; real: CorpusCase[] }> {
  const seeds = CASES.map((c) => ({ ...c }));
  const real = (await realSchemas()).map((schema, i) => {
    const valid = minimalInstance(schema);
    return { name: `real ${i}`, schema, valid, invalid: invalidInstance(schema, valid) };
  });
  return { seeds, real };
}
