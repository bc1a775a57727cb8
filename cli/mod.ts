/**
 * The CLI's building blocks, for embedding: YAML manifests, the permission
 * planner, built-in tools, sandboxed module tools, secrets and the Runner
 * built from a manifest. The command line itself is `main`.
 *
 * @module
 */

export { type CliIo, main, type MainOptions } from "./main.ts";
export {
  type CliErrorCode,
  ManifestError,
  type ManifestIssue,
  MissingSecretError,
} from "./errors.ts";
export * from "./manifest.ts";
export * from "./permissions.ts";
export * from "./builtins.ts";
export * from "./module_tool.ts";
export * from "./secrets.ts";
export * from "./build_runner.ts";
