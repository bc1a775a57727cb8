// Through the CLI: an HTTP provider whose server redirects to another origin
// sends the manifest's headers only to the configured origin.
import assert from "node:assert/strict";
import { cli, flagsFor, tempManifest } from "./_cli.ts";
import { type Seen, twoOrigins } from "../run/_redirect_servers.ts";

const SECRET = "S3CRET-api-key-value";

Deno.test("cli run: a provider's headers do not follow a 307 to another origin", async () => {
  const servers = await twoOrigins();
  try {
    const manifest = await tempManifest(
      [
        "version: 1",
        "providers:",
        `  api: { url: '${servers.home}/redirect/307/away/echo', headers: { X-Api-Key: '\${env:API_KEY}' } }`,
        "tools:",
        "  - { name: t, provider: api, inputSchema: { type: object } }",
      ].join("\n"),
    );
    // The CLI may reach both servers (permissions grants the configured host only).
    const flags = (await flagsFor(manifest)).map((flag) =>
      flag.startsWith("--allow-net=")
        ? `--allow-net=${new URL(servers.home).host},${new URL(servers.away).host}`
        : flag
    );
    const out = await cli(["run", manifest, "t", "--args", '{"a":1}'], {
      flags,
      env: { API_KEY: SECRET },
    });
    assert.equal(out.code, 0, out.stderr);
    assert.equal(servers.homeSeen[0].headers["x-api-key"], SECRET);
    assert.equal(servers.awaySeen.length, 1);
    const got: Seen = servers.awaySeen[0];
    assert.equal(got.headers["x-api-key"], undefined);
    assert.equal(got.method, "POST");
    assert.deepEqual(JSON.parse(got.body), { a: 1 });
    assert.ok(!JSON.stringify(servers.awaySeen).includes(SECRET));
  } finally {
    await servers.close();
  }
});
