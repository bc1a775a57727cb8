// `serve --http --sessions` with several principals: a session belongs to the
// token that opened it, each principal has a session quota, idle sessions end,
// and the events kept for resuming are bounded and forgotten with the session.

import assert from "node:assert/strict";
import { startHttp } from "./_helpers.ts";
import {
  callTool,
  mustOpen,
  openSession,
  resultText,
  rssMiB,
  sessionRequest,
} from "./_session_helpers.ts";

const TOKEN_A = "token-of-a-0123456789abcdef";
const TOKEN_B = "token-of-b-0123456789abcdef";
const TOKENS = ["--token-env", "TOKEN_A", "--token-env", "TOKEN_B"];
const ENV = { env: { TOKEN_A, TOKEN_B } };
const ADD = { operation: "add", a: 2, b: 3 };

Deno.test("serve --sessions: another token can neither use, resume nor DELETE a session (404), its owner can", async () => {
  const served = await startHttp(["--sessions", ...TOKENS], ENV);
  try {
    const a = await mustOpen(served.url, TOKEN_A);
    const used = await callTool(served.url, "add", ADD, TOKEN_B, a);
    assert.equal(used.status, 404, used.text);
    assert.match(used.text, /unknown session/);
    assert.equal((await sessionRequest(served.url, "GET", TOKEN_B, a)).status, 404);
    const deleted = await sessionRequest(served.url, "DELETE", TOKEN_B, a);
    assert.equal(deleted.status, 404, deleted.text);
    // The owner's session is untouched.
    const own = await callTool(served.url, "add", ADD, TOKEN_A, a);
    assert.equal(own.status, 200, own.text);
    assert.equal(resultText(own), `{"result":5}`);
    // Resuming after one of A's events with B's token is refused too.
    const eventId = own.events.find((e) => e.id !== undefined)?.id;
    assert.ok(eventId !== undefined, "the call's stream has event ids");
    const resumed = await sessionRequest(served.url, "GET", TOKEN_B, a, {
      "last-event-id": eventId,
    });
    assert.equal(resumed.status, 404);
    assert.equal((await sessionRequest(served.url, "DELETE", TOKEN_A, a)).status, 200);
    assert.equal((await callTool(served.url, "add", ADD, TOKEN_A, a)).status, 404);
    // The access log names each principal by its variable, never by its token.
    assert.match(await served.logged(/"caller":"TOKEN_A"/), /"caller":"TOKEN_A"/);
    assert.doesNotMatch(served.stderr(), /token-of-[ab]-/);
  } finally {
    await served.close();
  }
});

Deno.test("serve --sessions: a flood of sessions by one token stops at its quota; the other token's session survives", async () => {
  const served = await startHttp(
    ["--sessions", ...TOKENS, "--max-sessions-per-principal", "5"],
    ENV,
  );
  try {
    const b = await mustOpen(served.url, TOKEN_B);
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, () => openSession(served.url, TOKEN_A)),
    );
    const opened = outcomes.filter((o) => "id" in o) as Array<{ id: string }>;
    const refused = outcomes.filter((o) => !("id" in o)) as Array<{ status: number; text: string }>;
    assert.equal(opened.length, 5);
    assert.equal(refused.length, 25);
    for (const r of refused) {
      assert.equal(r.status, 429);
      assert.match(r.text, /too many sessions: this client already holds 5/);
      assert.match(r.text, /--max-sessions-per-principal/);
      assert.match(r.text, /"code":-32000/);
    }
    const stillB = await callTool(served.url, "add", ADD, TOKEN_B, b);
    assert.equal(stillB.status, 200, stillB.text);
    assert.equal(resultText(stillB), `{"result":5}`);
    // B may still open sessions; A may again once it ends one.
    await mustOpen(served.url, TOKEN_B);
    assert.equal((await sessionRequest(served.url, "DELETE", TOKEN_A, opened[0].id)).status, 200);
    await mustOpen(served.url, TOKEN_A);
  } finally {
    await served.close();
  }
});

Deno.test("serve --sessions --session-idle: a session unused that long is gone (404), its events with it", async () => {
  const served = await startHttp(["--sessions", "--session-idle", "1500ms"]);
  try {
    const id = await mustOpen(served.url);
    const logged = await callTool(served.url, "test_tool_with_logging", {}, undefined, id);
    assert.equal(logged.status, 200, logged.text);
    const ids = logged.events.map((e) => e.id).filter((e) => e !== undefined);
    assert.ok(ids.length >= 2, `several events: ${logged.text}`);
    // Within the idle time, the stream resumes after its first event.
    const resumed = await sessionRequest(served.url, "GET", undefined, id, {
      "last-event-id": ids[0]!,
    });
    assert.equal(resumed.status, 200, resumed.text);
    assert.deepEqual(resumed.events.map((e) => e.id), ids.slice(1));
    // Used now and then, it lives past its idle time.
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 700));
      assert.equal((await callTool(served.url, "add", ADD, undefined, id)).status, 200);
    }
    await new Promise((r) => setTimeout(r, 2500));
    const late = await callTool(served.url, "add", ADD, undefined, id);
    assert.equal(late.status, 404, late.text);
    const replay = await sessionRequest(served.url, "GET", undefined, id, {
      "last-event-id": ids[0]!,
    });
    assert.equal(replay.status, 404);
  } finally {
    await served.close();
  }
});

/** serve's V8 heap in the test below: far less than the results of the calls together. */
const HEAP_MIB = 128;

for (const bounded of [true, false]) {
  Deno.test(`serve --sessions: large results ${bounded ? "do not pile up in memory (a small heap holds)" : "pile up when the event limits are lifted (the small heap runs out)"}`, async () => {
    const calls = Number(Deno.env.get("SESSION_RSS_CALLS") ?? 60);
    const bytes = 3_000_000;
    const limit = bounded ? 8 * 1024 * 1024 : 1024 * 1024 * 1024;
    const served = await startHttp([
      "--sessions",
      "--max-event-bytes",
      String(limit),
      "--max-event-bytes-total",
      String(bounded ? 64 * 1024 * 1024 : limit),
    ], { denoFlags: [`--v8-flags=--max-old-space-size=${HEAP_MIB}`] });
    try {
      const id = await mustOpen(served.url);
      const before = await rssMiB(served.pid);
      let answered = 0;
      for (let i = 0; i < calls; i++) {
        const r = await callTool(served.url, "huge", { n: bytes }, undefined, id).catch((e) => e);
        if (r instanceof Error || r.status !== 200 || resultText(r)?.length !== bytes) break;
        answered++;
      }
      if (!bounded) {
        // 60 results of 3 MB kept as events are more than the heap: serve dies.
        assert.ok(answered < calls, `all ${calls} calls answered with a ${HEAP_MIB} MiB heap`);
        return;
      }
      assert.equal(answered, calls, `only ${answered} of ${calls} calls answered`);
      const after = await rssMiB(served.pid);
      assert.equal((await sessionRequest(served.url, "DELETE", undefined, id)).status, 200);
      await new Promise((r) => setTimeout(r, 1000));
      const deleted = await rssMiB(served.pid);
      console.log(
        `serve RSS over ${calls} calls of ${bytes} bytes (heap ${HEAP_MIB} MiB): before ${before} ` +
          `MiB, after ${after} MiB, after DELETE ${deleted} MiB`,
      );
      // The call after DELETE still works: nothing is left half-done.
      const fresh = await mustOpen(served.url);
      const r = await callTool(served.url, "huge", { n: 10 }, undefined, fresh);
      assert.equal(r.status, 200);
    } finally {
      await served.close().catch(() => {});
    }
  });
}
