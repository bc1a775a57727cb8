// Through `serve --http` as a subprocess, with two OAuth subjects (two
// principals): calls of one client that hang upstream do not delay another
// client's call to a fast tool of the same upstream server; the hanging calls
// end at their deadline with a timeout error and their server processes stop.

import assert from "node:assert/strict";
import { startHttp } from "./_helpers.ts";
import { descendants } from "./_upstream_helpers.ts";

const FIXTURE = new URL("../fixtures/serve/hang_upstream.ts", import.meta.url).pathname;

function manifest(tag: string): string {
  return [
    "version: 1",
    "servers:",
    "  hang:",
    `    command: ${JSON.stringify(Deno.execPath())}`,
    `    args: [run, --quiet, --no-config, ${JSON.stringify(FIXTURE)}, ${tag}]`,
    "    protocol: legacy",
    "",
  ].join("\n");
}

/**
 * Ten calls of alice hang upstream, then bob calls a fast tool of the same
 * server: `perProcess` is `--upstream-calls-per-process` (undefined: the
 * default, calls side by side on one process), `hanging` the server processes
 * alice's calls are seen running on.
 */
async function hangingCallsDoNotDelayOthers(
  perProcess: number | undefined,
  hanging: number,
): Promise<void> {
  const jose = await import("jose");
  const { publicKey, privateKey } = await jose.generateKeyPair("RS256");
  const jwk = { ...await jose.exportJWK(publicKey), kid: "k1", alg: "RS256" };
  const issuerServer = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => Response.json({ keys: [jwk] }),
  );
  const issuer = `http://127.0.0.1:${(issuerServer.addr as Deno.NetAddr).port}`;
  const resource = "http://127.0.0.1/mcp";
  const token = (subject: string) =>
    new jose.SignJWT({}).setProtectedHeader({ alg: "RS256", kid: "k1" }).setIssuer(issuer)
      .setAudience(resource).setSubject(subject).setIssuedAt().setExpirationTime("5m")
      .sign(privateKey);
  const tag = `share-http-${crypto.randomUUID()}`;
  const dir = await Deno.makeTempDir({ prefix: "tf-upstream-share-" });
  await Deno.writeTextFile(`${dir}/tools.yaml`, manifest(tag));
  const served = await startHttp([
    "--oauth-issuer",
    issuer,
    "--oauth-resource",
    resource,
    "--oauth-jwks",
    `${issuer}/jwks`,
    "--timeout",
    "3000",
    "--upstream-connections",
    "4",
    ...(perProcess === undefined ? [] : ["--upstream-calls-per-process", String(perProcess)]),
  ], { manifest: `${dir}/tools.yaml` });
  const running = async () =>
    (await descendants(served.pid)).filter((d) =>
      d.args.includes("hang_upstream.ts") && d.args.includes(tag)
    ).length;
  const call = async (bearer: string, name: string, id: number) => {
    const response = await fetch(served.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
        authorization: `Bearer ${bearer}`,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name, arguments: { id } },
      }),
    });
    const text = await response.text();
    assert.equal(response.status, 200, text);
    // One JSON-RPC response, as JSON or as one SSE event.
    const json = text.trimStart().startsWith("{")
      ? text
      : text.split("\n").find((l) => l.startsWith("data: "))!.slice(6);
    return JSON.parse(json).result as { isError?: boolean; content: { text: string }[] };
  };
  try {
    const alice = await token("alice");
    const bob = await token("bob");
    // Warm up: the upstream is connected, its tools listed.
    assert.equal((await call(bob, "fast", 0)).content[0].text, '{"id":0}');
    const started = performance.now();
    const hung = Array.from({ length: 10 }, (_, i) => call(alice, "hang", i + 1));
    // A process each: alice holds what she may of the 4 connections, 3, one
    // is kept for others. Side by side: her 10 calls share one process.
    for (let i = 0; i < 100 && (await running()) < hanging; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(await running(), hanging, "alice's calls hang upstream");
    const before = performance.now();
    const fast = await call(bob, "fast", 99);
    const latency = performance.now() - before;
    console.log(`  bob's call while alice's 10 calls hang: ${latency.toFixed(0)} ms`);
    assert.notEqual(fast.isError, true, JSON.stringify(fast));
    assert.equal(fast.content[0].text, '{"id":99}');
    assert.ok(latency < 2000, `bob waited ${latency} ms`);
    const results = await Promise.all(hung);
    const took = performance.now() - started;
    console.log(`  alice's calls ended after ${took.toFixed(0)} ms`);
    for (const result of results) {
      assert.equal(result.isError, true, JSON.stringify(result));
      assert.match(result.content[0].text, /tool "hang" timed out after 3000 ms/);
    }
    assert.ok(took < 6500, `alice's calls ended after ${took} ms`);
    // The hung calls' connections were closed: their server processes stopped.
    for (let i = 0; i < 100 && (await running()) > 1; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok((await running()) <= 1, `${await running()} servers still run`);
  } finally {
    await served.close();
    await issuerServer.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("serve --http: one client's calls hanging upstream, a process each, do not delay another client's call to the same server", async () => {
  await hangingCallsDoNotDelayOthers(1, 3);
});

Deno.test("serve --http: one client's calls hanging upstream side by side on one process do not delay another client's call to it", async () => {
  await hangingCallsDoNotDelayOthers(undefined, 1);
});
