/**
 * A manifest opened for use: the layer under every front door of the CLI,
 * and for embedding. YAML (or MCP client configuration) manifests read and
 * checked once; variables expanded once and every resolved secret scrubbed
 * from output; the lock file; the permission planner; built-in and sandboxed
 * module tools; the Runner built from a manifest. {@linkcode Workspace}
 * holds them together, so that every command gets the same tool set, secrets,
 * refusals and errors.
 *
 * @module
 */

export {
  type CliErrorCode,
  ManifestError,
  type ManifestIssue,
  MissingPermissionError,
  type MissingPermissionFlags,
  MissingSecretError,
  ServerUnavailableError,
  ToolChangedError,
  UsageError,
} from "./errors.ts";
export type { ServerReport } from "./server_tools.ts";
export {
  loadManifest,
  type LoadManifestOptions,
  type Manifest,
  type ManifestAuth,
  type ManifestChain,
  type ManifestEndpoint,
  type ManifestGrant,
  type ManifestPermissions,
  type ManifestServer,
  type ManifestStep,
  type ManifestTool,
  parseManifest,
  type ParseManifestOptions,
  type ResolvedTool,
  type ServerToolOverride,
  type StepValue,
} from "./manifest.ts";
export { type ManifestInput } from "./variables.ts";
export {
  commandLines,
  type CommandLinesOptions,
  formatFlags,
  missingPermissions,
  type PermissionName,
  type PermissionNeed,
  type PermissionPlan,
  planPermissions,
  type PlanPermissionsOptions,
  skippedPermissions,
} from "./permissions.ts";
export { BUILTINS, type BuiltinTool, getBuiltin } from "../run/builtin/builtins.ts";
export {
  checkModuleTool,
  type CheckModuleToolOptions,
  type ModuleToolProblem,
} from "../run/module/module_tool.ts";
export {
  type ModuleHandler,
  moduleHandler,
  type ModuleHandlerOptions,
} from "../run/module/module_tool.ts";
export { REDACTED, Redactor, secretReferences, type ShortSecret } from "./secrets.ts";
export { buildRunner, type BuildRunnerOptions } from "./build_runner.ts";
export {
  type ExposedTools,
  type ExposedToolsOptions,
  Workspace,
  type WorkspaceOptions,
  type WorkspaceRunnerOptions,
} from "./workspace.ts";
