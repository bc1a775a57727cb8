// Private: which `deno` runs module tools.

/**
 * The `deno` executable module tools run under: this process's own
 * executable, or, inside a `deno compile`d binary (whose executable is not
 * `deno` and whose embedded files a separate `deno` cannot read), `deno` from
 * `PATH`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { moduleToolDeno } from "./deno.ts";
 *
 * assert.equal(moduleToolDeno(), Deno.execPath());
 * ```
 *
 * @returns The executable's path, or `"deno"`.
 */
export function moduleToolDeno(): string {
  return import.meta.url.includes("/deno-compile-") ? "deno" : Deno.execPath();
}
