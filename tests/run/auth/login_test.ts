import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  AuthError,
  findAuthError,
  login,
  loopbackAuthorization,
  type LoopbackReceiver,
  MemoryTokenStore,
  type OAuthClientSettings,
  startLoopbackReceiver,
  StoreOAuthProvider,
  type TokenStore,
  withAuthorization,
} from "../../../run/auth/mod.ts";
import { Redactor } from "../../../workspace/secrets.ts";
import { type OAuthFixture, scriptedBrowser, startOAuthFixture } from "./_oauth_servers.ts";

interface Setup {
  fx: OAuthFixture;
  receiver: LoopbackReceiver;
  store: TokenStore;
  [Symbol.asyncDispose](): Promise<void>;
}

async function setup(options: Parameters<typeof startOAuthFixture>[0] = {}): Promise<Setup> {
  const fx = await startOAuthFixture(options);
  const receiver = await startLoopbackReceiver();
  return {
    fx,
    receiver,
    store: new MemoryTokenStore(),
    async [Symbol.asyncDispose]() {
      await receiver.close();
      await fx.close();
    },
  };
}

function interactive(
  s: Setup,
  open: (url: URL) => void | Promise<void> = (url) => scriptedBrowser(url),
  extra: { settings?: OAuthClientSettings; timeoutMs?: number; maxAuthorizations?: number } = {},
): StoreOAuthProvider {
  return new StoreOAuthProvider(s.fx.mcpUrl, {
    store: s.store,
    authorize: loopbackAuthorization(s.receiver, open, { timeoutMs: extra.timeoutMs ?? 10_000 }),
    loginCommand: "toolfoundation auth login tools.yaml notes",
    ...(extra.settings ? { settings: extra.settings } : {}),
    ...(extra.maxAuthorizations ? { maxAuthorizations: extra.maxAuthorizations } : {}),
  });
}

function headless(s: Setup, settings?: OAuthClientSettings): StoreOAuthProvider {
  return new StoreOAuthProvider(s.fx.mcpUrl, {
    store: s.store,
    loginCommand: "toolfoundation auth login tools.yaml notes",
    ...(settings ? { settings } : {}),
  });
}

async function callWhoami(url: string, provider: StoreOAuthProvider): Promise<string> {
  const client = new Client({ name: "test", version: "1.0.0" });
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }),
    );
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ["whoami"]);
    const result = await client.callTool({ name: "whoami", arguments: {} });
    return (result.content as Array<{ text: string }>)[0].text;
  } finally {
    await client.close().catch(() => {});
  }
}

/** Every token, code and secret the fixture issued or knows. */
function secretsOf(fx: OAuthFixture, extra: string[] = []): string[] {
  return [...fx.issued, ...fx.refreshTokens, ...fx.codes, ...extra];
}

function assertNoSecret(text: string, secrets: string[]): void {
  for (const secret of secrets) assert.ok(!text.includes(secret), `a secret leaked into: ${text}`);
}

function fullText(error: unknown): string {
  const parts: string[] = [];
  for (
    let e = error as { message?: string; cause?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  ) {
    parts.push(String(e.message ?? e));
  }
  return parts.join(" | ");
}

Deno.test("login through a scripted browser stores tokens that a headless client then uses", async () => {
  await using s = await setup();
  const result = await login(s.fx.mcpUrl, interactive(s));
  assert.equal(result.issuer, s.fx.issuer);
  assert.equal(result.refreshable, true);
  const authorize = s.fx.requests.find((r) => r.path === "/authorize")!;
  assert.equal(authorize.params.code_challenge_method, "S256");
  assert.equal(authorize.params.resource, s.fx.mcpUrl);
  assert.equal(authorize.params.redirect_uri, s.receiver.redirectUrl);
  // scopes_supported of the resource, plus offline_access since the server offers refresh.
  assert.equal(authorize.params.scope, "read offline_access");
  assert.ok(s.fx.requests.some((r) => r.path === "/register"), "dynamic registration");
  const text = await callWhoami(s.fx.mcpUrl, headless(s));
  assert.equal(text, "scope: read offline_access");
});

Deno.test("an expired access token is refreshed without a browser and the new one stored", async () => {
  await using s = await setup();
  await login(s.fx.mcpUrl, interactive(s));
  const before = (await s.store.get(s.fx.mcpUrl))!.tokens!.access_token;
  s.fx.expireAll();
  const text = await callWhoami(s.fx.mcpUrl, headless(s));
  assert.match(text, /^scope: read/);
  const after = (await s.store.get(s.fx.mcpUrl))!.tokens!;
  assert.notEqual(after.access_token, before);
  assert.ok(after.refresh_token, "the refresh token is kept");
  assert.ok(
    s.fx.requests.some((r) => r.path === "/token" && r.params.grant_type === "refresh_token"),
  );
  assert.equal(
    s.fx.requests.filter((r) => r.path === "/authorize").length,
    1,
    "no new browser login",
  );
});

Deno.test("without a stored login a headless client stops with auth_login_required, registering nothing", async () => {
  await using s = await setup();
  const error = await callWhoami(s.fx.mcpUrl, headless(s)).then(() => undefined, (e) => e);
  const auth = findAuthError(error);
  assert.ok(auth instanceof AuthError, `not an AuthError: ${error}`);
  assert.equal(auth.code, "auth_login_required");
  assert.match(auth.message, /run: toolfoundation auth login tools\.yaml notes/);
  assert.deepEqual(s.fx.requests.map((r) => r.path), [], "no registration, no authorization");
});

Deno.test("a refresh token the server no longer accepts makes a headless client ask for a login", async () => {
  await using s = await setup();
  await login(s.fx.mcpUrl, interactive(s));
  s.fx.expireAll();
  s.fx.refreshTokens.length = 0;
  // Forget the refresh grants too: the fixture answers invalid_grant.
  const entry = (await s.store.get(s.fx.mcpUrl))!;
  await s.store.set({ ...entry, tokens: { ...entry.tokens!, refresh_token: "refresh-unknown" } });
  const error = await callWhoami(s.fx.mcpUrl, headless(s)).then(() => undefined, (e) => e);
  assert.equal(findAuthError(error)?.code, "auth_login_required");
});

Deno.test("a state mismatch fails the login and no code is exchanged", async () => {
  await using s = await setup();
  const provider = interactive(s, (url) =>
    scriptedBrowser(url, (back) => {
      back.searchParams.set("state", "forged");
      return back;
    }));
  await assert.rejects(login(s.fx.mcpUrl, provider), (e: unknown) => {
    assert.ok(e instanceof AuthError);
    assert.equal(e.code, "auth_failed");
    assert.match(e.message, /state does not match/);
    assertNoSecret(fullText(e), secretsOf(s.fx));
    return true;
  });
  assert.ok(!s.fx.requests.some((r) => r.path === "/token"), "nothing exchanged");
});

Deno.test("the loopback receiver gives up when the browser never comes back", async () => {
  await using s = await setup();
  const provider = interactive(s, () => {}, { timeoutMs: 300 });
  await assert.rejects(login(s.fx.mcpUrl, provider), (e: unknown) => {
    assert.ok(e instanceof AuthError);
    assert.match(e.message, /no authorization response arrived within/);
    return true;
  });
});

for (const fault of ["garbage", "500"] as const) {
  Deno.test(`a token endpoint answering ${fault} fails the login without quoting the code`, async () => {
    await using s = await setup({ tokenFault: fault });
    await assert.rejects(login(s.fx.mcpUrl, interactive(s)), (e: unknown) => {
      assert.ok(e instanceof AuthError, `not an AuthError: ${e}`);
      assert.equal(e.code, "auth_failed");
      assertNoSecret(fullText(e), secretsOf(s.fx));
      return true;
    });
    assert.equal(await s.store.get(s.fx.mcpUrl).then((e) => e?.tokens), undefined);
  });
}

Deno.test("a step-up on 403 insufficient_scope asks for the wider scope and then succeeds", async () => {
  await using s = await setup({ callScope: "write" });
  const provider = interactive(s);
  await login(s.fx.mcpUrl, provider);
  const text = await withAuthorization(
    s.fx.mcpUrl,
    provider,
    () => callWhoami(s.fx.mcpUrl, provider),
  );
  assert.match(text, /write/);
  const scopes = s.fx.requests.filter((r) => r.path === "/authorize").map((r) => r.params.scope);
  assert.equal(scopes.length, 2);
  assert.ok(scopes[1].split(" ").includes("write"), `second request asks for write: ${scopes[1]}`);
});

Deno.test("a server that keeps answering 403 insufficient_scope hits the retry limit", async () => {
  await using s = await setup({ always403: true });
  const provider = interactive(s, undefined, { maxAuthorizations: 2 });
  await login(s.fx.mcpUrl, provider);
  await assert.rejects(
    withAuthorization(s.fx.mcpUrl, provider, () => callWhoami(s.fx.mcpUrl, provider)),
    (e: unknown) => {
      assert.ok(e instanceof AuthError, `not an AuthError: ${e}`);
      assert.equal(e.code, "auth_failed");
      assert.match(e.message, /limit/);
      return true;
    },
  );
  // The conformance harness allows at most 3 authorization requests.
  assert.ok(s.fx.requests.filter((r) => r.path === "/authorize").length <= 2);
});

Deno.test("a headless client that needs a wider scope asks for a login and remembers the scope", async () => {
  await using s = await setup({ callScope: "write" });
  await login(s.fx.mcpUrl, interactive(s));
  const error = await callWhoami(s.fx.mcpUrl, headless(s)).then(() => undefined, (e) => e);
  assert.equal(findAuthError(error)?.code, "auth_login_required");
  assert.match(findAuthError(error)!.message, /write/);
  // The next login asks for it.
  await login(s.fx.mcpUrl, interactive(s));
  const last = s.fx.requests.filter((r) => r.path === "/authorize").at(-1)!;
  assert.ok(last.params.scope.split(" ").includes("write"), last.params.scope);
  assert.match(await callWhoami(s.fx.mcpUrl, headless(s)), /write/);
});

Deno.test("an authorization server other than the configured issuer is refused before any request to it", async () => {
  await using s = await setup();
  const provider = interactive(s, undefined, { settings: { issuer: "https://as.example.com" } });
  await assert.rejects(login(s.fx.mcpUrl, provider), (e: unknown) => {
    assert.ok(e instanceof AuthError);
    assert.match(e.message, /expect issuer https:\/\/as\.example\.com/);
    return true;
  });
  assert.deepEqual(s.fx.requests.map((r) => r.path), []);
});

Deno.test("client credentials with a secret: tokens without a browser, secret never in errors", async () => {
  await using s = await setup({ clients: { svc: "svc-secret-value-123" } });
  const provider = headless(s, {
    grant: "client_credentials",
    clientId: "svc",
    clientSecret: "svc-secret-value-123",
    tokenEndpointAuthMethod: "client_secret_basic",
  });
  assert.equal(await callWhoami(s.fx.mcpUrl, provider), "scope: read");
  const token = s.fx.requests.find((r) => r.path === "/token")!;
  assert.equal(token.params.grant_type, "client_credentials");
  assert.match(token.authorization ?? "", /^Basic /);
  // A wrong secret: the error names the failure, never the secret.
  await using t = await setup({ clients: { svc: "the-right-one" } });
  const wrong = headless(t, {
    grant: "client_credentials",
    clientId: "svc",
    clientSecret: "wrong-secret-456",
  });
  const error = await callWhoami(t.fx.mcpUrl, wrong).then(() => undefined, (e) => e);
  assert.ok(error !== undefined);
  assertNoSecret(fullText(error), ["wrong-secret-456", "the-right-one"]);
});

Deno.test("onSecret receives the code, the PKCE verifier and the tokens of a login, once each", async () => {
  await using s = await setup();
  const seen: string[] = [];
  const provider = new StoreOAuthProvider(s.fx.mcpUrl, {
    store: s.store,
    authorize: loopbackAuthorization(s.receiver, (url) => scriptedBrowser(url), {
      timeoutMs: 10_000,
    }),
    onSecret: (value) => seen.push(value),
  });
  await login(s.fx.mcpUrl, provider);
  const token = s.fx.requests.find((r) => r.path === "/token")!;
  const verifier = token.params.code_verifier;
  assert.ok(verifier !== undefined && verifier.length >= 43);
  for (const value of [verifier, s.fx.codes[0], s.fx.issued[0], s.fx.refreshTokens[0]]) {
    assert.ok(seen.includes(value), `onSecret missed ${value}: ${JSON.stringify(seen)}`);
  }
  assert.equal(new Set(seen).size, seen.length, "each value once");
});

Deno.test("the HTTP Basic header of a configured client secret is scrubbed by a redactor fed by onSecret", async () => {
  const secret = "svc-sëcret/value+123";
  await using s = await setup({ clients: { "svc-client": secret } });
  const redactor = new Redactor();
  const provider = new StoreOAuthProvider(s.fx.mcpUrl, {
    store: s.store,
    settings: {
      grant: "client_credentials",
      clientId: "svc-client",
      clientSecret: secret,
      tokenEndpointAuthMethod: "client_secret_basic",
    },
    onSecret: (value) => redactor.add(value),
  });
  assert.equal(await callWhoami(s.fx.mcpUrl, provider), "scope: read");
  const basic = s.fx.requests.find((r) => r.path === "/token")!.authorization!;
  assert.match(basic, /^Basic /);
  const out = redactor.redact(`the server said: ${basic}`);
  assert.match(out, /\*\*\*/);
  const [, digits] = /Basic (\S*)/.exec(out)!;
  // Left of the scrubbed secret: the digits that encode "svc-client:" alone.
  assert.ok(digits.replace("***", "").length <= Math.floor("svc-client:".length * 8 / 6), out);
  assert.ok(redactor.redact(s.fx.issued[0]) === "***");
});
