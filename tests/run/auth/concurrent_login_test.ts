// Requests refused at the same time (401 on connect, 403 insufficient_scope on a call) each
// make the SDK start an authorization with the one provider: they share one login (one
// browser, one wait on the loopback receiver, the PKCE verifier and registration the
// authorization URL was made with, one code exchange), then each runs again. Against the
// hand-written authorization server of _oauth_servers.ts, which checks PKCE and the client.
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  login,
  loopbackAuthorization,
  type LoopbackReceiver,
  MemoryTokenStore,
  startLoopbackReceiver,
  StoreOAuthProvider,
  withAuthorization,
} from "../../../run/auth/mod.ts";
import { type OAuthFixture, scriptedBrowser, startOAuthFixture } from "./_oauth_servers.ts";

interface Setup {
  fx: OAuthFixture;
  receiver: LoopbackReceiver;
  provider: StoreOAuthProvider;
  /** Authorization URLs the "browser" was sent to. */
  opened: URL[];
  [Symbol.asyncDispose](): Promise<void>;
}

async function setup(options: Parameters<typeof startOAuthFixture>[0] = {}): Promise<Setup> {
  const fx = await startOAuthFixture(options);
  const receiver = await startLoopbackReceiver();
  const opened: URL[] = [];
  const provider = new StoreOAuthProvider(fx.mcpUrl, {
    store: new MemoryTokenStore(),
    authorize: loopbackAuthorization(receiver, (url) => {
      opened.push(url);
      return scriptedBrowser(url);
    }, { timeoutMs: 10_000 }),
    maxAuthorizations: 2,
  });
  return {
    fx,
    receiver,
    provider,
    opened,
    async [Symbol.asyncDispose]() {
      await receiver.close();
      await fx.close();
    },
  };
}

/** Connects its own client and calls `whoami`; many run at the same time. */
async function whoami(url: string, provider: StoreOAuthProvider): Promise<string> {
  const client = new Client({ name: "test", version: "1.0.0" });
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }),
    );
    const result = await client.callTool({ name: "whoami", arguments: {} });
    return (result.content as Array<{ text: string }>)[0].text;
  } finally {
    await client.close().catch(() => {});
  }
}

function count(fx: OAuthFixture, path: string, grant?: string): number {
  return fx.requests.filter((r) =>
    r.path === path && (grant === undefined || r.params.grant_type === grant)
  ).length;
}

Deno.test("four connections refused (401) at the same time share one login, and each then runs", async () => {
  await using s = await setup();
  const texts = await withAuthorization(
    s.fx.mcpUrl,
    s.provider,
    () => Promise.all([1, 2, 3, 4].map(() => whoami(s.fx.mcpUrl, s.provider))),
  );
  assert.equal(texts.length, 4);
  for (const text of texts) assert.match(text, /^scope: read/);
  assert.equal(s.opened.length, 1, "one browser");
  assert.equal(count(s.fx, "/authorize"), 1);
  // One code, exchanged once, with the verifier and the client its authorization URL named
  // (the fixture refuses another verifier or client with invalid_grant).
  assert.equal(count(s.fx, "/token", "authorization_code"), 1);
  const exchange = s.fx.requests.find((r) => r.params.grant_type === "authorization_code")!;
  assert.equal(exchange.params.client_id, s.opened[0].searchParams.get("client_id"));
});

Deno.test("two calls refused for scope (403) at the same time share one step-up within the limit", async () => {
  await using s = await setup({ callScope: "write" });
  await login(s.fx.mcpUrl, s.provider);
  assert.equal(s.opened.length, 1);
  const texts = await withAuthorization(
    s.fx.mcpUrl,
    s.provider,
    () => Promise.all([1, 2].map(() => whoami(s.fx.mcpUrl, s.provider))),
  );
  for (const text of texts) assert.match(text, /write/);
  // The login and one step-up: two authorizations, the limit (2) not exceeded.
  assert.equal(s.opened.length, 2, "one browser for the step-up");
  assert.ok(s.opened[1].searchParams.get("scope")?.split(" ").includes("write"));
  assert.equal(count(s.fx, "/token", "authorization_code"), 2);
});

Deno.test("after a shared login fails in the browser, the next refusal starts a new one", async () => {
  await using s = await setup();
  let refuse = true;
  const provider = new StoreOAuthProvider(s.fx.mcpUrl, {
    store: new MemoryTokenStore(),
    authorize: loopbackAuthorization(s.receiver, (url) => {
      s.opened.push(url);
      // The user denies the first time: the redirect carries an error instead of a code.
      return scriptedBrowser(url, (back) => {
        if (!refuse) return back;
        refuse = false;
        const denied = new URL(back);
        denied.search = "";
        denied.searchParams.set("error", "access_denied");
        denied.searchParams.set("state", back.searchParams.get("state") ?? "");
        return denied;
      });
    }, { timeoutMs: 10_000 }),
  });
  await assert.rejects(
    withAuthorization(
      s.fx.mcpUrl,
      provider,
      () => Promise.all([1, 2].map(() => whoami(s.fx.mcpUrl, provider))),
    ),
    /access_denied/,
  );
  assert.equal(s.opened.length, 1);
  assert.equal(provider.takePendingAuthorization(), undefined, "the failed login is over");
  const text = await withAuthorization(s.fx.mcpUrl, provider, () => whoami(s.fx.mcpUrl, provider));
  assert.match(text, /^scope: read/);
  assert.equal(s.opened.length, 2);
});
