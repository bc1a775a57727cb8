// The HTTP provider follows redirects itself: at most 20, the method and body
// per the status, and nothing configured (nor Authorization, Cookie,
// Proxy-Authorization) reaches another origin than the configured URL's.
import assert from "node:assert/strict";
import { providerBackend } from "../../../model/mod.ts";
import { ExecutionError, httpProvider, Runner } from "../../../run/mod.ts";
import { type Seen, twoOrigins } from "../_redirect_servers.ts";

const SECRET = "S3CRET-api-key";
const TOKEN = "T0KEN-bearer";

function runnerFor(url: string): Runner {
  const runner = new Runner({
    providers: [httpProvider({
      id: "api",
      url,
      headers: { "X-Api-Key": SECRET, Authorization: `Bearer ${TOKEN}`, Cookie: "session=C00KIE" },
    })],
  });
  runner.registry.add({ name: "t", inputSchema: { type: "object" } }, providerBackend("api", "t"));
  return runner;
}

/** Whether any trace of our secrets is in what a server got. */
function leaks(seen: Seen[]): string[] {
  const text = JSON.stringify(seen);
  return [SECRET, TOKEN, "C00KIE"].filter((secret) => text.includes(secret));
}

for (const status of [307, 308, 302, 301, 303]) {
  Deno.test(`http provider: a ${status} to another origin reaches it without the configured headers or credentials`, async () => {
    const servers = await twoOrigins();
    const runner = runnerFor(`${servers.home}/redirect/${status}/away/echo`);
    try {
      const got = (await runner.run("t", { a: 1 })).structured as Seen;
      assert.equal(servers.awaySeen.length, 1, "the redirect was followed");
      assert.deepEqual(leaks(servers.awaySeen), []);
      assert.equal(got.headers["x-api-key"], undefined);
      assert.equal(got.headers["authorization"], undefined);
      assert.equal(got.headers["cookie"], undefined);
      assert.equal(got.headers["x-tool-id"], "t", "our own non-secret header is kept");
      // The first origin did get them.
      assert.equal(servers.homeSeen[0].headers["x-api-key"], SECRET);
      if (status === 307 || status === 308) {
        assert.equal(got.method, "POST");
        assert.deepEqual(JSON.parse(got.body), { a: 1 });
      } else {
        assert.equal(got.method, "GET");
        assert.equal(got.body, "");
        assert.equal(got.headers["content-type"], undefined);
      }
    } finally {
      await runner.close();
      await servers.close();
    }
  });
}

Deno.test("http provider: a 307 within the origin keeps the configured headers and the body", async () => {
  const servers = await twoOrigins();
  const runner = runnerFor(`${servers.home}/redirect/307/home/echo`);
  try {
    const got = (await runner.run("t", { a: 2 })).structured as Seen;
    assert.equal(servers.homeSeen.length, 2);
    assert.equal(got.headers["x-api-key"], SECRET);
    assert.equal(got.headers["authorization"], `Bearer ${TOKEN}`);
    assert.equal(got.headers["cookie"], "session=C00KIE");
    assert.equal(got.method, "POST");
    assert.deepEqual(JSON.parse(got.body), { a: 2 });
  } finally {
    await runner.close();
    await servers.close();
  }
});

Deno.test("http provider: a query secret of the configured URL stays on its origin", async () => {
  const servers = await twoOrigins();
  const runner = runnerFor(`${servers.home}/redirect/307/away/echo?api_key=${SECRET}`);
  try {
    const got = (await runner.run("t", {})).structured as Seen;
    assert.equal(new URL(got.url).search, "");
    assert.deepEqual(leaks(servers.awaySeen), []);
  } finally {
    await runner.close();
    await servers.close();
  }
});

Deno.test("http provider: once dropped, the credentials stay dropped back on the first origin", async () => {
  // home -> away -> home
  let home = "";
  const bouncing = await twoOrigins({
    away: () => new Response(null, { status: 307, headers: { location: `${home}/echo` } }),
  });
  home = bouncing.home;
  const runner2 = runnerFor(`${bouncing.home}/redirect/307/away/bounce`);
  try {
    const got = (await runner2.run("t", {})).structured as Seen;
    assert.equal(bouncing.homeSeen.length, 2);
    assert.equal(got.headers["x-api-key"], undefined);
    assert.equal(got.headers["authorization"], undefined);
  } finally {
    await runner2.close();
    await bouncing.close();
  }
});

Deno.test("http provider: a redirect loop fails after 20 redirects, saying so", async () => {
  const servers = await twoOrigins();
  const runner = runnerFor(`${servers.home}/loop`);
  try {
    const error = await runner.run("t", {}).catch((e) => e);
    assert.ok(error instanceof ExecutionError, String(error));
    assert.match(error.message, /more than 20 redirects/);
    assert.match(error.message, /redirect loop/);
    assert.equal(error.details.redirect, "too_many_redirects");
    assert.equal(servers.homeSeen.length, 21, "the first request and 20 redirects");
  } finally {
    await runner.close();
    await servers.close();
  }
});

Deno.test("http provider: a redirect to a non-http(s) URL is an error", async () => {
  const servers = await twoOrigins();
  const runner = runnerFor(`${servers.home}/redirect/307/ftp/file`);
  try {
    const error = await runner.run("t", {}).catch((e) => e);
    assert.ok(error instanceof ExecutionError, String(error));
    assert.match(error.message, /redirects to a ftp: URL; only http and https/);
    assert.equal(error.details.redirect, "redirect_scheme");
  } finally {
    await runner.close();
    await servers.close();
  }
});

Deno.test("http provider: a 401 after a redirect to another origin says the credentials stayed home", async () => {
  const servers = await twoOrigins({ away: () => new Response("who are you", { status: 401 }) });
  const runner = runnerFor(`${servers.home}/redirect/307/away/echo`);
  try {
    const error = await runner.run("t", {}).catch((e) => e);
    assert.ok(error instanceof ExecutionError, String(error));
    assert.equal(error.details.status, 401);
    assert.equal(error.details.redirectedTo, servers.away);
    assert.match(
      error.message,
      /another origin: the configured headers and credentials were not sent/,
    );
  } finally {
    await runner.close();
    await servers.close();
  }
});
