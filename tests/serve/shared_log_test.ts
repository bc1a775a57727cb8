// `serve --http` in front of a stdio server whose process carries calls of
// two principals (tokens) side by side: a log line of the server names no
// call, so it goes to neither client; serve says so on stderr, counted.

import assert from "node:assert/strict";
import { ROOT, startHttp } from "./_helpers.ts";
import { callTool, resultText } from "./_session_helpers.ts";

const RAW = `${ROOT}tests/fixtures/serve/raw_stdio_upstream.ts`;
const TOKEN_A = "token-of-a-0123456789abcdef";
const TOKEN_B = "token-of-b-0123456789abcdef";

Deno.test("serve --http: a stdio server's log line while two tokens' calls share its process goes to neither, with a counted warning", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tf-shared-log-" });
  const manifest = `${dir}/tools.yaml`;
  await Deno.writeTextFile(
    manifest,
    [
      "version: 1",
      "servers:",
      "  raw:",
      `    command: ${JSON.stringify(Deno.execPath())}`,
      `    args: [run, --no-config, --quiet, ${JSON.stringify(RAW)}]`,
      "    protocol: legacy",
      "tools: []",
      "",
    ].join("\n"),
  );
  const served = await startHttp(
    ["--token-env", "TOKEN_A", "--token-env", "TOKEN_B", "--timeout", "3000"],
    { manifest, env: { TOKEN_A, TOKEN_B } },
  );
  try {
    // Alone on the process, a call gets the server's log line.
    const alone = await callTool(served.url, "merged", {}, TOKEN_B);
    assert.match(alone.text, /merged log/);
    // A's call never answers (until the deadline) and holds its place on the process.
    const hung = callTool(served.url, "hang", {}, TOKEN_A);
    await new Promise((r) => setTimeout(r, 500));
    const merged = await callTool(served.url, "merged", {}, TOKEN_B);
    assert.equal(merged.status, 200, merged.text);
    assert.equal(resultText(merged), "merged answer");
    assert.doesNotMatch(merged.text, /merged log/);
    const a = await hung;
    assert.doesNotMatch(a.text, /merged log/);
    const stderr = await served.logged(/log line\(s\) dropped/);
    assert.match(
      stderr,
      /warning: upstream server "raw": 1 log line\(s\) dropped so far: calls of several clients \(principals\) were in flight on its process, and a log line names no call; give the server callsPerProcess: 1 in the manifest to pass on every log line/,
    );
  } finally {
    await served.close();
    await Deno.remove(dir, { recursive: true });
  }
});
