import assert from "node:assert/strict";
import { main } from "../../cli/main.ts";
import { caEnv, httpClient, ROOT } from "./_helpers.ts";
import { shellWords } from "../cli/_cli.ts";

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

Deno.test("permissions --serve prints flags with which serve runs: listening, upstreams, module tools", async () => {
  const port = freePort();
  const out: string[] = [];
  const code = await main(
    ["permissions", "tests/fixtures/serve/manifest.yaml", "--serve", "--http", `127.0.0.1:${port}`],
    { io: { stdout: (t) => out.push(t), stderr: () => {} } },
  );
  assert.equal(code, 0);
  const run = out.join("").split("\n")[0];
  assert.match(run, new RegExp(`--allow-net=127\\.0\\.0\\.1:${port} `));
  assert.match(
    run,
    /cli\.ts serve tests\/fixtures\/serve\/manifest\.yaml --http 127\.0\.0\.1:\d+$/,
  );
  assert.doesNotMatch(run, /--allow-all|-A /);
  // Run exactly that line, its words as a POSIX shell reads them (`'--allow-env=...,npm_config_*'`).
  const [deno, ...args] = shellWords(run);
  assert.equal(deno, "deno");
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env: caEnv(),
    clearEnv: true,
    stdout: "null",
    stderr: "piped",
  }).spawn();
  try {
    let client;
    for (let i = 0; i < 120 && client === undefined; i++) {
      try {
        client = await httpClient(`http://127.0.0.1:${port}/mcp`);
      } catch {
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    assert.ok(client, "serve did not come up under the printed permissions");
    const greet = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
    assert.deepEqual(greet.structuredContent, { greeting: "hello Ada" });
    const echo = await client.callTool({ name: "echo", arguments: { text: "ok" } });
    assert.deepEqual(echo.structuredContent, { echoed: "ok" });
    await client.close();
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await child.stderr.cancel();
  }
});
