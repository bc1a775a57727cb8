/**
 * The interface of external tool providers. Built in: `commandProvider`
 * (a subprocess speaking JSON) and `httpProvider` (JSON over HTTP POST).
 * Both cap the output they read ({@linkcode DEFAULT_MAX_OUTPUT_BYTES} unless
 * configured): past the cap a call fails with `OutputTooLargeError` (code
 * `output_too_large`) and the rest is never read into memory.
 *
 * @module
 */

import type { Tool } from "../model/mod.ts";
import type { ToolContext } from "./local.ts";

/**
 * The output cap of the built-in providers unless their `maxOutputBytes` says
 * otherwise: 10 MiB of stdout or response body.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_MAX_OUTPUT_BYTES } from "@toolfoundation/core/run";
 *
 * assert.equal(DEFAULT_MAX_OUTPUT_BYTES, 10 * 1024 * 1024);
 * ```
 */
export const DEFAULT_MAX_OUTPUT_BYTES: number = 10 * 1024 * 1024;

/** One call to a provider. */
export interface ProviderRequest {
  /** The provider's own ID for the tool (from the provider backend). */
  toolId: string;
  /** The validated arguments. */
  args: Record<string, unknown>;
  /** The tool definition. */
  tool: Tool;
}

/**
 * An external tool provider. `call` returns the structured result (a value, a
 * promise, or an async iterable of chunks, as local handlers do) and must
 * honour `ctx.signal`; it reports failures by throwing (a `RunError` passes
 * through unchanged, anything else becomes an `ExecutionError`). A provider
 * reading an unbounded source should cap it (`OutputTooLargeError`).
 *
 * @example A provider of one tool
 * ```ts
 * import assert from "node:assert/strict";
 * import { providerBackend } from "@toolfoundation/core/model";
 * import { Runner, type ToolProvider } from "@toolfoundation/core/run";
 *
 * const upper: ToolProvider = {
 *   id: "strings",
 *   call: ({ args }) => ({ text: String(args.text).toUpperCase() }),
 * };
 * const runner = new Runner({ providers: [upper] });
 * runner.registry.add(
 *   { name: "upper", inputSchema: { type: "object" } },
 *   providerBackend("strings", "upper"),
 * );
 * assert.deepEqual((await runner.run("upper", { text: "hi" })).structured, { text: "HI" });
 * ```
 */
export interface ToolProvider {
  /** The provider ID that provider backends name. */
  readonly id: string;
  /**
   * Executes one tool call.
   *
   * @param request The provider tool ID, arguments and tool.
   * @param ctx Signal and progress reporter.
   * @returns The structured result.
   */
  call(request: ProviderRequest, ctx: ToolContext): unknown;
  /** Releases whatever the provider holds; called by `Runner.close()`. */
  close?(): Promise<void>;
}
