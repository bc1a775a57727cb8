// Helpers of the upstream tests: calling a tool, reading a fixture's pid file,
// the serve upstream fixture's configuration.

import type { McpServerConfig } from "../../run/mod.ts";
import type { Upstream } from "../../serve/mod.ts";
import { caEnv, ROOT } from "./_helpers.ts";

/** The pids a fake server reports (its own, and the grandchild it forked). */
export type Pids = { pid: number; grandchild?: number };

/** The text of a call result's first content block. */
export function text(result: Record<string, unknown>): string {
  return String((result.content as { text?: string }[])[0].text);
}

/** Calls a tool of the upstream. */
export async function call(
  upstream: Upstream,
  name: string,
  args: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  return await upstream.request("tools/call", { name, arguments: args }, {});
}

/** Waits (up to 10 s) for the pid file a fake server writes. */
export async function readPidFile(file: string): Promise<Pids> {
  for (let i = 0; i < 400; i++) {
    const written = await Deno.readTextFile(file).catch(() => "");
    if (written !== "") return JSON.parse(written);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("the server never wrote its pid file");
}

/** tests/fixtures/serve/upstream.ts over stdio (2025 era: it samples and elicits mid-call). */
export const SERVE_UPSTREAM: McpServerConfig = {
  transport: "stdio",
  command: Deno.execPath(),
  args: ["run", "--quiet", "-A", "tests/fixtures/serve/upstream.ts"],
  cwd: ROOT,
  env: caEnv(),
  protocol: "legacy",
};
