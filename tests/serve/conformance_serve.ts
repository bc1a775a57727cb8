// `deno task conformance:serve`: the conformance harness's server suite (the
// active scenarios, then json-schema-2020-12) against `serve --http --sessions`
// placed in front of tests/fixtures/serve/upstream.ts. Exits non-zero when a
// scenario fails.

import { startHttp } from "./_helpers.ts";

const HARNESS = "npm:@modelcontextprotocol/conformance@0.1.16";

async function harness(url: string, extra: string[]): Promise<number> {
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", HARNESS, "server", "--url", url, ...extra],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  return code;
}

const served = await startHttp(["--sessions"]);
let failed = 0;
try {
  failed += await harness(served.url, ["--suite", "active"]) === 0 ? 0 : 1;
  failed += await harness(served.url, ["--scenario", "json-schema-2020-12"]) === 0 ? 0 : 1;
} finally {
  await served.close();
}
console.log(
  failed === 0 ? "conformance:serve: every scenario passed" : "conformance:serve: FAILED",
);
Deno.exit(failed === 0 ? 0 : 1);
