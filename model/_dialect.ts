// Private: the dialect names, the root URI and the evaluation budget every
// part of the validator shares, with no dependency on Hyperjump (which loads
// only when a schema needs it: see default_validator.ts).

import { SCHEMA_DIALECT_2020_12, SCHEMA_DIALECT_DRAFT_07 } from "./tool.ts";

/** The retrieval URI of the schema being compiled (never fetched). */
export const ROOT_URI = "https://toolfoundation.invalid/schema.json";

/** Normalizes a dialect URI: draft-07 with or without `#` become one. */
export function normalizeDialect(uri: string): string {
  return uri.endsWith("#") ? uri.slice(0, -1) : uri;
}

/** The built-in dialects, normalized. */
export const BUILTIN_DIALECTS: ReadonlySet<string> = new Set([
  SCHEMA_DIALECT_2020_12,
  normalizeDialect(SCHEMA_DIALECT_DRAFT_07),
]);

/** A trusted document to register for the duration of one compile. */
export interface TrustedDocument {
  uri: string;
  schema: unknown;
  /** Set when the document is a meta-schema that declares no `$vocabulary`. */
  dialectBase?: string;
}

/**
 * Total schema evaluations in one pass before Hyperjump's evaluation budget
 * counts them per location (schemas whose references fan out); the fast path
 * hands such a value to Hyperjump past it.
 */
export const BUDGET_START = 100_000;

/** The default instance nesting limit. */
export const DEFAULT_MAX_DEPTH = 256;
