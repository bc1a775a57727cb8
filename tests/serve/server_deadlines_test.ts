// `serve` gives each tool of an upstream server the deadline `run` would: the
// server's `timeoutMs`, or its per-tool override; `--timeout` wins over both.
import assert from "node:assert/strict";
import { ROOT, stdioClient } from "./_helpers.ts";

async function manifest(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "tf-deadlines-" });
  const path = `${dir}/tools.yaml`;
  await Deno.writeTextFile(
    path,
    [
      "version: 1",
      "servers:",
      "  slow:",
      `    command: ${JSON.stringify(Deno.execPath())}`,
      `    args: [run, --quiet, --no-config, ${
        JSON.stringify(`${ROOT}tests/fixtures/serve/hang_upstream.ts`)
      }]`,
      "    timeoutMs: 700",
      "  slower:",
      `    command: ${JSON.stringify(Deno.execPath())}`,
      `    args: [run, --quiet, --no-config, ${
        JSON.stringify(`${ROOT}tests/fixtures/serve/hang_upstream.ts`)
      }]`,
      "    timeoutMs: 60000",
      "    tools:",
      "      hang: { timeoutMs: 900 }",
    ].join("\n") + "\n",
  );
  return path;
}

async function timedOut(
  client: Awaited<ReturnType<typeof stdioClient>>,
  name: string,
): Promise<{ ms: number; text: string }> {
  const started = Date.now();
  const result = await client.callTool({ name, arguments: {} }, { timeout: 30_000 })
    .catch((e) => ({ isError: true, content: [{ type: "text", text: String(e) }] }));
  const text = JSON.stringify(result);
  assert.equal((result as { isError?: boolean }).isError, true, text);
  return { ms: Date.now() - started, text };
}

Deno.test("a server's timeoutMs and its per-tool override are the deadlines of its served tools", async () => {
  const path = await manifest();
  const prefixed = await stdioClient(["--prefix", "slow=a_", "--prefix", "slower=b_"], path);
  try {
    const a = await timedOut(prefixed, "a_hang");
    assert.match(a.text, /timed out after 700 ms/);
    assert.ok(a.ms < 10_000, `${a.ms} ms`);
    const b = await timedOut(prefixed, "b_hang");
    assert.match(b.text, /timed out after 900 ms/);
  } finally {
    await prefixed.close();
  }
  const overridden = await stdioClient(
    ["--prefix", "slow=a_", "--prefix", "slower=b_", "--timeout", "400"],
    path,
  );
  try {
    assert.match((await timedOut(overridden, "b_hang")).text, /timed out after 400 ms/);
  } finally {
    await overridden.close();
    await Deno.remove(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  }
});
