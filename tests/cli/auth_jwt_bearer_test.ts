// `auth: { grant: jwt_bearer, assertionFile | assertionEnv }`: the CLI exchanges a workload's
// ready assertion for a token (RFC 7523) without a browser or a registration, never prints it,
// and asks for exactly the permissions it needs (the file, the variable).
import assert from "node:assert/strict";
import { parseManifest, planPermissions } from "../../workspace/mod.ts";
import { cli, tempManifest } from "./_cli.ts";
import { startFakeAs, startFakeResource } from "../run/auth/_migration_servers.ts";

const ASSERTION = "eyJ0eXAiOiJKV1QifQ.workload-assertion.sig";

function manifest(url: string, auth: string): string {
  return `version: 1
servers:
  moving:
    url: ${url}
    protocol: legacy
    auth: ${auth}
tools:
  - name: whoami
    server: moving
`;
}

Deno.test("run with grant jwt_bearer reads the assertion file, exchanges it, and prints no assertion", async () => {
  const as = startFakeAs("wif");
  const rs = startFakeResource(as.issuer);
  try {
    as.assertions.add(ASSERTION);
    const path = await tempManifest(
      manifest(rs.mcpUrl, "{ grant: jwt_bearer, clientId: workload, assertionFile: PLACEHOLDER }"),
    );
    const dir = path.slice(0, path.lastIndexOf("/"));
    const file = `${dir}/wif-token`;
    await Deno.writeTextFile(file, `${ASSERTION}\n`);
    await Deno.writeTextFile(path, (await Deno.readTextFile(path)).replace("PLACEHOLDER", file));
    const store = `${dir}/config/toolfoundation/tokens.json`;
    const flags = [
      `--allow-read=${path},${path}.lock,${dir}/config/toolfoundation,${file}`,
      `--allow-write=${dir}/config/toolfoundation`,
      "--allow-net=127.0.0.1",
      "--allow-env=TOOLFOUNDATION_TOKEN_STORE,XDG_CONFIG_HOME,HOME",
    ];
    const out = await cli(["run", path, "whoami", "--args", "{}"], {
      flags,
      env: { TOOLFOUNDATION_TOKEN_STORE: store },
    });
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, new RegExp(`token of ${as.issuer}`));
    const token = as.requests.find((r) => r.path === "/token")!.params;
    assert.equal(token.grant_type, "urn:ietf:params:oauth:grant-type:jwt-bearer");
    assert.equal(token.assertion, ASSERTION, "the file's content, trimmed");
    assert.ok(!as.requests.some((r) => r.path === "/register"));
    assert.ok(!(out.stdout + out.stderr).includes(ASSERTION));
  } finally {
    await Promise.all([as.close(), rs.close()]);
  }
});

Deno.test("jwt_bearer: permissions name the assertion file or variable; a relative file is refused", async () => {
  const plan = (auth: string) =>
    parseManifest(manifest("https://mcp.example.com/mcp", auth), { path: "tools.yaml" })
      .then((m) => planPermissions(m).needs);
  const fromFile = await plan(
    "{ grant: jwt_bearer, clientId: w, assertionFile: /var/run/secrets/tokens/mcp }",
  );
  assert.ok(
    fromFile.some((n) => n.name === "read" && n.value === "/var/run/secrets/tokens/mcp"),
  );
  const fromEnv = await plan("{ grant: jwt_bearer, clientId: w, assertionEnv: WIF_TOKEN }");
  assert.ok(fromEnv.some((n) => n.name === "env" && n.value === "WIF_TOKEN"));
  await assert.rejects(
    plan("{ grant: jwt_bearer, clientId: w, assertionFile: tokens/mcp }"),
    /assertionFile/,
  );
});

Deno.test("run with grant jwt_bearer and no assertion source fails before any request, saying which fields", async () => {
  const as = startFakeAs("wif");
  const rs = startFakeResource(as.issuer);
  try {
    const path = await tempManifest(manifest(rs.mcpUrl, "{ grant: jwt_bearer, clientId: w }"));
    const dir = path.slice(0, path.lastIndexOf("/"));
    const out = await cli(["run", path, "whoami", "--args", "{}"], {
      flags: [
        `--allow-read=${path},${path}.lock,${dir}`,
        `--allow-write=${dir}`,
        "--allow-net=127.0.0.1",
        "--allow-env=TOOLFOUNDATION_TOKEN_STORE,XDG_CONFIG_HOME,HOME",
      ],
      env: { TOOLFOUNDATION_TOKEN_STORE: `${dir}/tokens.json` },
    });
    assert.notEqual(out.code, 0);
    assert.match(out.stderr, /assertionEnv or auth\.assertionFile/);
    assert.equal(as.requests.length, 0);
  } finally {
    await Promise.all([as.close(), rs.close()]);
  }
});
