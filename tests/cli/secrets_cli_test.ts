// Secret scrubbing through the CLI: whole texts are scrubbed before any
// excerpt, URL-encoded and JSON-escaped forms are caught (errors, --events),
// only strings change, and too-short secrets are a warning.
import assert from "node:assert/strict";
import { cli, flagsFor, tempManifest } from "./_cli.ts";

// Characters that URLs and JSON both encode.
const SECRET = 'sk live/"quoted"+ä-0123456789';

function serve(handler: (req: Request) => Response | Promise<Response>) {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
}

Deno.test("a secret in an HTTP error, its URL-encoded echo and a 300-char excerpt cut never print", async () => {
  // The server echoes the request URL (percent-encoded by fetch), placed so that
  // the provider's 300-character excerpt of the body cuts through the secret.
  await using server = serve((req) => {
    const url = new URL(req.url);
    const body = `${"x".repeat(280)}${url.pathname}${"y".repeat(100)}`;
    return new Response(body, { status: 500 });
  });
  const manifest = await tempManifest(
    [
      "version: 1",
      "providers:",
      `  api: { url: 'http://127.0.0.1:${server.addr.port}/t/\${env:API_TOKEN}' }`,
      "tools:",
      "  - { name: t, provider: api, inputSchema: { type: object } }",
    ].join("\n"),
  );
  const flags = await flagsFor(manifest);
  for (const events of [false, true]) {
    const out = await cli(["run", manifest, "t", "--args", "{}", ...(events ? ["--events"] : [])], {
      flags,
      env: { API_TOKEN: SECRET },
    });
    assert.equal(out.code, 1, out.stderr);
    const text = out.stdout + out.stderr;
    assert.match(text, /HTTP 500/);
    for (
      const form of [
        SECRET,
        encodeURIComponent(SECRET),
        encodeURI(SECRET),
        JSON.stringify(SECRET).slice(1, -1),
        encodeURIComponent(SECRET).slice(0, 12), // the start of a cut
        SECRET.slice(0, 12),
      ]
    ) {
      assert.ok(!text.includes(form), `${events ? "--events" : "plain"} leaks ${form}:\n${text}`);
    }
    assert.match(text, /\*\*\*/);
  }
});

Deno.test("--events lines and results scrub JSON-escaped secrets, and only inside strings", async () => {
  const manifest = await tempManifest(
    [
      "version: 1",
      "providers:",
      "  echo: { command: sh, args: ['-c', 'cat'], env: { T: '${env:API_TOKEN}' } }",
      "tools:",
      "  - { name: echo, provider: echo, inputSchema: { type: object } }",
    ].join("\n"),
  );
  const flags = await flagsFor(manifest);
  const secret = "12345678";
  const args = {
    [secret]: Number(secret),
    s: `id ${secret}`,
    q: `say "${secret}"`,
    n: [1.5, secret],
  };
  for (const events of [false, true]) {
    const out = await cli(
      ["run", manifest, "echo", "--args", JSON.stringify(args), ...(events ? ["--events"] : [])],
      { flags, env: { API_TOKEN: secret } },
    );
    assert.equal(out.code, 0, out.stderr);
    const expected = { [secret]: Number(secret), s: "id ***", q: 'say "***"', n: [1.5, "***"] };
    assert.equal(out.stdout, `${JSON.stringify(expected, null, 2)}\n`);
    if (events) {
      const done = JSON.parse(out.stderr.trim().split("\n").at(-1)!);
      assert.deepEqual(done.data.structured, expected);
    }
  }
  // No secret in the result: byte-identical to JSON.stringify.
  const clean = { a: "ünïcode \u2028", b: [0.1, -0, 1e21, null], c: { "": "" } };
  const out = await cli(["run", manifest, "echo", "--args", JSON.stringify(clean)], {
    flags,
    env: { API_TOKEN: secret },
  });
  assert.equal(out.stdout, `${JSON.stringify(JSON.parse(JSON.stringify(clean)), null, 2)}\n`);
});

Deno.test("a secret too short to scrub is a warning, and is not scrubbed", async () => {
  const manifest = await tempManifest(
    [
      "version: 1",
      "providers:",
      "  echo: { command: sh, args: ['-c', 'cat'], env: { PIN: '${env:PIN}' } }",
      "tools:",
      "  - { name: echo, provider: echo, inputSchema: { type: object } }",
    ].join("\n"),
  );
  const out = await cli(["run", manifest, "echo", "--args", '{"word":"abc"}'], {
    flags: await flagsFor(manifest),
    env: { PIN: "abc" },
  });
  assert.equal(out.code, 0, out.stderr);
  assert.match(
    out.stderr,
    /warning: the value of \$\{env:PIN\} has 3 characters; values shorter than 6 are not scrubbed/,
  );
  assert.deepEqual(JSON.parse(out.stdout), { word: "abc" });
});
