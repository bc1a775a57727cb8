// The manifest's `protocol` on an MCP server reaches the runner: a 2026-07-28
// server is spoken to in that era by default and in 2025 with `legacy`; an
// unknown value is a manifest error at its position.
import assert from "node:assert/strict";
import { cli, flagsFor, ROOT, tempManifest } from "./_cli.ts";

const MODERN = new URL("../fixtures/run/mcp_modern_server.ts", import.meta.url).pathname;

async function manifest(protocol?: string): Promise<string> {
  const extra = protocol === undefined ? "" : `, protocol: ${protocol}`;
  return await tempManifest(
    [
      "version: 1",
      "servers:",
      `  modern: { command: deno, args: [run, -A, --config, ${ROOT}deno.json, ${MODERN}, stdio]${extra} }`,
      "tools:",
      "  - { name: era, server: modern, inputSchema: { type: object } }",
    ].join("\n"),
  );
}

for (
  const [protocol, expected] of [
    [undefined, "era 2026-07-28"],
    ["auto", "era 2026-07-28"],
    ["legacy", "era 2025"],
    ["'2026-07-28'", "era 2026-07-28"],
  ] as const
) {
  Deno.test(`manifest protocol ${protocol ?? "(default)"} speaks ${expected}`, async () => {
    const path = await manifest(protocol);
    const out = await cli(["run", path, "era"], { flags: await flagsFor(path) });
    assert.equal(out.code, 0, out.stderr);
    assert.equal(JSON.parse(out.stdout), expected);
  });
}

Deno.test("an unknown manifest protocol is reported at its position", async () => {
  const path = await manifest("'2025-11-25'");
  const out = await cli(["validate", path], {
    flags: [`--allow-read=${path}`],
  });
  assert.notEqual(out.code, 0);
  assert.match(out.stderr, /\/servers\/modern\/protocol/);
});
