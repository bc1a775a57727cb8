/**
 * The `command` provider: each call spawns a program, writes the arguments as
 * JSON to its stdin and reads one JSON value from its stdout. stderr is
 * captured (its tail goes into errors); a non-zero exit is an
 * `ExecutionError`; cancellation and timeouts kill the process (SIGTERM, then
 * SIGKILL after a grace period).
 *
 * @module
 */

import { ExecutionError } from "./execution_errors.ts";
import type { ProviderRequest, ToolProvider } from "./provider.ts";
import type { ToolContext } from "./local.ts";
import { excerpt, tail, TailBuffer } from "./_text.ts";

/** Options of {@linkcode commandProvider}. */
export interface CommandProviderOptions {
  /** The provider ID that provider backends name. */
  id: string;
  /** The program to run. */
  command: string;
  /** Its arguments; the text `{toolId}` in any of them is replaced by the provider tool ID. */
  args?: readonly string[];
  /** Extra environment variables. `TOOLFOUNDATION_TOOL_ID` is always set to the provider tool ID. */
  env?: Readonly<Record<string, string>>;
  /** Working directory. */
  cwd?: string;
  /** Largest stdout accepted, in bytes (default 10 MiB); more is an `ExecutionError`. */
  maxOutputBytes?: number;
  /** How much of stderr is kept for errors, in bytes (default 4096). */
  stderrTailBytes?: number;
  /** Wait between SIGTERM and SIGKILL when stopping the process, in ms (default 2000). */
  killGraceMs?: number;
}

async function readCapped(
  stream: ReadableStream<Uint8Array>,
  max: number,
): Promise<{ bytes: Uint8Array; overflow: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let overflow = false;
  for await (const chunk of stream) {
    if (overflow) continue;
    size += chunk.length;
    if (size > max) {
      overflow = true;
      continue;
    }
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(Math.min(size, max));
  let offset = 0;
  for (const c of chunks) {
    bytes.set(c, offset);
    offset += c.length;
  }
  return { bytes, overflow };
}

async function readTail(stream: ReadableStream<Uint8Array>, max: number): Promise<string> {
  const buffer = new TailBuffer(max);
  for await (const chunk of stream) buffer.push(chunk);
  return buffer.text();
}

/**
 * A provider that runs a program per call: JSON arguments on stdin, a JSON
 * result on stdout.
 *
 * @example
 * ```ts ignore
 * import { providerBackend } from "@toolfoundation/core/model";
 * import { commandProvider, Runner } from "@toolfoundation/core/run";
 *
 * const runner = new Runner({
 *   providers: [commandProvider({ id: "py", command: "python3", args: ["tools/{toolId}.py"] })],
 * });
 * runner.registry.add({ name: "wc", inputSchema: { type: "object" } }, providerBackend("py", "wc"));
 * console.log((await runner.run("wc", { text: "a b c" })).structured);
 * ```
 *
 * @example A command that echoes its arguments back
 * ```ts
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
 * console.log((await runner.run("echo", { hello: "world" })).structured); // { hello: "world" }
 * await runner.close();
 * ```
 *
 * @param options The program, its arguments, environment and limits.
 * @returns The provider.
 */
export function commandProvider(options: CommandProviderOptions): ToolProvider {
  const maxOutput = options.maxOutputBytes ?? 10 * 1024 * 1024;
  const tailBytes = options.stderrTailBytes ?? 4096;
  const grace = options.killGraceMs ?? 2000;
  return {
    id: options.id,
    async call(request: ProviderRequest, ctx: ToolContext): Promise<unknown> {
      const signal = ctx.signal;
      signal.throwIfAborted();
      const argv = (options.args ?? []).map((a) => a.replaceAll("{toolId}", request.toolId));
      let child: Deno.ChildProcess;
      try {
        child = new Deno.Command(options.command, {
          args: argv,
          env: { ...options.env, TOOLFOUNDATION_TOOL_ID: request.toolId },
          cwd: options.cwd,
          stdin: "piped",
          stdout: "piped",
          stderr: "piped",
        }).spawn();
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) {
          throw new ExecutionError(`cannot start ${JSON.stringify(options.command)}: not found`, {
            cause: error,
          });
        }
        throw error;
      }
      let killTimer: ReturnType<typeof setTimeout> | undefined;
      let killed = false;
      const kill = (): void => {
        if (killed) return;
        killed = true;
        try {
          child.kill("SIGTERM");
        } catch { /* already gone */ }
        killTimer = setTimeout(() => {
          try {
            child.kill("SIGKILL");
          } catch { /* already gone */ }
        }, grace);
      };
      signal.addEventListener("abort", kill, { once: true });
      try {
        const writing = (async () => {
          const writer = child.stdin.getWriter();
          try {
            await writer.write(new TextEncoder().encode(JSON.stringify(request.args)));
            await writer.close();
          } catch { /* the program exited without reading its input */ }
        })();
        const [out, stderr] = await Promise.all([
          readCapped(child.stdout, maxOutput).then((r) => {
            if (r.overflow) kill();
            return r;
          }),
          readTail(child.stderr, tailBytes),
          writing,
        ]);
        const status = await child.status;
        signal.throwIfAborted();
        const stderrTail = stderr.trim();
        const facts = { exitCode: status.code, signal: status.signal, stderrTail };
        if (out.overflow) {
          throw new ExecutionError(`command output exceeds ${maxOutput} bytes`, { details: facts });
        }
        if (!status.success) {
          const how = status.signal === null
            ? `exited with code ${status.code}`
            : `was killed by ${status.signal}`;
          throw new ExecutionError(
            `command ${JSON.stringify(options.command)} ${how}${
              stderrTail === "" ? "" : `: ${tail(stderrTail, 1000)}`
            }`,
            { details: facts },
          );
        }
        const text = new TextDecoder().decode(out.bytes).trim();
        if (text === "") {
          throw new ExecutionError("command printed nothing on stdout (a JSON value is expected)", {
            details: facts,
          });
        }
        try {
          return JSON.parse(text);
        } catch (cause) {
          throw new ExecutionError(
            `command stdout is not JSON: ${JSON.stringify(excerpt(text, 200))}${
              stderrTail === "" ? "" : `; stderr: ${tail(stderrTail, 500)}`
            }`,
            { cause, details: { ...facts, stdoutExcerpt: excerpt(text, 1000) } },
          );
        }
      } finally {
        signal.removeEventListener("abort", kill);
        if (killTimer !== undefined) clearTimeout(killTimer);
      }
    },
  };
}
