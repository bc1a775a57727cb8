// The direct path of a `tools/call` to a 2026-07-28 Streamable HTTP upstream
// (serve/_fast_upstream.ts, serve/_fast_upstream_modern.ts) gives what the
// SDK's client gives on the same kind of connection: the same results,
// progress, notifications and errors (-32021, -32602, input-required results
// handed back, the -32020 retry after a new listing), and the server gets the
// same request (envelope, `Mcp-*` headers), over our HTTP/1.1 client and
// over `fetch`; a misbehaving server (bytes one by one, garbage, a hang, a
// huge answer, a 400) fails only that call.

import assert from "node:assert/strict";
import type { McpServerConfig } from "../../run/mod.ts";
import { mcpUpstream } from "../../serve/mod.ts";
import {
  callOn,
  type Seen,
  spyOnDirectPosts,
  startHttpFixture,
  withDirect,
} from "./_direct_upstream.ts";
import { startRawModernServer } from "./_raw_modern_upstream.ts";
import { SERVE_UPSTREAM_CASES } from "./_upstream_helpers.ts";

/** The fixture's cases plus what the 2026-07-28 revision adds. */
const CASES: readonly [string, Record<string, unknown>][] = [
  ...SERVE_UPSTREAM_CASES,
  ["test_missing_capability", {}],
  ["test_custom_header", { region: "eu-west" }],
  ["test_logging_tool", {}],
  ["whoami_era", {}],
  ["test_sampling", {}],
];

const modern = (url: string, extra: Partial<McpServerConfig> = {}): McpServerConfig =>
  ({ transport: "http", url, protocol: "2026-07-28", ...extra }) as McpServerConfig;

for (const ownClient of [true, false]) {
  Deno.test(`${ownClient ? "over our HTTP/1.1 client" : "over fetch"}, a tools/call to a 2026-07-28 upstream goes the direct way and gives what the SDK's client gives`, async () => {
    const fixture = await startHttpFixture("upstream_2026.ts");
    const direct = mcpUpstream("up", modern(fixture.url));
    const sdk = mcpUpstream("up", modern(fixture.url));
    const spy = spyOnDirectPosts(direct);
    try {
      for (const [name, args] of CASES) {
        const a = await withDirect({ enabled: true, ownClient }, () => callOn(direct, name, args));
        const b = await withDirect({ enabled: false }, () => callOn(sdk, name, args));
        assert.deepEqual(a, b, name);
      }
      assert.match(
        JSON.stringify((await callOn(direct, "whoami_era", {})).result),
        /modern/,
      );
      // Every call direct; the custom header's call twice (refused -32020
      // without its Mcp-Param header, then retried after a new listing).
      assert.equal(spy.count(), CASES.length + 2);
    } finally {
      await direct.close();
      await sdk.close();
      await fixture.close();
    }
  });
}

const RAW_CASES = [
  "split",
  "merged",
  "json",
  "input",
  "no_type",
  "odd_type",
  "bad_content",
  "rich",
  "rpc_error",
  "refuse_400",
  "text_400",
];

function withoutIds(seen: Seen): Seen {
  return JSON.parse(JSON.stringify(seen).replaceAll(/"tf-\d+"/g, '"tf"'));
}

for (const ownClient of [true, false]) {
  Deno.test(`${ownClient ? "over our HTTP/1.1 client" : "over fetch"}, a raw 2026-07-28 server gets the same request from the direct path as from the SDK's client and its answers (split, JSON, input-required, no or an unknown resultType, bad content, an error, a 400) read the same`, async () => {
    const raw = startRawModernServer();
    const direct = mcpUpstream("raw", modern(raw.url, { headers: { "X-Team": "a" } }));
    const sdk = mcpUpstream("raw", modern(raw.url, { headers: { "X-Team": "a" } }));
    const spy = spyOnDirectPosts(direct);
    try {
      for (const name of RAW_CASES) {
        const before = raw.calls.length;
        const a = await withDirect({ enabled: true, ownClient }, () => callOn(direct, name, {}));
        const b = await withDirect({ enabled: false }, () => callOn(sdk, name, {}));
        assert.deepEqual(withoutIds(a), withoutIds(b), name);
        const [mine, theirs] = raw.calls.slice(before);
        const { id: _a, ...body } = mine.body;
        const { id: _b, ...sdkBody } = theirs.body;
        assert.deepEqual(body, sdkBody, `${name}: the body`);
        const names = (h: Record<string, string>) =>
          Object.keys(h).filter((k) =>
            !["accept-encoding", "accept-language", "content-length"].includes(k)
          )
            .sort();
        assert.deepEqual(names(mine.headers), names(theirs.headers), `${name}: the header names`);
        for (
          const header of ["mcp-protocol-version", "mcp-method", "mcp-name", "x-team", "accept"]
        ) {
          assert.equal(mine.headers[header], theirs.headers[header], `${name}: ${header}`);
        }
      }
      assert.equal(spy.count(), RAW_CASES.length);
      assert.equal(spy.handedBack(), 0, "a call was handed to the SDK's path (sent twice)");
      assert.equal(raw.calls.length, 2 * RAW_CASES.length);
      // A 400 without the call's error fails with the SDK transport's own words.
      const refused = await Promise.all(
        [true, false].map((enabled) =>
          withDirect(
            { enabled, ownClient },
            () =>
              (enabled ? direct : sdk).request("tools/call", { name: "text_400", arguments: {} }, {
                returnInputRequired: true,
              }).then(() => "answered", (e: Error) => e.message),
          )
        ),
      );
      assert.match(refused[0], /Error POSTing to endpoint: no such thing/);
      assert.equal(refused[0], refused[1]);
      const meta = raw.calls[0].body.params as { _meta: Record<string, unknown> };
      assert.equal(meta._meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
      assert.ok("io.modelcontextprotocol/clientCapabilities" in meta._meta);
    } finally {
      await direct.close();
      await sdk.close();
      await raw.close();
    }
  });
}

Deno.test("a direct 2026-07-28 call: garbage fails at once, a cancelled hung call closes its stream (no cancellation notice), a body over the cap fails, and the next call is served", async () => {
  const raw = startRawModernServer();
  const direct = mcpUpstream("raw", modern(raw.url, { maxOutputBytes: 100_000 }));
  try {
    const started = performance.now();
    assert.equal((await callOn(direct, "garbage", {})).error, "failed");
    assert.ok(performance.now() - started < 3000, "garbage did not fail at once");
    const abort = new AbortController();
    const hung = callOn(direct, "hang", {}, abort.signal);
    setTimeout(() => abort.abort(new Error("the client went away")), 200);
    assert.equal((await hung).error, "failed");
    for (let i = 0; i < 100 && raw.aborted() === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(raw.aborted(), 1, "the hung call's stream stayed open");
    assert.equal((await callOn(direct, "huge", {})).error, "failed");
    assert.deepEqual((await callOn(direct, "json", {})).result, {
      content: [{ type: "text", text: "é✓ done" }],
    });
    // Only tool calls were posted: no notifications/cancelled.
    assert.deepEqual(
      raw.calls.map((c) => c.body.params && (c.body.params as { name: string }).name),
      [
        "garbage",
        "hang",
        "huge",
        "json",
      ],
    );
  } finally {
    await direct.close();
    await raw.close();
  }
});
