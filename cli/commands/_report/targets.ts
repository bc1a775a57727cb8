// The columns of the schema-loss report: each provider format the adapters
// write, OpenAI twice (its default "auto" strict mode and `--strict`), and
// where each format keeps the parts of a tool, so that a warning located in
// the canonical tool can be found again in the converted one.

import type { ConvertOptions } from "../../../adapter/mod.ts";

/** One column of the report: a format and the options it is converted with. */
export interface ReportTarget {
  /** Stable ID, used in URL fragments and `--target` (e.g. `openai-strict`). */
  id: string;
  /** What the column says, as the `convert` command line would (e.g. `openai --strict`). */
  label: string;
  /** The adapter's format name. */
  format: string;
  /** Conversion options of the column. */
  options?: ConvertOptions;
}

/** Every target of the report, in column order. */
export const REPORT_TARGETS: readonly ReportTarget[] = Object.freeze([
  { id: "openai", label: "openai", format: "openai" },
  { id: "openai-strict", label: "openai --strict", format: "openai", options: { strict: true } },
  { id: "openai-responses", label: "openai-responses", format: "openai-responses" },
  { id: "anthropic", label: "anthropic", format: "anthropic" },
  { id: "gemini", label: "gemini", format: "gemini" },
  { id: "mcp", label: "mcp", format: "mcp" },
]);

/** Where each format writes the canonical tool's top-level parts (JSON Pointers). */
const PLACES: Record<string, Record<string, readonly string[]>> = {
  openai: {
    "/name": ["/function/name"],
    "/description": ["/function/description"],
    "/inputSchema": ["/function/parameters"],
  },
  "openai-responses": { "/inputSchema": ["/parameters"] },
  anthropic: { "/inputSchema": ["/input_schema"] },
  gemini: {
    "/inputSchema": ["/parameters", "/parametersJsonSchema"],
    "/outputSchema": ["/response", "/responseJsonSchema"],
  },
};

/** The value at a JSON Pointer, or `undefined` (own properties only). */
export function valueAt(value: unknown, pointer: string): unknown {
  if (pointer === "") return value;
  let at = value;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof at !== "object" || at === null || !Object.hasOwn(at, token)) return undefined;
    at = (at as Record<string, unknown>)[token];
  }
  return at;
}

/**
 * The pointer in the converted tool of a part of the canonical tool, when
 * that part is still there (a dropped keyword is not): the top-level field
 * moved to where the format keeps it, the rest of the path unchanged.
 */
export function convertedPointer(
  format: string,
  path: string,
  converted: unknown,
): string | undefined {
  const top = /^\/[^/]*/.exec(path)?.[0] ?? "";
  const rest = path.slice(top.length);
  const places = PLACES[format]?.[top] ?? [top];
  for (const place of places) {
    if (valueAt(converted, place) === undefined) continue;
    // The deepest part that is still there: a rewritten keyword's parent at least.
    let candidate = place + rest;
    while (candidate.length >= place.length) {
      if (valueAt(converted, candidate) !== undefined) return candidate;
      candidate = candidate.slice(0, candidate.lastIndexOf("/"));
    }
  }
  return undefined;
}
