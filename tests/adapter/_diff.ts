// Test helper: keyword-level differences between two schemas, and whether each
// difference is covered by a feature-loss warning.

import type { FeatureLossWarning } from "../../adapter/mod.ts";
import { escapePointerToken } from "../../model/mod.ts";

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** JSON Pointers (prefixed with `path`) where `a` and `b` differ. */
export function schemaDiff(a: unknown, b: unknown, path: string, out: string[] = []): string[] {
  if (JSON.stringify(a) === JSON.stringify(b)) return out;
  if (isObj(a) && isObj(b)) {
    const keys = [...Object.keys(a), ...Object.keys(b).filter((k) => !(k in a))];
    for (const k of keys) schemaDiff(a[k], b[k], `${path}/${escapePointerToken(k)}`, out);
  } else if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((v, i) => schemaDiff(v, b[i], `${path}/${i}`, out));
  } else out.push(path);
  return out;
}

function parent(p: string): string {
  return p.slice(0, p.lastIndexOf("/"));
}

/** Whether a difference at `pointer` is explained by one of the warnings. */
export function covered(pointer: string, warnings: readonly FeatureLossWarning[]): boolean {
  return warnings.some((w) =>
    w.path === pointer ||
    pointer.startsWith(`${w.path}/`) ||
    (parent(pointer) === parent(w.path) && w.action !== "dropped") ||
    (pointer.endsWith("/required") && w.feature === "required" &&
      w.path.startsWith(`${parent(pointer)}/properties/`))
  );
}

/** The differences no warning explains. */
export function uncovered(
  source: unknown,
  target: unknown,
  path: string,
  warnings: readonly FeatureLossWarning[],
): string[] {
  return schemaDiff(source, target, path).filter((p) => !covered(p, warnings));
}
