import assert from "node:assert/strict";
import { AuthError } from "../../run/auth/mod.ts";
import { EXIT, exitCodeOf } from "../../cli/_io.ts";
import { parseManifest, planPermissions } from "../../workspace/mod.ts";
import { cli, ROOT, tempManifest } from "./_cli.ts";
import {
  type OAuthFixture,
  scriptedBrowser,
  startOAuthFixture,
} from "../run/auth/_oauth_servers.ts";

function manifestFor(fx: OAuthFixture, auth = "auth: {}"): string {
  return `version: 1
servers:
  notes:
    url: ${fx.mcpUrl}
    ${auth}
tools:
  - name: whoami
    server: notes
`;
}

interface Env {
  manifest: string;
  dir: string;
  store: string;
  flags: string[];
}

async function env(fx: OAuthFixture, auth?: string): Promise<Env> {
  const manifest = await tempManifest(manifestFor(fx, auth));
  const dir = manifest.slice(0, manifest.lastIndexOf("/"));
  const store = `${dir}/config/toolfoundation/tokens.json`;
  const flags = [
    `--allow-read=${manifest},${manifest}.lock,${dir}/config/toolfoundation`,
    `--allow-write=${dir}/config/toolfoundation`,
    "--allow-net=127.0.0.1",
    "--allow-env=TOOLFOUNDATION_TOKEN_STORE,XDG_CONFIG_HOME,HOME,DISPLAY,WAYLAND_DISPLAY",
  ];
  return { manifest, dir, store, flags };
}

/** Runs `auth login --no-browser`, playing the browser with the URL the CLI prints. */
async function loginViaCli(
  e: Env,
  extra: string[] = [],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      ...e.flags,
      "cli.ts",
      "auth",
      "login",
      e.manifest,
      "notes",
      "--no-browser",
      ...extra,
    ],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", TOOLFOUNDATION_TOKEN_STORE: e.store },
  }).spawn();
  const decoder = new TextDecoder();
  let stderr = "";
  let browsed: Promise<void> | undefined;
  const readErr = (async () => {
    for await (const chunk of child.stderr) {
      stderr += decoder.decode(chunk, { stream: true });
      const url = stderr.match(/(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)/)?.[1];
      if (url && browsed === undefined) browsed = scriptedBrowser(new URL(url));
    }
  })();
  const stdout = new Response(child.stdout).text();
  const status = await child.status;
  await readErr;
  await browsed;
  return { code: status.code, stdout: await stdout, stderr };
}

function assertNoSecret(text: string, fx: OAuthFixture): void {
  for (const s of [...fx.issued, ...fx.refreshTokens, ...fx.codes]) {
    assert.ok(!text.includes(s), `a token or code leaked: ${text}`);
  }
}

Deno.test("auth login (--no-browser) prints the URL, stores tokens 0600, and prints no token", async () => {
  const fx = await startOAuthFixture();
  try {
    const e = await env(fx);
    const out = await loginViaCli(e);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stderr, /Open this URL in a browser to log in/);
    const result = JSON.parse(out.stdout);
    assert.equal(result.server, "notes");
    assert.equal(result.issuer, fx.issuer);
    assert.equal(result.refreshable, true);
    assert.equal(result.store, e.store);
    assertNoSecret(out.stdout + out.stderr, fx);
    if (Deno.build.os !== "windows") assert.equal((await Deno.stat(e.store)).mode! & 0o777, 0o600);
    const file = JSON.parse(await Deno.readTextFile(e.store));
    assert.equal(file.entries[0].tokens.access_token, fx.issued.at(-1), "the token is in the file");

    // status shows the login, not the token.
    const status = await cli(["auth", "status", e.manifest], {
      flags: e.flags,
      env: { TOOLFOUNDATION_TOKEN_STORE: e.store },
    });
    assert.equal(status.code, 0, status.stderr);
    const servers = JSON.parse(status.stdout).servers;
    assert.equal(servers[0].server, "notes");
    assert.equal(servers[0].loggedIn, true);
    assertNoSecret(status.stdout + status.stderr, fx);

    // logout deletes it.
    const logout = await cli(["auth", "logout", e.manifest, "notes"], {
      flags: e.flags,
      env: { TOOLFOUNDATION_TOKEN_STORE: e.store },
    });
    assert.equal(logout.code, 0, logout.stderr);
    assert.equal(JSON.parse(logout.stdout).removed, 1);
    const after = await cli(["auth", "status", e.manifest], {
      flags: e.flags,
      env: { TOOLFOUNDATION_TOKEN_STORE: e.store },
    });
    assert.equal(JSON.parse(after.stdout).servers[0].loggedIn, false);
  } finally {
    await fx.close();
  }
});

Deno.test("auth login with client credentials needs no browser and keeps the secret out of output", async () => {
  const fx = await startOAuthFixture({ clients: { svc: "cli-secret-value-789" } });
  try {
    const e = await env(
      fx,
      "auth: { grant: client_credentials, clientId: svc, clientSecretEnv: SVC_SECRET }",
    );
    const out = await cli(["auth", "login", e.manifest, "notes"], {
      flags: [...e.flags.slice(0, -1), `${e.flags.at(-1)},SVC_SECRET`],
      env: { TOOLFOUNDATION_TOKEN_STORE: e.store, SVC_SECRET: "cli-secret-value-789" },
    });
    assert.equal(out.code, 0, out.stderr);
    assert.ok(!(out.stdout + out.stderr).includes("cli-secret-value-789"));
    assertNoSecret(out.stdout + out.stderr, fx);
    assert.ok(!fx.requests.some((r) => r.path === "/authorize"), "no browser step");
  } finally {
    await fx.close();
  }
});

Deno.test("auth login times out when the browser never comes back (exit 1, names the fix)", async () => {
  const fx = await startOAuthFixture();
  try {
    const e = await env(fx);
    const out = await cli([
      "auth",
      "login",
      e.manifest,
      "notes",
      "--no-browser",
      "--timeout",
      "300",
    ], {
      flags: e.flags,
      env: { TOOLFOUNDATION_TOKEN_STORE: e.store },
    });
    assert.equal(out.code, EXIT.failure);
    assert.match(out.stderr, /no authorization response arrived/);
  } finally {
    await fx.close();
  }
});

Deno.test("auth usage errors exit 2: unknown subcommand or server, missing secret variable or auth block", async () => {
  const fx = await startOAuthFixture();
  try {
    const e = await env(fx, "auth: { clientId: x, clientSecretEnv: NOT_SET_ANYWHERE }");
    const opts = {
      flags: [...e.flags.slice(0, -1), `${e.flags.at(-1)},NOT_SET_ANYWHERE`],
      env: { TOOLFOUNDATION_TOKEN_STORE: e.store },
    };
    assert.equal((await cli(["auth", "nope"], opts)).code, EXIT.usage);
    const unknown = await cli(["auth", "login", e.manifest, "other"], opts);
    assert.equal(unknown.code, EXIT.usage);
    assert.match(unknown.stderr, /no server named "other".*servers: notes/);
    const missing = await cli(["auth", "login", e.manifest, "notes"], opts);
    assert.equal(missing.code, EXIT.usage);
    assert.match(missing.stderr, /NOT_SET_ANYWHERE/);
    const plain = await env(fx, "headers: {}");
    const noBlock = await cli(["auth", "login", plain.manifest, "notes"], { flags: plain.flags });
    assert.equal(noBlock.code, EXIT.usage);
    assert.match(noBlock.stderr, /has no auth: block/);
  } finally {
    await fx.close();
  }
});

Deno.test("an auth block needs url, and its fields are checked", async () => {
  await assert.rejects(
    parseManifest(
      "version: 1\nservers:\n  s:\n    command: x\n    auth: {}\n",
      { path: "tools.yaml" },
    ),
    /auth|url/,
  );
  await assert.rejects(
    parseManifest(
      "version: 1\nservers:\n  s:\n    url: https://a.example/mcp\n    auth: { grant: password }\n",
      { path: "tools.yaml" },
    ),
  );
});

Deno.test("permissions of a tool on an OAuth server: the token store, the auth hosts, the secrets", async () => {
  const manifest = await parseManifest(
    `version: 1
servers:
  notes:
    url: https://mcp.example.com/mcp
    auth:
      clientId: c
      clientSecretEnv: NOTES_SECRET
      issuer: https://login.example.com
      hosts: [idp.example.com]
tools:
  - name: whoami
    server: notes
`,
    { path: "tools.yaml" },
  );
  const needs = planPermissions(manifest).needs;
  const values = (name: string) => needs.filter((n) => n.name === name).map((n) => n.value);
  assert.ok(values("net").includes("mcp.example.com:443"));
  assert.ok(values("net").includes("login.example.com:443"));
  assert.ok(values("net").includes("idp.example.com"));
  assert.ok(values("env").includes("NOTES_SECRET"));
  assert.ok(values("env").includes("TOOLFOUNDATION_TOKEN_STORE"));
  const storeDir = values("write")[0];
  assert.ok(storeDir === undefined || storeDir.endsWith("toolfoundation"), String(storeDir));
  assert.deepEqual(values("read").filter((v) => v === storeDir), [storeDir]);
});

Deno.test("a needed login maps to exit code 4, also when wrapped by the runner", () => {
  const needed = new AuthError("auth_login_required", "log in");
  assert.equal(exitCodeOf(needed), EXIT.login);
  assert.equal(EXIT.login, 4);
  assert.equal(exitCodeOf(new Error("mcp call failed", { cause: needed })), 4);
  assert.equal(exitCodeOf(new AuthError("auth_failed", "no")), EXIT.failure);
});

Deno.test("run on an OAuth server: exit 4 naming `auth login` before it, the stored token after it", async () => {
  const fx = await startOAuthFixture();
  try {
    const e = await env(fx);
    const opts = { flags: e.flags, env: { TOOLFOUNDATION_TOKEN_STORE: e.store } };
    const before = await cli(["run", e.manifest, "whoami", "--args", "{}"], opts);
    assert.equal(before.code, EXIT.login, before.stderr);
    assert.match(before.stderr, /auth login/);
    assert.ok(!fx.requests.some((r) => r.path === "/authorize"), "no browser step unasked");

    const login = await loginViaCli(e);
    assert.equal(login.code, 0, login.stderr);
    const after = await cli(["run", e.manifest, "whoami", "--args", "{}"], opts);
    assert.equal(after.code, 0, after.stderr);
    assertNoSecret(before.stdout + before.stderr + after.stdout + after.stderr, fx);
  } finally {
    await fx.close();
  }
});

/** The flags of "All the flags this needs: ..." of a missing-permission error. */
function allFlags(stderr: string): string[] {
  const line = /All the flags this needs: (.*)\n/.exec(stderr)?.[1];
  assert.ok(line !== undefined, stderr);
  return line.split(" ");
}

Deno.test("auth status / logout without permissions list every flag at once (exit 3); exactly those flags proceed", async () => {
  const manifest = await tempManifest(
    "version: 1\nservers:\n  notes:\n    url: http://127.0.0.1:9/mcp\n    auth: {}\n",
  );
  const dir = manifest.slice(0, manifest.lastIndexOf("/"));
  const env = { TOOLFOUNDATION_TOKEN_STORE: `${dir}/store/tokens.json` };
  const runs: Array<[string[], string]> = [
    [["auth", "status", manifest], '"servers"'],
    [["auth", "status"], '"entries"'],
    [["auth", "logout", manifest, "notes"], '"removed": 0'],
  ];
  for (const [args, printed] of runs) {
    const none = await cli(args, { env });
    assert.equal(none.code, EXIT.permission, none.stderr);
    const flags = allFlags(none.stderr);
    // The store's folder is unknown until its variables may be read: all of read is asked.
    assert.ok(flags.includes("--allow-env=HOME,TOOLFOUNDATION_TOKEN_STORE,XDG_CONFIG_HOME"));
    assert.ok(flags.includes("--allow-read"), flags.join(" "));
    const ok = await cli(args, { env, flags });
    assert.equal(ok.code, 0, `${args.join(" ")} with ${flags.join(" ")}: ${ok.stderr}`);
    assert.ok(ok.stdout.includes(printed), ok.stdout);
    // With the variables readable, the exact folder (and the manifest) are asked for at once.
    const envOnly = await cli(args, { env, flags: [flags.at(-1)!] });
    assert.equal(envOnly.code, EXIT.permission, envOnly.stderr);
    const exact = allFlags(envOnly.stderr);
    const read = [...(args.length > 2 ? [manifest] : []), `${dir}/store`].sort().join(",");
    assert.equal(exact[0], `--allow-read=${read}`, envOnly.stderr);
    if (args[1] === "logout") assert.equal(exact[1], `--allow-write=${dir}/store`);
    const exactly = await cli(args, { env, flags: exact });
    assert.equal(exactly.code, 0, exactly.stderr);
  }
});

Deno.test("auth login lists the server's flags, the store's and the loopback's at once once the manifest is readable", async () => {
  const manifest = await tempManifest(
    "version: 1\nservers:\n  notes:\n    url: http://127.0.0.1:9/mcp\n" +
      "    auth: { clientId: c, clientSecretEnv: NOTES_SECRET, hosts: [login.example.com:443] }\n",
  );
  const dir = manifest.slice(0, manifest.lastIndexOf("/"));
  const env = { TOOLFOUNDATION_TOKEN_STORE: `${dir}/store/tokens.json`, NOTES_SECRET: "s3cret" };
  const args = ["auth", "login", manifest, "notes", "--no-browser", "--timeout", "1000"];
  const readable = await cli(args, { env, flags: [`--allow-read=${manifest}`] });
  assert.equal(readable.code, EXIT.permission, readable.stderr);
  const flags = allFlags(readable.stderr);
  assert.ok(
    flags.includes("--allow-net=127.0.0.1,127.0.0.1:9,login.example.com:443"),
    flags.join(" "),
  );
  const env_ = flags.find((f) => f.startsWith("--allow-env="))!;
  for (const name of ["NOTES_SECRET", "TOOLFOUNDATION_TOKEN_STORE", "HOME", "XDG_CONFIG_HOME"]) {
    assert.ok(env_.split(/[=,]/).includes(name), env_);
  }
  // With exactly those flags it goes on to the server (nothing listens on port 9).
  const ok = await cli(args, { env, flags });
  assert.notEqual(ok.code, EXIT.permission, ok.stderr);
  assert.doesNotMatch(ok.stderr, /missing permission/);
});

/** The base64 digits that encode `secret` alone, at each byte alignment. */
function base64Cores(secret: string): string[] {
  const out: string[] = [];
  for (let a = 0; a < 3; a++) {
    const std = btoa(`${"x".repeat(a)}${secret}`);
    out.push(std.slice(Math.ceil(a * 8 / 6), Math.floor((a + secret.length) * 8 / 6)));
  }
  return out;
}

Deno.test("run prints no OAuth value: a server echoing its access token, a token endpoint quoting the Basic header", async () => {
  const secret = "svc-secret/value+42";
  const fx = await startOAuthFixture({ clients: { svc: secret }, echoSecrets: true });
  try {
    const e = await env(
      fx,
      "auth: { grant: client_credentials, clientId: svc, clientSecretEnv: SVC_SECRET, tokenEndpointAuthMethod: client_secret_basic }",
    );
    const options = {
      flags: [...e.flags.slice(0, -1), `${e.flags.at(-1)},SVC_SECRET`],
      env: { TOOLFOUNDATION_TOKEN_STORE: e.store, SVC_SECRET: secret },
    };
    const ok = await cli(["run", e.manifest, "whoami", "--args", "{}"], options);
    assert.equal(ok.code, 0, ok.stderr);
    // What is left of `Bearer <token>` in base64: the digits of "Bearer" alone.
    assert.match(JSON.parse(ok.stdout), /^scope: read; token \*\*\* QmVhcmVyI\*\*\*=*$/);
    const token = fx.issued[0];
    for (const form of [token, ...base64Cores(token)]) {
      assert.ok(!(ok.stdout + ok.stderr).includes(form), `${form} leaked: ${ok.stdout}`);
    }
    // The token endpoint now refuses, quoting the request (the Basic header, the form).
    fx.options.tokenFault = "echo";
    fx.expireAll();
    await Deno.remove(e.store);
    const refused = await cli(["run", e.manifest, "whoami", "--args", "{}"], options);
    assert.notEqual(refused.code, 0);
    const text = refused.stdout + refused.stderr;
    // Left of the Basic header: the digits of "svc:" alone; also in the SDK's own warning.
    assert.match(text, /OAuth "invalid_grant" .*refused: Basic c3ZjO\*\*\* /, text);
    assert.match(text, /error: .*refused: Basic c3ZjO\*\*\* /, text);
    const basic = btoa(`svc:${new URLSearchParams({ s: secret }).toString().slice(2)}`);
    for (
      const form of [
        secret,
        encodeURIComponent(secret),
        basic,
        ...base64Cores(`${encodeURIComponent(secret)}`).filter((c) => c.length >= 8),
      ]
    ) {
      assert.ok(!text.includes(form), `${form} leaked: ${text}`);
    }
  } finally {
    await fx.close();
  }
});

Deno.test("auth login prints neither the code nor the PKCE verifier an authorization server quotes back", async () => {
  const fx = await startOAuthFixture({ tokenFault: "echo" });
  try {
    const e = await env(fx);
    const out = await loginViaCli(e);
    assert.notEqual(out.code, 0);
    const token = fx.requests.find((r) => r.path === "/token");
    assert.ok(token?.params.code_verifier, "a code exchange was attempted");
    const text = out.stdout + out.stderr;
    for (const form of [token.params.code_verifier, token.params.code, ...fx.codes]) {
      assert.ok(!text.includes(form), `${form} leaked: ${text}`);
    }
  } finally {
    await fx.close();
  }
});
