/**
 * The command line as a function ({@linkcode main}), and the workspace layer
 * it stands on (manifests, permission planning, secrets, built-in and module
 * tools, the Runner built from a manifest), re-exported whole from
 * `@toolfoundation/core/workspace`.
 *
 * @module
 */

export { type CliIo, main, type MainOptions } from "./main.ts";
export * from "../workspace/mod.ts";
