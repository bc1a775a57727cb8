import assert from "node:assert/strict";
import {
  childEnv,
  inheritedEnvNames,
  NETWORK_ENV,
  SAFE_ENV,
} from "../../../run/process/child_env.ts";

const parent: Record<string, string> = {
  PATH: "/bin",
  HOME: "/home/u",
  NODE_EXTRA_CA_CERTS: "/ca.pem",
  HTTPS_PROXY: "http://proxy:3128",
  DENO_DIR: "/cache/deno",
  AWS_SECRET_ACCESS_KEY: "secret",
  GITHUB_TOKEN: "ghp_x",
};
const lookup = (name: string): string | undefined => parent[name];

Deno.test("childEnv passes the safe and network variables that are set, and no others", () => {
  assert.deepEqual(childEnv({ lookup }), {
    PATH: "/bin",
    HOME: "/home/u",
    NODE_EXTRA_CA_CERTS: "/ca.pem",
    HTTPS_PROXY: "http://proxy:3128",
    DENO_DIR: "/cache/deno",
  });
});

Deno.test("childEnv adds inheritEnv names and lets env values win", () => {
  const env = childEnv({
    lookup,
    inheritEnv: ["GITHUB_TOKEN", "NOT_SET_ANYWHERE"],
    env: { PATH: "/opt/bin", MODE: "x" },
  });
  assert.equal(env.GITHUB_TOKEN, "ghp_x");
  assert.equal(env.PATH, "/opt/bin");
  assert.equal(env.MODE, "x");
  assert.equal("NOT_SET_ANYWHERE" in env, false);
  assert.equal("AWS_SECRET_ACCESS_KEY" in env, false);
});

Deno.test("childEnv passes the whole environment only for inheritEnv all", () => {
  const env = childEnv({ inheritEnv: "all", all: () => ({ ...parent }), env: { MODE: "x" } });
  assert.deepEqual(env, { ...parent, MODE: "x" });
});

Deno.test("childEnv keeps a variable named __proto__ as a plain entry", () => {
  const env = childEnv({ env: { ["__proto__"]: "x" }, lookup: () => undefined });
  assert.deepEqual(Object.keys(env), ["__proto__"]);
  assert.equal(Object.getPrototypeOf(env), Object.prototype);
});

Deno.test("childEnv reads the real environment by default: a secret stays out, CA settings go in", () => {
  Deno.env.set("TF_CHILD_ENV_SECRET", "s3cret");
  const hadCa = Deno.env.get("NODE_EXTRA_CA_CERTS");
  if (hadCa === undefined) Deno.env.set("NODE_EXTRA_CA_CERTS", "/nonexistent/ca.pem");
  try {
    const env = childEnv();
    assert.equal("TF_CHILD_ENV_SECRET" in env, false);
    assert.equal(env.NODE_EXTRA_CA_CERTS, Deno.env.get("NODE_EXTRA_CA_CERTS"));
    assert.equal(childEnv({ inheritEnv: ["TF_CHILD_ENV_SECRET"] }).TF_CHILD_ENV_SECRET, "s3cret");
  } finally {
    Deno.env.delete("TF_CHILD_ENV_SECRET");
    if (hadCa === undefined) Deno.env.delete("NODE_EXTRA_CA_CERTS");
  }
});

Deno.test("childEnv skips names this process may not read instead of failing or prompting", async () => {
  const fixture = new URL("../../fixtures/providers/child_env_limited.ts", import.meta.url);
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--no-config", "--allow-env=PATH,TF_LIMITED_A", fixture.pathname],
    env: { TF_LIMITED_A: "a", TF_LIMITED_B: "b" },
    stdin: "null",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  const env = JSON.parse(new TextDecoder().decode(output.stdout));
  assert.equal(env.TF_LIMITED_A, "a");
  assert.equal("TF_LIMITED_B" in env, false, "not readable here, so not passed");
  assert.equal(typeof env.PATH, "string");
  assert.equal("HOME" in env, false, "not readable here, so not passed");
});

Deno.test("inheritedEnvNames lists the default set and the extra names once, in order", () => {
  const names = inheritedEnvNames({ inheritEnv: ["GITHUB_TOKEN", "PATH", "GITHUB_TOKEN"] });
  assert.notEqual(names, "all");
  assert.deepEqual(names, [...SAFE_ENV, ...NETWORK_ENV, "GITHUB_TOKEN"]);
  assert.deepEqual(inheritedEnvNames(), [...SAFE_ENV, ...NETWORK_ENV]);
  assert.equal(inheritedEnvNames({ inheritEnv: "all" }), "all");
});
