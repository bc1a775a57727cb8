// Helper of the serve tests: tests/fixtures/serve/upstream_2026.ts (an
// upstream of both eras) over HTTP.

import { ROOT } from "./_helpers.ts";

/** A running upstream_2026.ts over HTTP. */
export interface Upstream2026 {
  /** Its MCP endpoint. */
  url: string;
  /** Stops it. */
  close(): Promise<void>;
}

/**
 * Starts the fixture over HTTP (with `env` added to its environment) and waits
 * for its URL; its stderr is dropped unless `stderr: "inherit"`.
 */
export async function startUpstream2026(
  env: Record<string, string> = {},
  options: { stderr?: "null" | "inherit" } = {},
): Promise<Upstream2026> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}tests/fixtures/serve/upstream_2026.ts`, "--http", "0"],
    stdin: "null",
    stdout: "piped",
    stderr: options.stderr ?? "null",
    env,
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!/\/mcp\n/.test(text)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the upstream fixture exited before listening:\n${text}`);
    text += value;
  }
  void (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  return {
    url: text.trim(),
    async close() {
      try {
        child.kill("SIGTERM");
      } catch { /* gone */ }
      await child.status;
    },
  };
}
