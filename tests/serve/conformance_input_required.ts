// The conformance harness's `input-required-result-*` scenarios (2026-07-28,
// results of type input_required) against `serve --http` in front of
// tests/fixtures/serve/upstream_input.ts (or against `--url URL`), one
// scenario at a time: prints each scenario's checks passed, failed and
// warned, and exits non-zero when a check fails or warns. `--manifest PATH`
// puts serve in front of another manifest's servers (e.g. the harness's
// reference everything-server by its URL, `protocol: auto`).
//
//   deno run -A tests/serve/conformance_input_required.ts [--url URL | --manifest PATH]

import { ROOT, startHttp } from "./_helpers.ts";

const HARNESS = "npm:@modelcontextprotocol/conformance@0.2.0-alpha.12";
const SCENARIOS = [
  "basic-elicitation",
  "basic-sampling",
  "basic-list-roots",
  "request-state",
  "multiple-input-requests",
  "multi-round",
  "missing-input-response",
  "non-tool-request",
  "result-type",
  "unsupported-methods",
  "tampered-state",
  "capability-check",
  "ignore-extra-params",
  "validate-input",
].map((s) => `input-required-result-${s}`);

// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

async function scenario(url: string, name: string): Promise<string> {
  const { stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", HARNESS, "server", "--url", url, "--scenario", name],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(stdout).replace(ANSI, "") +
    new TextDecoder().decode(stderr).replace(ANSI, "");
  const summary = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(text);
  if (summary === null) return `no summary:\n${text}`;
  const failing = text.split("\n").filter((l) => /\] (FAILURE|WARNING) /.test(l)).map((l) =>
    `    ${l.trim()}`
  );
  return [`${summary[1]}/${summary[2]} passed, ${summary[3]} failed, ${summary[4]} warnings`]
    .concat(failing).join("\n");
}

const at = Deno.args.indexOf("--url");
const manifestAt = Deno.args.indexOf("--manifest");
const served = at >= 0 ? undefined : await startHttp([], {
  manifest: manifestAt >= 0
    ? Deno.args[manifestAt + 1]
    : `${ROOT}tests/fixtures/serve/input_manifest.yaml`,
});
const url = at >= 0 ? Deno.args[at + 1] : served!.url;
let bad = 0;
try {
  for (const name of SCENARIOS) {
    const line = await scenario(url, name);
    if (!/ 0 failed, 0 warnings/.test(line)) bad++;
    console.log(`${name}: ${line}`);
  }
} finally {
  await served?.close();
}
console.log(`${SCENARIOS.length - bad}/${SCENARIOS.length} scenarios with every check passing`);
Deno.exit(bad === 0 ? 0 : 1);
