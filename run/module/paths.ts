/**
 * Paths relative to a directory, resolved without touching the file system:
 * how a module tool's grant paths resolve against the directory its handler
 * is given, and how a manifest's paths resolve against the manifest's.
 *
 * @module
 */

/**
 * Resolves a path relative to `dir` without touching the file system (`.`
 * and `..` segments folded; an absolute path is returned as it is).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolvePath } from "./paths.ts";
 *
 * assert.equal(resolvePath("/work/tools", "./data/../out.txt"), "/work/tools/out.txt");
 * assert.equal(resolvePath(".", "a/b"), "a/b");
 * assert.equal(resolvePath("/work", "/etc/hosts"), "/etc/hosts");
 * ```
 *
 * @param dir The directory (`.` for the current one).
 * @param path The path, relative to `dir` or absolute.
 * @returns The resolved path.
 */
export function resolvePath(dir: string, path: string): string {
  if (path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path)) return path;
  const joined = dir === "." ? path : `${dir}/${path}`;
  const parts: string[] = [];
  for (const part of joined.split("/")) {
    if (part === "." || (part === "" && parts.length > 0)) continue;
    if (part === ".." && parts.length > 0 && parts[parts.length - 1] !== "..") parts.pop();
    else parts.push(part);
  }
  return parts.join("/") || ".";
}
