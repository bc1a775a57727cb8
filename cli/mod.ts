/**
 * The command line as a function: {@linkcode main} takes the arguments and
 * returns the exit code, with the standard streams replaceable through
 * {@linkcode MainOptions} (for embedding and tests). The layer the CLI stands
 * on (manifests, permission planning, secrets, the Runner built from a
 * manifest) is `@toolfoundation/core/workspace`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { main } from "@toolfoundation/core/cli";
 *
 * let out = "";
 * const code = await main(["--version"], { io: { stdout: (text) => out += text } });
 * assert.equal(code, 0);
 * assert.match(out, /toolfoundation/);
 * ```
 *
 * @module
 */

export { type CliIo, main, type MainOptions } from "./main.ts";
