// `serve --http` and JSON-RPC batches: refused for the protocol versions that
// removed them (nothing starts), and for 2025-03-26 every request of a batch
// counts against the per-client concurrency limit. A module tool fixture writes
// one marker file per call it starts, so "nothing started" is observable.
import assert from "node:assert/strict";
import { startHttp } from "./_helpers.ts";

function fixture(): { manifest: string; marks: string } {
  const dir = Deno.makeTempDirSync();
  Deno.mkdirSync(`${dir}/marks`);
  Deno.writeTextFileSync(
    `${dir}/mark.ts`,
    `export default async () => {
  await Deno.writeTextFile(new URL("./marks/" + crypto.randomUUID(), import.meta.url), "");
  await new Promise((resolve) => setTimeout(resolve, 1500));
  return { ok: true };
};
`,
  );
  Deno.writeTextFileSync(
    `${dir}/tools.yaml`,
    `version: 1
tools:
  - name: mark
    module: mark.ts
    inputSchema: { type: object }
    permissions: { write: [./marks] }
`,
  );
  return { manifest: `${dir}/tools.yaml`, marks: `${dir}/marks` };
}

function started(marks: string): number {
  return [...Deno.readDirSync(marks)].length;
}

function batch(n: number, from = 1): unknown[] {
  return Array.from({ length: n }, (_, i) => ({
    jsonrpc: "2.0",
    id: from + i,
    method: "tools/call",
    params: { name: "mark", arguments: {} },
  }));
}

function post(url: string, body: unknown, version: string): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": version,
    },
    body: JSON.stringify(body),
  });
}

Deno.test("serve --http refuses a 60-call batch under 2025-06-18 with 400 and starts nothing", async () => {
  const { manifest, marks } = fixture();
  const served = await startHttp([], { manifest });
  try {
    for (const version of ["2025-06-18", "2025-11-25"]) {
      const response = await post(served.url, batch(60), version);
      assert.equal(response.status, 400);
      const answer = await response.json();
      assert.equal(answer.id, null);
      assert.equal(answer.error.code, -32600);
      assert.match(answer.error.message, new RegExp(`batches are not supported .*${version}`));
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(started(marks), 0);
  } finally {
    await served.close();
  }
});

Deno.test("serve --http counts every call of a 2025-03-26 batch against --max-concurrent", async () => {
  const { manifest, marks } = fixture();
  const served = await startHttp(["--max-concurrent", "4"], { manifest });
  try {
    // Larger than the whole limit: refused, nothing started.
    const tooBig = await post(served.url, batch(60), "2025-03-26");
    assert.equal(tooBig.status, 429);
    const refusal = await tooBig.json();
    assert.equal(refusal.error.code, -32000);
    assert.match(refusal.error.message, /a batch of 60 requests .* the limit is 4/);
    assert.equal(started(marks), 0);

    // Four calls fit; while they run, the client has no slot left.
    const running = post(served.url, batch(4), "2025-03-26");
    const deadline = Date.now() + 30_000;
    while (started(marks) < 4 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(started(marks), 4);
    const extra = await post(served.url, batch(1, 100), "2025-03-26");
    assert.equal(extra.status, 429);
    await extra.body?.cancel();
    const twoMore = await post(served.url, batch(2, 200), "2025-03-26");
    assert.equal(twoMore.status, 429);
    await twoMore.body?.cancel();

    const done = await running;
    assert.equal(done.status, 200);
    const text = await done.text();
    for (const id of [1, 2, 3, 4]) assert.match(text, new RegExp(`"id":${id}\\b`));
    assert.equal(started(marks), 4);

    // The slots are back once the batch is answered.
    const after = await post(served.url, batch(4, 300), "2025-03-26");
    assert.equal(after.status, 200);
    await after.text();
    assert.equal(started(marks), 8);
  } finally {
    await served.close();
  }
});
