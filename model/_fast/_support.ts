// Private: the whole-document decision of the fast path. A schema whose
// document holds anything the closures cannot do exactly stays on Hyperjump
// whole: never partly.

import { SCHEMA_DIALECT_2020_12, SCHEMA_DIALECT_DRAFT_07 } from "../tool.ts";

/** What decides whether a schema may take the fast path. */
export interface SupportOptions {
  /** The schema's dialect, normalized (no trailing `#`). */
  dialect: string;
  /** Whether `format` asserts for this validator. */
  formatAssertion: boolean;
  /**
   * Whether the schema's references fan out (evaluated with Hyperjump's
   * budget, which the fast path counts as Hyperjump does).
   */
  fansOut: boolean;
  /**
   * The validator's instance nesting limit: the check then proves a value it
   * accepts JSON within it (DEFAULT_MAX_DEPTH when not given).
   */
  maxDepth?: number;
}

/** Keys that send the whole schema to Hyperjump wherever they appear. */
const REFUSED = new Set([
  "$anchor",
  "$dynamicAnchor",
  "$dynamicRef",
  "$recursiveRef",
  "$recursiveAnchor",
  "$vocabulary",
]);
const REFUSED_2020_12 = new Set(["unevaluatedProperties", "unevaluatedItems"]);

/** The fast path's dialect name for a normalized dialect URI, or undefined (Hyperjump only). */
export function fastDialect(dialect: string): "2020-12" | "draft-07" | undefined {
  if (dialect === SCHEMA_DIALECT_2020_12) return "2020-12";
  if (dialect === SCHEMA_DIALECT_DRAFT_07.replace(/#$/, "")) return "draft-07";
  return undefined;
}

/**
 * Why the schema must stay on Hyperjump, or undefined when the document holds
 * nothing the fast path refuses (the compiler may still refuse a keyword value).
 */
export function unsupportedReason(schema: unknown, options: SupportOptions): string | undefined {
  const dialect = fastDialect(options.dialect);
  if (dialect === undefined) return `the dialect ${options.dialect}`;
  if (typeof schema === "boolean") return undefined;
  const root = schema as Record<string, unknown>;
  if (root.$id !== undefined) {
    if (typeof root.$id !== "string") return "a $id that is not a string";
    const hash = root.$id.indexOf("#");
    if (hash >= 0 && hash < root.$id.length - 1) return "a $id with a fragment";
  }
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (const item of node) if (typeof item === "object" && item !== null) stack.push(item);
      continue;
    }
    if (typeof node !== "object" || node === null) continue;
    for (const [key, value] of Object.entries(node)) {
      if (REFUSED.has(key)) return `the keyword ${key}`;
      if (dialect === "2020-12" && REFUSED_2020_12.has(key)) return `the keyword ${key}`;
      if (node !== schema && (key === "$id" || key === "$schema")) return `a nested ${key}`;
      if (key === "format" && options.formatAssertion) return "format with format assertion on";
      if (typeof value === "object" && value !== null) stack.push(value);
    }
  }
  return undefined;
}
