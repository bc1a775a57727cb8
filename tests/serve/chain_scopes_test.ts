// OAuth scopes per tool through `serve --http` as a subprocess: a chain needs
// the scopes of every tool its steps call, not only its own.

import assert from "node:assert/strict";
import { startHttp } from "./_helpers.ts";

const MANIFEST = [
  "version: 1",
  "tools:",
  "  - { name: add, builtin: calculate }",
  "  - { name: mul, builtin: calculate }",
  "chains:",
  "  add-twice:",
  "    steps:",
  "      - tool: add",
  "        args: { operation: add, a: 1, b: 2 }",
  "      - tool: add",
  "        args: { operation: add, a: 10, b: 20 }",
  "  open-chain:",
  "    steps:",
  "      - tool: mul",
  "        args: { operation: multiply, a: 2, b: 3 }",
  "",
].join("\n");

Deno.test("serve --http in OAuth mode: a chain whose step calls a scoped tool needs that tool's scope too", async () => {
  const jose = await import("jose");
  const { publicKey, privateKey } = await jose.generateKeyPair("RS256");
  const jwk = { ...await jose.exportJWK(publicKey), kid: "k1", alg: "RS256" };
  const issuerServer = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => Response.json({ keys: [jwk] }),
  );
  const issuer = `http://127.0.0.1:${(issuerServer.addr as Deno.NetAddr).port}`;
  const resource = "http://127.0.0.1/mcp";
  const token = (scope: string) =>
    new jose.SignJWT({ scope }).setProtectedHeader({ alg: "RS256", kid: "k1" }).setIssuer(issuer)
      .setAudience(resource).setSubject("user-7").setIssuedAt().setExpirationTime("5m")
      .sign(privateKey);
  const dir = await Deno.makeTempDir({ prefix: "tf-chain-scopes-" });
  await Deno.writeTextFile(`${dir}/manifest.yaml`, MANIFEST);
  const served = await startHttp([
    "--oauth-issuer",
    issuer,
    "--oauth-resource",
    resource,
    "--oauth-jwks",
    `${issuer}/jwks`,
    "--oauth-scope",
    "add=math:add",
    "--oauth-scope",
    "add-twice=chains:run",
  ], { manifest: `${dir}/manifest.yaml` });
  const call = async (name: string, scope: string) => {
    const response = await fetch(served.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
        authorization: `Bearer ${await token(scope)}`,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name, arguments: {} },
      }),
    });
    return {
      status: response.status,
      header: response.headers.get("www-authenticate") ?? "",
      text: await response.text(),
    };
  };
  try {
    // Only the chain's own scope: the step's tool `add` needs math:add.
    const chainOnly = await call("add-twice", "chains:run");
    assert.equal(chainOnly.status, 403, chainOnly.text);
    assert.match(chainOnly.header, /insufficient_scope/);
    assert.match(chainOnly.header, /math:add/);
    // Only the step's scope: the chain's own scope is still needed.
    const stepOnly = await call("add-twice", "math:add");
    assert.equal(stepOnly.status, 403, stepOnly.text);
    // Both: the chain runs (its last step: 10 + 20).
    const both = await call("add-twice", "chains:run math:add");
    assert.equal(both.status, 200, both.text);
    assert.match(both.text, /30/);
    assert.doesNotMatch(both.text, /"isError":true/);
    // A chain of unscoped tools needs nothing.
    const open = await call("open-chain", "other");
    assert.equal(open.status, 200, open.text);
    assert.match(open.text, /6/);
  } finally {
    await served.close();
    await issuerServer.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
