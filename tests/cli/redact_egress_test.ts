// Secrets never leave the process, whichever way out: `run`'s stdout and
// stderr, and `serve`'s answers over stdio and HTTP (results, errors, log
// notifications) and its access log. The credentials come from `${env:...}`
// in an HTTP provider's header and URL query and in an MCP server's argument;
// the peers echo them as is, percent-encoded, base64-encoded at every byte
// alignment and in error messages. Variables are expanded once: a value that
// itself reads `${env:OTHER}` reaches the peer as that text.
import assert from "node:assert/strict";
import { cli, flagsFor, tempManifest } from "./_cli.ts";
import { httpClient, startHttp, stdioClient } from "../serve/_helpers.ts";

const API_KEY = "ak_live/+é-0042key";
const API_TOKEN = "tok_S3cret.value-9876";
const UP_TOKEN = "up_cr3d/ential+X?";
const SECRET_B = "b-secret-never-sent";
const ENV = {
  API_KEY,
  API_TOKEN,
  UP_TOKEN,
  SECRET_A: "${env:SECRET_B}",
  SECRET_B,
  TOOLFOUNDATION_INPUT_PASS: "${env:SECRET_B}",
};
const FIXTURE = new URL("../fixtures/cli/credential_server.ts", import.meta.url).pathname;

function b64(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
}

/** The digits of `secret`'s base64 that depend on its bytes alone, at each alignment, both alphabets. */
function base64Cores(secret: string): string[] {
  const n = new TextEncoder().encode(secret).length;
  const out: string[] = [];
  for (let a = 0; a < 3; a++) {
    const std = b64(`${"x".repeat(a)}${secret}`);
    const core = std.slice(Math.ceil(a * 8 / 6), Math.floor((a + n) * 8 / 6));
    out.push(core, core.replaceAll("+", "-").replaceAll("/", "_"));
  }
  return out;
}

/** Every form of a secret that must not appear. */
function forms(secret: string): string[] {
  return [
    secret,
    encodeURIComponent(secret),
    encodeURI(secret),
    JSON.stringify(secret).slice(1, -1),
    ...base64Cores(secret),
  ];
}

function assertNoSecret(text: string, where: string): void {
  for (const secret of [API_KEY, API_TOKEN, UP_TOKEN, SECRET_B, "${env:SECRET_B}"]) {
    for (const form of forms(secret)) {
      assert.ok(!text.includes(form), `${where} leaks ${JSON.stringify(form)}:\n${text}`);
    }
  }
}

/** An HTTP API that echoes what it got: URL and headers, also base64-encoded; `/fail` quotes them in a 401. */
function echoServer(seen: string[]) {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const auth = req.headers.get("authorization") ?? "";
    seen.push(req.headers.get("x-a") ?? "(none)");
    if (new URL(req.url).pathname === "/fail") {
      return new Response(`invalid key in ${req.url} (header ${auth})`, { status: 401 });
    }
    return Response.json({
      url: req.url,
      authorization: auth,
      base64: [b64(auth), b64(`x${auth}`), b64(`xy${auth}`), b64(req.url)],
      base64url: b64(`x${req.url}`).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, ""),
      basic: `Basic ${btoa(`user:${API_TOKEN}`)}`,
    });
  });
}

async function manifestFor(port: number): Promise<string> {
  return await tempManifest(
    [
      "version: 1",
      "providers:",
      "  api:",
      `    url: 'http://127.0.0.1:${port}/{toolId}?api_key=\${env:API_KEY}'`,
      "    headers: { Authorization: 'Bearer ${env:API_TOKEN}', X-A: '${env:SECRET_A}' }",
      "servers:",
      "  up:",
      "    command: deno",
      `    args: [run, --quiet, --allow-env=A, '${FIXTURE}', '\${env:UP_TOKEN}', '\${input:pass}']`,
      "    env: { A: '${env:SECRET_A}' }",
      "    protocol: legacy",
      "tools:",
      "  - { name: echo, provider: api, inputSchema: { type: object } }",
      "  - { name: fail, provider: api, inputSchema: { type: object } }",
      // Listed: configured with the runner (the server's other tools are imported).
      "  - { name: literal, namespace: up, server: up }",
    ].join("\n"),
  );
}

Deno.test("run prints no credential in any form: provider echo, provider error, server result and error", async () => {
  const seen: string[] = [];
  await using server = echoServer(seen);
  const manifest = await manifestFor(server.addr.port);
  const flags = await flagsFor(manifest);
  const echo = await cli(["run", manifest, "echo", "--args", "{}"], { flags, env: ENV });
  assert.equal(echo.code, 0, echo.stderr);
  assert.match(echo.stdout, /"authorization": "Bearer \*\*\*"/);
  assert.match(echo.stdout, /api_key=\*\*\*/);
  assertNoSecret(echo.stdout + echo.stderr, "run echo");
  const fail = await cli(["run", manifest, "fail", "--args", "{}"], { flags, env: ENV });
  assert.equal(fail.code, 1, fail.stderr);
  assert.match(fail.stderr, /HTTP 401/);
  assertNoSecret(fail.stdout + fail.stderr, "run fail");
  const whoami = await cli(["run", manifest, "up:whoami", "--args", "{}", "--events"], {
    flags,
    env: ENV,
  });
  assert.equal(whoami.code, 0, whoami.stderr);
  assert.match(whoami.stdout, /\*\*\*/);
  assertNoSecret(whoami.stdout + whoami.stderr, "run up:whoami");
  const refuse = await cli(["run", manifest, "up:refuse", "--args", "{}"], { flags, env: ENV });
  assert.notEqual(refuse.code, 0);
  assert.match(refuse.stderr, /the credential \*\*\* was refused/);
  assertNoSecret(refuse.stdout + refuse.stderr, "run up:refuse");
});

Deno.test("a variable's value that reads ${env:OTHER} reaches the provider and the server as that text", async () => {
  const seen: string[] = [];
  await using server = echoServer(seen);
  const manifest = await manifestFor(server.addr.port);
  const flags = await flagsFor(manifest);
  const echo = await cli(["run", manifest, "echo", "--args", "{}"], { flags, env: ENV });
  assert.equal(echo.code, 0, echo.stderr);
  assert.deepEqual(seen, ["${env:SECRET_B}"]);
  const literal = await cli(["run", manifest, "up:literal", "--args", "{}"], { flags, env: ENV });
  assert.equal(literal.code, 0, literal.stderr);
  assert.equal(JSON.parse(literal.stdout), "A: literal, input: literal");
});

/** Calls every tool through an MCP client; returns all it received, as one text. */
async function exercise(
  client: Awaited<ReturnType<typeof httpClient>>,
): Promise<string> {
  const received: unknown[] = [];
  client.setNotificationHandler("notifications/message", (n) => {
    received.push(n);
  });
  await client.setLoggingLevel("debug");
  for (const name of ["echo", "fail", "whoami", "refuse", "literal"]) {
    try {
      received.push(await client.callTool({ name, arguments: { note: UP_TOKEN } }));
    } catch (error) {
      received.push(String(error), (error as { data?: unknown }).data);
    }
  }
  const text = JSON.stringify(received);
  assert.match(text, /Bearer \*\*\*/, text); // the echo came back, scrubbed
  assert.match(text, /HTTP 401/, text); // the provider's error
  assert.match(text, /the credential \*\*\* was refused/, text); // the server's error
  assert.match(text, /A: literal, input: literal/, text);
  return text;
}

Deno.test("serve --stdio answers with every credential scrubbed: results, errors and log notifications", async () => {
  const seen: string[] = [];
  await using server = echoServer(seen);
  const manifest = await manifestFor(server.addr.port);
  const client = await stdioClient([], manifest, ENV);
  try {
    const text = await exercise(client);
    assertNoSecret(text, "serve --stdio");
    assert.match(text, /connected with \*\*\*/, text);
  } finally {
    await client.close();
  }
  assert.ok(seen.every((v) => v === "${env:SECRET_B}"), JSON.stringify(seen));
});

Deno.test("serve --http answers and logs with every credential scrubbed", async () => {
  const seen: string[] = [];
  await using server = echoServer(seen);
  const manifest = await manifestFor(server.addr.port);
  const served = await startHttp(["--log-args"], { manifest, env: ENV });
  try {
    const client = await httpClient(served.url);
    try {
      const text = await exercise(client);
      assertNoSecret(text, "serve --http");
    } finally {
      await client.close();
    }
  } finally {
    await served.close();
  }
  assert.match(served.stderr(), /"tool":"echo"/);
  assert.match(served.stderr(), /"note":"\*\*\*"/);
  assertNoSecret(served.stderr(), "serve --http's access log");
  assert.ok(seen.every((v) => v === "${env:SECRET_B}"), JSON.stringify(seen));
});
