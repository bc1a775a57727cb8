// The JWT-bearer grant with a ready assertion (workload identity federation, RFC 7523), and a
// refused access token during a session: the authorization server is discovered anew (a server
// that moved to another one is followed there), the request is sent once more, and a server that
// keeps refusing, an authorization server that refuses the assertion, or one that cannot be
// reached end the request with an error naming the authorization server, without a loop.
import assert from "node:assert/strict";
import {
  AuthError,
  findAuthError,
  MemoryTokenStore,
  StoreOAuthProvider,
} from "../../../run/auth/mod.ts";
import { Runner } from "../../../run/mod.ts";
import {
  type FakeAs,
  type FakeResource,
  startFakeAs,
  startFakeResource,
} from "./_migration_servers.ts";

interface Setup {
  as1: FakeAs;
  as2: FakeAs;
  rs: FakeResource;
  [Symbol.asyncDispose](): Promise<void>;
}

function setup(): Setup {
  const as1 = startFakeAs("as1");
  const as2 = startFakeAs("as2");
  const rs = startFakeResource(as1.issuer);
  return {
    as1,
    as2,
    rs,
    async [Symbol.asyncDispose]() {
      await Promise.all([as1.close(), as2.close(), rs.close()]);
    },
  };
}

/** A runner with the server `moving` over Streamable HTTP, its tool imported. */
async function runnerWith(rs: FakeResource, provider: StoreOAuthProvider): Promise<Runner> {
  const runner = new Runner({
    mcpServers: {
      moving: { transport: "http", url: rs.mcpUrl, authProvider: provider, protocol: "legacy" },
    },
    timeoutMs: 20_000,
  });
  await runner.importMcpTools("moving");
  return runner;
}

function jwtBearer(rs: FakeResource, assertion: () => string): StoreOAuthProvider {
  return new StoreOAuthProvider(rs.mcpUrl, {
    store: new MemoryTokenStore(),
    settings: { grant: "jwt_bearer", clientId: "workload", assertion },
  });
}

function tokenRequests(as: FakeAs): Record<string, string>[] {
  return as.requests.filter((r) => r.path === "/token").map((r) => r.params);
}

async function whoami(runner: Runner): Promise<unknown> {
  return (await runner.run("moving:whoami", {})).structured;
}

Deno.test("jwt_bearer exchanges the assertion as is, read anew for each token request", async () => {
  await using s = setup();
  let reads = 0;
  s.as1.assertions.add("jwt-1");
  s.as1.assertions.add("jwt-2");
  const runner = await runnerWith(s.rs, jwtBearer(s.rs, () => `jwt-${++reads}`));
  try {
    assert.equal(await whoami(runner), `token of ${s.as1.issuer}`);
    s.rs.authorizationServer = s.as1.issuer; // every token refused once: a new one is asked for
    s.rs.refuseAll = true;
    await assert.rejects(whoami(runner));
    s.rs.refuseAll = false;
  } finally {
    await runner.close();
  }
  const sent = tokenRequests(s.as1);
  assert.equal(sent[0].grant_type, "urn:ietf:params:oauth:grant-type:jwt-bearer");
  assert.equal(sent[0].assertion, "jwt-1");
  assert.equal(sent[0].client_id, "workload");
  assert.equal(sent[1].assertion, "jwt-2", "the rotated assertion is read again");
  assert.ok(!s.as1.requests.some((r) => r.path === "/register"), "no registration");
});

Deno.test("an authorization server that refuses the assertion gets one request and is named", async () => {
  await using s = setup();
  const provider = jwtBearer(s.rs, () => "stale-workload-jwt");
  const error = await runnerWith(s.rs, provider).then(
    (runner) => runner.close().then(() => assert.fail("connected")),
    (e) => e,
  );
  const auth = findAuthError(error);
  assert.ok(auth instanceof AuthError, String(error));
  assert.equal(auth.code, "auth_failed");
  assert.match(auth.message, new RegExp(`${s.as1.issuer} refused the JWT-bearer assertion`));
  assert.match(auth.message, /not retried/);
  assert.doesNotMatch(auth.message, /stale-workload-jwt/);
  assert.equal(tokenRequests(s.as1).length, 1, "no second token request with the same assertion");
});

Deno.test("a server that moved to another authorization server mid-session is followed there and the call sent once more", async () => {
  await using s = setup();
  for (const as of [s.as1, s.as2]) as.assertions.add("workload-jwt");
  const runner = await runnerWith(s.rs, jwtBearer(s.rs, () => "workload-jwt"));
  try {
    assert.equal(await whoami(runner), `token of ${s.as1.issuer}`);
    const reads = s.rs.metadataReads;
    s.rs.authorizationServer = s.as2.issuer; // the old tokens are refused from now on
    const before = s.rs.calls.length;
    assert.equal(await whoami(runner), `token of ${s.as2.issuer}`);
    assert.ok(s.rs.metadataReads > reads, "the resource metadata is read again");
    assert.equal(tokenRequests(s.as2).length, 1);
    assert.equal(tokenRequests(s.as1).length, 1, "the old authorization server is not asked");
    assert.deepEqual(
      s.rs.calls.slice(before).map((c) => [c.method, c.accepted]),
      [["tools/call", false], ["tools/call", true]],
      "refused once, then sent once more on the same connection",
    );
  } finally {
    await runner.close();
  }
});

Deno.test("a server that refuses the token it just got after re-authorization fails the call once, naming the authorization server", async () => {
  await using s = setup();
  s.as1.assertions.add("workload-jwt");
  const runner = await runnerWith(s.rs, jwtBearer(s.rs, () => "workload-jwt"));
  try {
    s.rs.refuseAll = true;
    const before = s.rs.calls.length;
    const error = await runner.run("moving:whoami", {}).then(() => assert.fail("ran"), (e) => e);
    const auth = findAuthError(error);
    assert.ok(auth instanceof AuthError, String(error));
    assert.match(auth.message, /refused \(HTTP 401\) the access token authorization server/);
    assert.ok(auth.message.includes(s.as1.issuer), auth.message);
    assert.match(String(auth.cause), /invalid_token/);
    assert.equal(s.rs.calls.length - before, 2, "the call was sent twice, not more");
    assert.equal(tokenRequests(s.as1).length, 2, "one re-authorization");
  } finally {
    await runner.close();
  }
});

Deno.test("resource metadata naming an unreachable authorization server fails the call with its URL", async () => {
  await using s = setup();
  s.as1.assertions.add("workload-jwt");
  const runner = await runnerWith(s.rs, jwtBearer(s.rs, () => "workload-jwt"));
  try {
    const gone = startFakeAs("gone");
    await gone.close();
    s.rs.authorizationServer = gone.issuer;
    const started = performance.now();
    const error = await runner.run("moving:whoami", {}).then(() => assert.fail("ran"), (e) => e);
    assert.ok(performance.now() - started < 15_000, "no hang");
    const text = fullText(error);
    assert.ok(text.includes(gone.issuer.replace("http://", "")), text);
  } finally {
    await runner.close();
  }
});

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
