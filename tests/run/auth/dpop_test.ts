import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Runner } from "../../../run/mod.ts";
import {
  FileTokenStore,
  findAuthError,
  login,
  loopbackAuthorization,
  MemoryTokenStore,
  type OAuthClientSettings,
  startLoopbackReceiver,
  StoreOAuthProvider,
  type TokenStore,
  withAuthorization,
} from "../../../run/auth/mod.ts";
import { Redactor } from "../../../workspace/secrets.ts";
import { scriptedBrowser } from "./_oauth_servers.ts";
import {
  type DpopFixture,
  type DpopFixtureOptions,
  GARBAGE_NONCE,
  startDpopFixture,
} from "./_dpop_servers.ts";

const CLIENT: OAuthClientSettings = {
  grant: "client_credentials",
  clientId: "svc",
  clientSecret: "svc-secret-value",
  tokenEndpointAuthMethod: "client_secret_basic",
};

async function fixture(options: DpopFixtureOptions = {}) {
  const fx = await startDpopFixture({ clients: { svc: "svc-secret-value" }, ...options });
  return Object.assign(fx, { [Symbol.asyncDispose]: () => fx.close() });
}

function provider(
  fx: DpopFixture,
  store: TokenStore = new MemoryTokenStore(),
  settings: OAuthClientSettings = CLIENT,
  onSecret?: (value: string) => void,
): StoreOAuthProvider {
  return new StoreOAuthProvider(fx.mcpUrl, {
    store,
    settings,
    loginCommand: "toolfoundation auth login tools.yaml s",
    ...(onSecret ? { onSecret } : {}),
  });
}

/** Lists and calls `whoami` with the SDK client; returns its text. */
async function whoami(url: string, p: StoreOAuthProvider): Promise<string> {
  const client = new Client({ name: "test", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: p }));
    await client.listTools();
    const result = await client.callTool({ name: "whoami", arguments: {} });
    return (result.content as Array<{ text: string }>)[0].text;
  } finally {
    await client.close().catch(() => {});
  }
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

Deno.test("through the runner, the token request and every MCP request carry a fresh valid proof and the DPoP scheme", async () => {
  await using fx = await fixture();
  const p = provider(fx);
  const runner = new Runner({
    mcpServers: { s: { transport: "http", url: fx.mcpUrl, authProvider: p } },
  });
  try {
    await runner.importMcpTools("s");
    const result = await runner.run("s:whoami", {});
    const text = (result.mcpResult?.content as unknown as Array<{ text: string }>)[0].text;
    assert.match(text, /^DPoP \S+$/);
  } finally {
    await runner.close();
  }
  assert.deepEqual(fx.errors, []);
  const token = fx.proofs.filter((x) => x.where === "token");
  const mcp = fx.proofs.filter((x) => x.where === "mcp");
  assert.equal(token.length, 1);
  assert.equal(token[0].htu, fx.tokenUrl);
  assert.equal(token[0].ath, undefined);
  assert.ok(mcp.length >= 3, `initialize, tools/list and tools/call: ${mcp.length}`);
  assert.ok(mcp.every((x) => x.htu === fx.mcpUrl && x.htm === "POST" && x.ath !== undefined));
  assert.deepEqual([...new Set(fx.schemes)], ["DPoP"]);
  // One key for the token request and every request that presents the token.
  assert.equal(new Set(fx.proofs.map((x) => x.jkt)).size, 1);
  assert.equal(new Set(fx.proofs.map((x) => x.jti)).size, fx.proofs.length);
});

Deno.test("nonces demanded by the token endpoint and the MCP server are each answered by one retry", async () => {
  await using fx = await fixture({ asNonce: "once", rsNonce: "once" });
  assert.match(await whoami(fx.mcpUrl, provider(fx)), /^DPoP /);
  assert.deepEqual(fx.errors, []);
  assert.deepEqual(fx.challenges, { as: 1, rs: 1 });
  assert.deepEqual(fx.tokenRequests, ["client_credentials", "client_credentials"]);
  // After the challenge every proof to that server carries its nonce.
  const mcp = fx.proofs.filter((x) => x.where === "mcp");
  assert.ok(mcp.length >= 3 && mcp.every((x) => x.nonce !== undefined));
  assert.ok(fx.proofs.find((x) => x.where === "token")?.nonce);
});

Deno.test("a token endpoint demanding a new nonce every time fails the login after one retry, naming use_dpop_nonce", async () => {
  await using fx = await fixture({ asNonce: "always" });
  const p = provider(fx);
  await assert.rejects(
    withAuthorization(fx.mcpUrl, p, () => whoami(fx.mcpUrl, p)),
    (e: unknown) => {
      const auth = findAuthError(e);
      assert.equal(auth?.code, "auth_failed", fullText(e));
      assert.match(
        auth!.message,
        /use_dpop_nonce: the authorization server asked for a new DPoP nonce again/,
      );
      return true;
    },
  );
  assert.equal(fx.challenges.as, 2, "the first request and one retry");
  assert.equal(fx.issued.size, 0);
});

Deno.test("an MCP server demanding a new nonce on every request fails it without looping", async () => {
  await using fx = await fixture({ rsNonce: "always" });
  await assert.rejects(whoami(fx.mcpUrl, provider(fx)));
  assert.ok(fx.mcpRequests <= 8, `bounded: ${fx.mcpRequests} MCP requests`);
  assert.deepEqual(fx.errors, []);
});

Deno.test("a garbage DPoP-Nonce from the token endpoint stops with auth_failed and is never signed into a proof", async () => {
  await using fx = await fixture({ asNonce: "garbage" });
  await assert.rejects(whoami(fx.mcpUrl, provider(fx)), (e: unknown) => {
    const auth = findAuthError(e);
    assert.equal(auth?.code, "auth_failed", fullText(e));
    assert.match(auth!.message, /DPoP-Nonce header that is not a nonce/);
    assert.match(auth!.message, new RegExp(fx.issuer.replaceAll(".", "\\.")));
    return true;
  });
  assert.ok(fx.proofs.every((x) => x.nonce !== GARBAGE_NONCE));
  assert.equal(fx.tokenRequests.length, 1, "no retry with the garbage nonce");
});

Deno.test("a garbage DPoP-Nonce from the MCP server stops the request with auth_failed", async () => {
  await using fx = await fixture({ rsNonce: "garbage" });
  await assert.rejects(whoami(fx.mcpUrl, provider(fx)), (e: unknown) => {
    assert.match(fullText(e), /DPoP-Nonce header that is not a nonce/);
    return true;
  });
  assert.ok(fx.proofs.every((x) => x.nonce !== GARBAGE_NONCE));
});

Deno.test("a DPoP token from an authorization server that was sent no proof is refused and not stored", async () => {
  await using fx = await fixture({ advertise: null, tokenType: "DPoP" });
  const store = new MemoryTokenStore();
  await assert.rejects(whoami(fx.mcpUrl, provider(fx, store)), (e: unknown) => {
    const auth = findAuthError(e);
    assert.equal(auth?.code, "auth_failed", fullText(e));
    assert.match(auth!.message, /token_type DPoP\) although this client sent no DPoP proof/);
    return true;
  });
  assert.equal((await store.get(fx.mcpUrl))?.tokens, undefined);
  assert.equal(fx.proofs.length, 0);
});

Deno.test("a token type the client does not know is refused (RFC 6749 section 7.1)", async () => {
  await using fx = await fixture({ tokenType: "mac" });
  await assert.rejects(whoami(fx.mcpUrl, provider(fx)), (e: unknown) => {
    assert.match(findAuthError(e)?.message ?? fullText(e), /token of type "mac"/);
    return true;
  });
  assert.deepEqual(fx.schemes, []);
});

Deno.test("a Bearer token issued despite a proof is presented as Bearer", async () => {
  await using fx = await fixture({ tokenType: "Bearer" });
  assert.equal(await whoami(fx.mcpUrl, provider(fx)), "Bearer -");
  assert.equal(fx.proofs.filter((x) => x.where === "token").length, 1);
  assert.deepEqual(fx.errors, []);
});

Deno.test("without dpop_signing_alg_values_supported no proof is sent; auth.dpop: true sends one anyway", async () => {
  await using fx = await fixture({ advertise: null });
  assert.equal(await whoami(fx.mcpUrl, provider(fx)), "Bearer -");
  assert.equal(fx.proofs.length, 0);
  assert.match(
    await whoami(fx.mcpUrl, provider(fx, new MemoryTokenStore(), { ...CLIENT, dpop: true })),
    /^DPoP /,
  );
  assert.deepEqual(fx.errors, []);
});

Deno.test("auth.dpop: false sends no proof to a server that offers DPoP", async () => {
  await using fx = await fixture();
  const store = new MemoryTokenStore();
  assert.equal(
    await whoami(fx.mcpUrl, provider(fx, store, { ...CLIENT, dpop: false })),
    "Bearer -",
  );
  assert.equal(fx.proofs.length, 0);
  assert.equal((await store.get(fx.mcpUrl))?.dpop, undefined);
});

Deno.test("the key is stored with the entry: a reloaded store presents the token with it, and a refresh keeps it", async () => {
  await using fx = await fixture();
  const dir = await Deno.makeTempDir();
  const receiver = await startLoopbackReceiver();
  try {
    const path = `${dir}/tokens.json`;
    const interactive = new StoreOAuthProvider(fx.mcpUrl, {
      store: new FileTokenStore(path),
      authorize: loopbackAuthorization(receiver, (url) => scriptedBrowser(url), {
        timeoutMs: 10_000,
      }),
    });
    await login(fx.mcpUrl, interactive);
    const entry = (await new FileTokenStore(path).get(fx.mcpUrl))!;
    assert.equal(entry.tokens?.token_type, "DPoP");
    assert.ok(entry.dpop?.jwk.d, "the private key is stored with the tokens");
    const bound = fx.issued.get(entry.tokens!.access_token);
    assert.equal(entry.dpop!.jkt, bound);
    // A new process: a new provider over the same file.
    const text = await whoami(fx.mcpUrl, provider(fx, new FileTokenStore(path), {}));
    assert.equal(text, `DPoP ${bound}`);
    // The access token is refused: the refresh is signed with the stored key, the new token bound to it.
    fx.expireAll();
    assert.equal(
      await whoami(fx.mcpUrl, provider(fx, new FileTokenStore(path), {})),
      `DPoP ${bound}`,
    );
    assert.ok(fx.tokenRequests.includes("refresh_token"));
    const after = (await new FileTokenStore(path).get(fx.mcpUrl))!;
    assert.notEqual(after.tokens!.access_token, entry.tokens!.access_token);
    assert.equal(after.dpop!.jkt, bound);
    assert.deepEqual(fx.errors, []);
  } finally {
    await receiver.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the private key reaches onSecret, so a redactor scrubs it from a printed entry", async () => {
  await using fx = await fixture();
  const store = new MemoryTokenStore();
  const redactor = new Redactor();
  const p = provider(fx, store, CLIENT, (value) => redactor.add(value));
  await whoami(fx.mcpUrl, p);
  const entry = (await store.get(fx.mcpUrl))!;
  const d = entry.dpop!.jwk.d;
  const printed = redactor.redact(JSON.stringify(entry));
  assert.ok(!printed.includes(d), "the private key was printed");
  assert.ok(!p.scrub(JSON.stringify(entry)).includes(d));
  assert.ok(printed.includes(entry.dpop!.jkt), "the public thumbprint is not a secret");
});

Deno.test("a manifest auth block's dpop setting reaches the provider settings", async () => {
  const { authSettings } = await import("../../../workspace/server_auth.ts");
  const redactor = new Redactor();
  assert.equal(authSettings({ dpop: false }, () => undefined, redactor).dpop, false);
  assert.equal(authSettings({ dpop: true }, () => undefined, redactor).dpop, true);
  assert.equal("dpop" in authSettings({}, () => undefined, redactor), false);
});
