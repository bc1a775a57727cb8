// Programs that use the library end by themselves after close(), and an
// HTTP-only program needs nothing but network access to its server.
import assert from "node:assert/strict";
import { startEverythingHttp } from "../_mcp_servers.ts";

const CLIENT = new URL("../../fixtures/run/mcp_client_exits.ts", import.meta.url).pathname;
const FAKE = new URL("../../fixtures/run/mcp_fake_server.ts", import.meta.url).pathname;
const CONFIG = new URL("../../../deno.json", import.meta.url).pathname;

/** Runs the client program; it must exit on its own within `limitMs`. */
async function runClient(
  permissions: string[],
  args: string[],
  limitMs: number,
): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", `--config=${CONFIG}`, ...permissions, CLIENT, ...args],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    child.kill("SIGKILL");
  }, limitMs);
  const { code, stdout, stderr } = await child.output();
  clearTimeout(timer);
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  assert.ok(!killed, `the program did not exit within ${limitMs} ms: ${text(stderr)}`);
  return { code, stdout: text(stdout), stderr: text(stderr), ms: performance.now() - started };
}

Deno.test("a program making one Streamable HTTP call exits by itself, with only --allow-net to its server", async () => {
  const server = await startEverythingHttp();
  try {
    const host = new URL(server.url).host;
    const { code, stdout, stderr } = await runClient(
      [`--allow-net=${host}`],
      ["http", server.url],
      30_000,
    );
    assert.equal(code, 0, stderr);
    assert.equal(stdout.trim(), '"Echo: bye"');
    assert.doesNotMatch(stderr, /NotCapable|Requires .* access/);
  } finally {
    await server.stop();
  }
});

Deno.test("a program making one stdio call exits by itself", async () => {
  const { code, stdout, stderr } = await runClient(
    ["--allow-run", "--allow-env", "--allow-read"],
    ["stdio", FAKE],
    30_000,
  );
  assert.equal(code, 0, stderr);
  assert.equal(stdout.trim(), '"Echo: bye"');
});
