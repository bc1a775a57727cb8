// The direct path of a `tools/call` to an upstream behind OAuth
// (serve/_fast_upstream.ts): the call carries the bearer token the SDK's
// transport would send (the same provider, asked the same way), and a token
// the server refuses mid-session (401) or finds short of scope (403) is
// handed to the SDK's path before the server ran anything, so that its
// refresh or step-up runs as before; the next call is direct again, with the
// new token.

import assert from "node:assert/strict";
import { MemoryTokenStore, StoreOAuthProvider } from "../../run/auth/mod.ts";
import type { McpServerConfig } from "../../run/mod.ts";
import { mcpUpstream } from "../../serve/mod.ts";
import { Undelivered } from "../../serve/_fast_upstream.ts";
import { startOAuthFixture } from "../run/auth/_oauth_servers.ts";
import { startDpopFixture } from "../run/auth/_dpop_servers.ts";
import { callOn, spyOnDirectPosts, withDirect } from "./_direct_upstream.ts";

for (const ownClient of [true, false]) {
  Deno.test(`${ownClient ? "over our HTTP/1.1 client" : "over fetch"}, a direct call to an OAuth upstream sends the provider's token, and a 401 mid-session or a 403 goes through the SDK's refresh or step-up, as the SDK's path does`, async () => {
    const fx = await startOAuthFixture({ clients: { svc: "svc-secret" }, echoSecrets: true });
    const provider = new StoreOAuthProvider(fx.mcpUrl, {
      store: new MemoryTokenStore(),
      settings: { grant: "client_credentials", clientId: "svc", clientSecret: "svc-secret" },
    });
    const config: McpServerConfig = {
      transport: "http",
      url: fx.mcpUrl,
      authProvider: provider,
      protocol: "legacy",
    };
    const direct = mcpUpstream("secured", config);
    const sdk = mcpUpstream("secured", config);
    const spy = spyOnDirectPosts(direct);
    const on = (enabled: boolean, upstream = enabled ? direct : sdk) =>
      withDirect({ enabled, ownClient }, () => callOn(upstream, "whoami", {}));
    try {
      const first = await on(true);
      assert.equal(spy.count(), 1, "the call did not take the direct path");
      assert.equal(spy.handedBack(), 0, "the token was not sent (or not accepted)");
      assert.deepEqual(first, await on(false));
      assert.match(JSON.stringify(first.result), new RegExp(`token ${fx.issued[0]}`));

      // The server drops every token: the direct call is refused (401), the
      // SDK's path gets a new token and sends the call once more.
      fx.expireAll();
      const refreshed = await on(true);
      assert.equal(fx.issued.length, 2, "no new token after the 401");
      assert.match(JSON.stringify(refreshed.result), new RegExp(`token ${fx.issued[1]}`));
      assert.equal(spy.count(), 2);
      assert.equal(spy.handedBack(), 1, "the 401 was not handed to the SDK's path");
      // Counted by the upstream that handed it back, not by making the error.
      void new Undelivered("made, not thrown");
      assert.equal(spy.handedBack(), 1, "an Undelivered made elsewhere was counted");
      // Direct again, with the new token; the SDK's path says the same.
      const again = await on(true);
      assert.equal(spy.count(), 3);
      assert.equal(spy.handedBack(), 1, "the new token was not sent");
      assert.deepEqual(again, refreshed);
      assert.deepEqual(await on(false), refreshed);
      assert.equal(fx.issued.length, 2, "a token was fetched again without a refusal");

      // A server that never finds the scope enough (403): the SDK's step-up
      // runs and fails the same way on both paths.
      fx.options.always403 = true;
      const refused = await on(true);
      assert.ok(refused.error !== undefined, "a 403 call succeeded");
      assert.deepEqual(refused, await on(false));
    } finally {
      await direct.close();
      await sdk.close();
      await fx.close();
    }
  });
}

Deno.test("a call to an upstream whose tokens are DPoP-bound is sent by the SDK's path (each request needs its proof); no direct post is made", async () => {
  const fx = await startDpopFixture({ clients: { svc: "svc-secret" } });
  const provider = new StoreOAuthProvider(fx.mcpUrl, {
    store: new MemoryTokenStore(),
    settings: { grant: "client_credentials", clientId: "svc", clientSecret: "svc-secret" },
  });
  const upstream = mcpUpstream("bound", {
    transport: "http",
    url: fx.mcpUrl,
    authProvider: provider,
    protocol: "legacy",
  });
  const spy = spyOnDirectPosts(upstream);
  try {
    const seen = await callOn(upstream, "whoami", {});
    assert.equal(seen.error, undefined, JSON.stringify(seen));
    assert.equal(spy.count(), 0, "a direct post was made without a DPoP proof");
    assert.ok(fx.schemes.length > 0 && fx.schemes.every((s) => s === "DPoP"), `${fx.schemes}`);
    assert.deepEqual(fx.errors, []);
  } finally {
    await upstream.close();
    await fx.close();
  }
});
