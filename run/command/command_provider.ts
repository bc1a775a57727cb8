/**
 * The `command` provider: each call spawns a program, writes the arguments as
 * JSON to its stdin and reads one JSON value from its stdout.
 *
 * - Environment: the program gets a deliberate environment, never the whole
 *   one by default (see `childEnv`): the safe set (`PATH`, `HOME`, ...), the
 *   variables networking and CA trust need, the names in `inheritEnv`, the
 *   `env` values, and `TOOLFOUNDATION_TOOL_ID`.
 * - Process group: the program leads its own process group. On timeout,
 *   cancellation or `Runner.close()` the whole group gets SIGTERM, then
 *   SIGKILL after `killGraceMs`. The result is taken when the program exits,
 *   even when a background grandchild still holds stdout open; what is left of
 *   the group is stopped before the call settles.
 * - Limits: stdout is capped (`maxOutputBytes`, default 10 MiB; past it the
 *   group is stopped and the call fails with `output_too_large`); only the
 *   tail of stderr is kept, and it goes into errors, with a hint when it shows
 *   a variable the program did not get or a CA certificate it could not find.
 *
 * @module
 */

import { ExecutionError, OutputTooLargeError } from "../errors.ts";
import { DEFAULT_MAX_OUTPUT_BYTES, type ProviderRequest, type ToolProvider } from "../provider.ts";
import type { ToolContext } from "../local.ts";
import { childEnv, type InheritEnv } from "../process/child_env.ts";
import { DEFAULT_KILL_GRACE_MS, type GroupChild, spawnGroup } from "../process/group.ts";
import { runGroup, type RunOutcome } from "./_command_run.ts";
import { startHints } from "../process/start_hints.ts";
import { excerpt, jsonText, stripAnsi, tail } from "../output/text.ts";

/** Options of {@linkcode commandProvider}. */
export interface CommandProviderOptions {
  /** The provider ID that provider backends name. */
  id: string;
  /** The program to run (looked up in the `PATH` the program gets). */
  command: string;
  /** Its arguments; the text `{toolId}` in any of them is replaced by the provider tool ID. */
  args?: readonly string[];
  /**
   * Environment variables set for the program (they win over inherited ones).
   * `TOOLFOUNDATION_TOOL_ID` is always set to the provider tool ID.
   */
  env?: Readonly<Record<string, string>>;
  /**
   * Names of this process's variables the program inherits besides the
   * default set (`SAFE_ENV` and `NETWORK_ENV`, when set), e.g.
   * `["GITHUB_TOKEN"]`; `"all"` passes the whole environment and must be
   * asked for explicitly. Default: none beyond the default set.
   */
  inheritEnv?: InheritEnv;
  /** Working directory. */
  cwd?: string;
  /** Largest stdout accepted, in bytes (default 10 MiB); more is an `OutputTooLargeError`. */
  maxOutputBytes?: number;
  /** How much of stderr is kept for errors, in bytes (default 4096). */
  stderrTailBytes?: number;
  /** Wait between SIGTERM and SIGKILL when stopping the process group, in ms (default 2000). */
  killGraceMs?: number;
  /**
   * Scrubs secrets from a text the provider puts into an error (stderr, an
   * excerpt of the output): applied to the whole text before it is cut, so a
   * cut never splits a secret.
   */
  redact?: (text: string) => string;
}

function notFound(options: CommandProviderOptions, env: Record<string, string>): string {
  const name = JSON.stringify(options.command);
  if (options.cwd !== undefined) {
    try {
      Deno.statSync(options.cwd);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        return `cannot start ${name}: working directory ${JSON.stringify(options.cwd)} not found`;
      }
    }
  }
  const where = options.command.includes("/")
    ? ""
    : env.PATH === undefined
    ? " (the program gets no PATH to search)"
    : ` (searched the PATH it gets: ${env.PATH})`;
  return `cannot start ${name}: not found${where}`;
}

function same(text: string): string {
  return text;
}

function failure(
  options: CommandProviderOptions,
  env: Record<string, string>,
  run: RunOutcome,
): ExecutionError | undefined {
  const { status } = run;
  const stderrTail = (options.redact ?? same)(stripAnsi(run.stderr).trim());
  const facts: Record<string, unknown> = {
    exitCode: status.code,
    signal: status.signal,
    stderrTail,
  };
  const withStderr = (message: string): ExecutionError => {
    const found = startHints(stderrTail, env);
    if (found.missingEnv.length > 0) facts.missingEnv = found.missingEnv;
    if (found.hints.length > 0) facts.hints = found.hints;
    const text = message + (stderrTail === "" ? "" : `: ${tail(stderrTail, 1000)}`) +
      found.hints.map((hint) => `\nhint: ${hint}`).join("");
    return new ExecutionError(text, { details: facts });
  };
  const name = JSON.stringify(options.command);
  if (!status.success) {
    const how = status.signal === null
      ? `exited with code ${status.code}`
      : `was killed by ${status.signal}`;
    return withStderr(`command ${name} ${how}`);
  }
  if (run.stdout.bytes().every((byte) => byte <= 0x20)) {
    return withStderr(`command ${name} printed nothing on stdout (a JSON value is expected)`);
  }
  return undefined;
}

/**
 * A provider that runs a program per call: JSON arguments on stdin, a JSON
 * result on stdout.
 *
 * @example
 * ```ts ignore
 * import assert from "node:assert/strict";
 * import { providerBackend } from "@toolfoundation/core/model";
 * import { commandProvider, Runner } from "@toolfoundation/core/run";
 *
 * const runner = new Runner({
 *   providers: [commandProvider({
 *     id: "py",
 *     command: "python3",
 *     args: ["tools/{toolId}.py"],
 *     inheritEnv: ["GITHUB_TOKEN"], // besides PATH, HOME, proxies and CA settings
 *   })],
 * });
 * runner.registry.add({ name: "wc", inputSchema: { type: "object" } }, providerBackend("py", "wc"));
 * // tools/wc.py reads {"text": ...} from stdin and prints {"words": <count>}.
 * assert.deepEqual((await runner.run("wc", { text: "a b c" })).structured, { words: 3 });
 * await runner.close();
 * ```
 *
 * @example A command that echoes its arguments back
 * ```ts
 * import assert from "node:assert/strict";
 * import { providerBackend } from "@toolfoundation/core/model";
 * import { commandProvider, Runner } from "@toolfoundation/core/run";
 *
 * const runner = new Runner({
 *   providers: [commandProvider({
 *     id: "cat",
 *     command: Deno.execPath(),
 *     args: ["eval", "console.log(await new Response(Deno.stdin.readable).text())"],
 *   })],
 * });
 * runner.registry.add({ name: "echo", inputSchema: { type: "object" } }, providerBackend("cat", "echo"));
 * assert.deepEqual((await runner.run("echo", { hello: "world" })).structured, { hello: "world" });
 * await runner.close();
 * ```
 *
 * @param options The program, its arguments, environment and limits.
 * @returns The provider.
 */
export function commandProvider(options: CommandProviderOptions): ToolProvider {
  const limits = {
    maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    stderrTailBytes: options.stderrTailBytes ?? 4096,
    killGraceMs: options.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
  };
  /** Runs in progress, each with the function that stops it for `close()`. */
  const live = new Set<() => Promise<void>>();
  return {
    id: options.id,
    async call(request: ProviderRequest, ctx: ToolContext): Promise<unknown> {
      const signal = ctx.signal;
      signal.throwIfAborted();
      let input: string;
      try {
        input = jsonText(request.args, "the arguments");
      } catch (error) {
        throw new ExecutionError((error as Error).message, { cause: error });
      }
      const argv = (options.args ?? []).map((a) => a.replaceAll("{toolId}", request.toolId));
      const env = childEnv({
        env: { ...options.env, TOOLFOUNDATION_TOOL_ID: request.toolId },
        inheritEnv: options.inheritEnv,
      });
      let group: GroupChild;
      try {
        group = spawnGroup(options.command, { args: argv, env, cwd: options.cwd });
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) {
          throw new ExecutionError(notFound(options, env), {
            cause: error,
            details: { command: options.command },
          });
        }
        throw error;
      }
      let closed = false;
      const stopForClose = (): Promise<void> => {
        closed = true;
        return group.stop(limits.killGraceMs);
      };
      live.add(stopForClose);
      let run: RunOutcome;
      try {
        run = await runGroup(group, new TextEncoder().encode(input), limits, signal);
      } finally {
        live.delete(stopForClose);
      }
      signal.throwIfAborted();
      if (closed) {
        throw new ExecutionError(
          `command ${JSON.stringify(options.command)} was stopped: the runner was closed`,
        );
      }
      if (run.overflow) throw new OutputTooLargeError(limits.maxOutputBytes);
      const failed = failure(options, env, run);
      if (failed !== undefined) throw failed;
      const stdout = run.stdout.text().trim();
      try {
        return JSON.parse(stdout);
      } catch (cause) {
        const redact = options.redact ?? same;
        const text = redact(stdout);
        const stderrTail = redact(stripAnsi(run.stderr).trim());
        throw new ExecutionError(
          `command stdout is not JSON: ${JSON.stringify(excerpt(text, 200))}${
            stderrTail === "" ? "" : `; stderr: ${tail(stderrTail, 500)}`
          }`,
          {
            cause,
            details: {
              exitCode: run.status.code,
              signal: run.status.signal,
              stderrTail,
              stdoutExcerpt: excerpt(text, 1000),
            },
          },
        );
      }
    },
    async close(): Promise<void> {
      await Promise.allSettled([...live].map((stop) => stop()));
    },
  };
}
