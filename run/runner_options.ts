/**
 * The options of a `Runner` and of one run, declared apart from
 * the runner so that its private parts (the pipeline, the backends, the
 * stream and chain helpers) can use them without importing the runner.
 *
 * @module
 */

import type { BackendKind, SchemaValidator } from "../model/mod.ts";
import type { OutputValidationError } from "./result.ts";
import type { LocalHandler, ProgressUpdate } from "./local.ts";
import type { McpServerConfig } from "./mcp/config.ts";
import type { ElicitationHandler } from "./mcp/tools.ts";
import type { ToolProvider } from "./provider.ts";
import type { ToolRegistry } from "./registry.ts";

/** Options of a `Runner`. */
export interface RunnerOptions {
  /** The registry to run from (default: a new, empty one). */
  registry?: ToolRegistry;
  /** The schema validator (default: a `DefaultValidator`). */
  validator?: SchemaValidator;
  /** Validate arguments before executing (default `true`). */
  validateInput?: boolean;
  /** Validate results against the output schema (default `true`). */
  validateOutput?: boolean;
  /** `error` (default) throws `OutputValidationError`; `warn` returns the result with `warnings`. */
  outputValidation?: "error" | "warn";
  /** Called with each output-validation failure in `warn` mode. */
  onWarning?: (warning: OutputValidationError) => void;
  /** Default deadline of a run in milliseconds (default 60000; `0` or `Infinity` for none). */
  timeoutMs?: number;
  /** How long `close()` waits for abandoned executions to settle, in ms (default 5000). */
  closeTimeoutMs?: number;
  /** Backend preference, best first (default `["local", "provider", "mcp"]`). */
  backendOrder?: readonly BackendKind[];
  /** Local handlers, by the name local backends give. */
  handlers?: Readonly<Record<string, LocalHandler>>;
  /** External providers. */
  providers?: readonly ToolProvider[];
  /** MCP servers, by the server name mcp backends give. */
  mcpServers?: Readonly<Record<string, McpServerConfig>>;
  /** Answers MCP servers' elicitation requests (without it, elicitation is not offered). */
  onElicitation?: ElicitationHandler;
  /**
   * Scrubs secrets from texts the runner puts into errors (a tool's error
   * content), before they are cut into excerpts. Providers and MCP servers
   * take their own `redact` for their output.
   */
  redact?: (text: string) => string;
  /**
   * The most module-tool processes live at once, across every module tool
   * given the runner's `moduleProcesses` (default 16). Beyond it an idle
   * process is retired (least recently used first), or the call waits for
   * one to exit, within its deadline.
   */
  maxModuleProcesses?: number;
}

/** Options of one run. */
export interface RunOptions {
  /** Aborting it cancels the run (`RunCancelledError`). */
  signal?: AbortSignal;
  /** Deadline of this run in milliseconds, overriding the runner's default. */
  timeoutMs?: number;
  /**
   * Milliseconds of the deadline already spent before this run (e.g. connecting
   * to a server and listing its tools first): the run gets what is left, and a
   * timeout still names the whole deadline the caller set.
   */
  spentMs?: number;
  /** Receives normalized progress reports. */
  onProgress?: (update: ProgressUpdate) => void;
}
