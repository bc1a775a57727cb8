// `serve --http` counts concurrency and rate per principal (the token's
// --token-env name), not per remote address: one greedy token behind the same
// address does not use up another's share.

import assert from "node:assert/strict";
import { startHttp } from "./_helpers.ts";
import { answer, callTool, headersOf, resultText } from "./_session_helpers.ts";

const TOKEN_A = "token-of-a-0123456789abcdef";
const TOKEN_B = "token-of-b-0123456789abcdef";
const TOKENS = ["--token-env", "TOKEN_A", "--token-env", "TOKEN_B"];
const ENV = { env: { TOKEN_A, TOKEN_B } };
const ADD = { operation: "add", a: 2, b: 3 };

Deno.test("serve --http: 16 hanging calls of one token give that token 429, not another token", async () => {
  const served = await startHttp([...TOKENS, "--max-concurrent", "16"], ENV);
  const hang = new AbortController();
  try {
    const hanging = Array.from({ length: 16 }, (_, i) =>
      fetch(served.url, {
        method: "POST",
        headers: headersOf(TOKEN_A),
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 100 + i,
          method: "tools/call",
          params: { name: "slow", arguments: { ms: 60_000 } },
        }),
        signal: hang.signal,
      }).then(answer).catch(() => undefined));
    // Wait until all 16 are in flight: A's next call is refused.
    let refused;
    for (let i = 0; i < 100; i++) {
      refused = await callTool(served.url, "add", ADD, TOKEN_A);
      if (refused.status === 429) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(refused?.status, 429, refused?.text);
    assert.match(refused!.text, /too many concurrent requests from this client \(limit 16/);
    const started = performance.now();
    const other = await callTool(served.url, "add", ADD, TOKEN_B);
    const ms = Math.round(performance.now() - started);
    assert.equal(other.status, 200, other.text);
    assert.equal(resultText(other), `{"result":5}`);
    console.log(`token B's call while token A holds 16 hanging calls: ${other.status} in ${ms} ms`);
    hang.abort();
    await Promise.all(hanging);
  } finally {
    hang.abort();
    await served.close();
  }
});

Deno.test("serve --http --max-rate: a token over its rate gets 429 with retry-after; another token does not", async () => {
  // An hour's window: seven calls do not cross a window boundary (fixed windows
  // on the clock), however slow the machine.
  const served = await startHttp([...TOKENS, "--max-rate", "5/3600s"], ENV);
  try {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 7; i++) {
      last = await callTool(served.url, "add", ADD, TOKEN_A);
      statuses.push(last.status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429]);
    assert.match(
      last!.text,
      /too many requests from this client: the limit is 5 per 3600s \(--max-rate\)/,
    );
    const retry = Number(last!.headers.get("retry-after"));
    assert.ok(retry >= 1 && retry <= 3600, `retry-after ${retry}`);
    const other = await callTool(served.url, "add", ADD, TOKEN_B);
    assert.equal(other.status, 200, other.text);
  } finally {
    await served.close();
  }
});

Deno.test("serve --max-rate with a short window admits again once the window has passed", async () => {
  const served = await startHttp(["--max-rate", "2/1s"]);
  try {
    // Start right after a window boundary (the server's clock is this machine's).
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 20));
    const first = [];
    for (let i = 0; i < 3; i++) first.push((await callTool(served.url, "add", ADD)).status);
    assert.deepEqual(first, [200, 200, 429]);
    await new Promise((r) => setTimeout(r, 1100));
    assert.equal((await callTool(served.url, "add", ADD)).status, 200);
  } finally {
    await served.close();
  }
});

Deno.test("serve refuses malformed limit flags, and session flags without --sessions, as usage errors (exit 2)", async () => {
  const { cli } = await import("../cli/_cli.ts");
  const { MANIFEST } = await import("./_helpers.ts");
  const cases: Array<[string[], RegExp]> = [
    [["--max-rate", "600"], /--max-rate must be REQUESTS\/WINDOW such as 600\/60s/],
    [["--max-rate", "0/60s"], /--max-rate \(requests\) must be a positive whole number/],
    [["--max-rate", "10/5x"], /--max-rate \(window\) must be a duration/],
    [["--sessions", "--session-idle", "soon"], /--session-idle must be a duration/],
    [["--sessions", "--max-sessions-per-principal", "0"], /--max-sessions-per-principal must be/],
    [["--sessions", "--max-event-bytes=-5"], /--max-event-bytes must be a positive/],
    [
      ["--sessions", "--max-event-bytes", "2000", "--max-event-bytes-total", "1000"],
      /--max-event-bytes \(2000\) is above --max-event-bytes-total \(1000\)/,
    ],
    [["--session-idle", "1m"], /--session-idle applies to sessions only: add --sessions/],
  ];
  for (const [flags, message] of cases) {
    const out = await cli(["serve", MANIFEST, "--http", "127.0.0.1:0", ...flags], {
      flags: ["-A"],
    });
    assert.equal(out.code, 2, `${flags.join(" ")}: ${out.stderr}`);
    assert.match(out.stderr, message);
  }
  const stdio = await cli(["serve", MANIFEST, "--stdio", "--max-rate", "5/1s"], { flags: ["-A"] });
  assert.equal(stdio.code, 2, stdio.stderr);
  assert.match(stdio.stderr, /--max-rate applies to --http only/);
});
