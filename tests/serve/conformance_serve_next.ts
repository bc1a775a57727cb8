// `deno task conformance:serve:next`: the conformance harness 0.2.0-alpha.12
// (the 2026-07-28 revision) against `serve --http --sessions` placed in front
// of tests/fixtures/serve/upstream_2026.ts, an upstream of both eras reached
// over HTTP with `protocol: auto`: the active suite (2025-era clients), then
// every scenario the 2026-07-28 revision requires (`--requirements`, at its
// wire). Scenarios the harness's own reference server fails, and those being
// done elsewhere, are listed with their reason in conformance_serve_next.yml.
// Exits non-zero when a scenario fails that is not listed, or one listed passes.

import { startUpstream2026 } from "./_upstream_2026.ts";
import { ROOT, startHttp } from "./_helpers.ts";

const HARNESS = "npm:@modelcontextprotocol/conformance@0.2.0-alpha.12";
const EXPECTED = `${ROOT}tests/serve/conformance_serve_next.yml`;

async function harness(url: string, extra: string[]): Promise<number> {
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", HARNESS, "server", "--url", url, "--expected-failures", EXPECTED, ...extra],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  return code;
}

const started = performance.now();
const upstream = await startUpstream2026({}, { stderr: "inherit" });
let failed = 0;
try {
  const served = await startHttp(["--sessions"], {
    manifest: `${ROOT}tests/fixtures/serve/manifest_2026_http.yaml`,
    env: { SERVE_UPSTREAM_2026_URL: upstream.url },
  });
  try {
    failed += await harness(served.url, ["--suite", "active"]) === 0 ? 0 : 1;
    failed += await harness(served.url, ["--requirements", "2026-07-28"]) === 0 ? 0 : 1;
  } finally {
    await served.close();
  }
} finally {
  await upstream.close();
}
const seconds = Math.round((performance.now() - started) / 1000);
console.log(
  failed === 0
    ? `conformance:serve:next: every scenario passed or failed as expected (${seconds} s)`
    : `conformance:serve:next: FAILED (${seconds} s)`,
);
Deno.exit(failed === 0 ? 0 : 1);
