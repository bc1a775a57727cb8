// With --events, every retry of an idempotent server tool is a `retry` line on
// stderr; without, a `retry:` diagnostic. The result is printed once.
import assert from "node:assert/strict";
import { cli, flagsFor, tempManifest } from "./_cli.ts";
import { flakyServer } from "../run/_flaky_mcp.ts";

Deno.test("the CLI reports each retry as an event and prints the result once", async () => {
  const server = flakyServer({ safe: ["503", "reset"], unsafe: ["503"] });
  try {
    const path = await tempManifest(`version: 1\nservers:\n  flaky: { url: "${server.url}" }\n`);
    const flags = await flagsFor(path, "flaky:safe");
    const out = await cli(["run", path, "flaky:safe", "--events"], { flags });
    assert.equal(out.code, 0, out.stderr);
    assert.equal(JSON.parse(out.stdout), "fine");
    const retries = out.stderr.trim().split("\n").map((l) => JSON.parse(l)).filter((e) =>
      e.kind === "retry"
    );
    assert.deepEqual(retries.map((e) => e.data.attempt), [2, 3]);
    assert.equal(retries[0].data.status, 503);
    const plain = await cli(["run", path, "flaky:unsafe"], { flags });
    assert.equal(plain.code, 1);
    assert.doesNotMatch(plain.stderr, /retry/);
    assert.equal(server.calls.unsafe, 1);
  } finally {
    server.close();
  }
});
