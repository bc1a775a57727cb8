import assert from "node:assert/strict";
import { startHints } from "../../../run/process/start_hints.ts";

const here: Record<string, string> = { API_TOKEN: "t", REQUESTS_CA_BUNDLE: "/ca.pem" };
const lookup = (name: string): string | undefined => here[name];

Deno.test("startHints finds missing variables in the usual messages of shells and runtimes", () => {
  const cases: [string, string][] = [
    ["bash: line 1: DB_URL: unbound variable", "DB_URL"],
    ["sh: 1: DB_URL: parameter not set", "DB_URL"],
    ["KeyError: 'DB_URL'", "DB_URL"],
    ["Error: environment variable DB_URL is not set", "DB_URL"],
    ["error: missing environment variable `DB_URL`", "DB_URL"],
    ["fatal: DB_URL must be set", "DB_URL"],
  ];
  for (const [stderr, name] of cases) {
    const found = startHints(stderr, { PATH: "/bin" }, { here: lookup });
    assert.deepEqual(found.missingEnv, [name], stderr);
    assert.match(found.hints[0], new RegExp(`needs ${name}, which is not set`), stderr);
  }
});

Deno.test("startHints names a variable set here that the child did not get, and not one it got", () => {
  const found = startHints("401 Unauthorized: API_TOKEN rejected", { PATH: "/bin" }, {
    here: lookup,
  });
  assert.deepEqual(found.missingEnv, ["API_TOKEN"]);
  assert.match(found.hints[0], /API_TOKEN is set here but not passed/);
  assert.match(found.hints[0], /add "API_TOKEN" to the provider's inheritEnv/);
  const given = startHints("401 Unauthorized: API_TOKEN rejected", { API_TOKEN: "t" }, {
    here: lookup,
  });
  assert.deepEqual(given, { hints: [], missingEnv: [], certificate: false });
});

Deno.test("startHints says how to pass a CA when a certificate fails and the child got none", () => {
  const found = startHints(
    "requests.exceptions.SSLError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate",
    { PATH: "/bin" },
    { here: lookup },
  );
  assert.equal(found.certificate, true);
  assert.match(found.hints[0], /\(unable to get local issuer certificate\)/);
  assert.match(found.hints[0], /the command got no CA setting/);
  assert.match(
    found.hints[0],
    /REQUESTS_CA_BUNDLE is set here but not passed: add it to inheritEnv/,
  );
  assert.deepEqual(found.missingEnv, ["REQUESTS_CA_BUNDLE"]);
});

Deno.test("startHints says nothing about an ordinary failure", () => {
  const found = startHints("Traceback: ZeroDivisionError: division by zero", {}, { here: lookup });
  assert.deepEqual(found, { hints: [], missingEnv: [], certificate: false });
});
