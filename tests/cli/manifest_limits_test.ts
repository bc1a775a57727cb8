// Manifest limits: size (checked before parsing), YAML alias bombs, nesting
// depth and invalid UTF-8 are manifest errors (exit 2) with a location.
import assert from "node:assert/strict";
import { loadManifest, ManifestError, parseManifest } from "../../workspace/mod.ts";
import {
  DEFAULT_MAX_MANIFEST_BYTES,
  DEFAULT_MAX_MANIFEST_DEPTH,
} from "../../workspace/manifest.ts";
import { cli, readFlags, ROOT, tempManifest } from "./_cli.ts";

const HEAD = "version: 1\ntools:\n  - { name: calc, builtin: calculate }\n";

async function manifestIssues(work: () => Promise<unknown>): Promise<string[]> {
  try {
    await work();
  } catch (error) {
    assert.ok(error instanceof ManifestError, String(error));
    return error.issues.map((i) => `${i.line}:${i.column} ${i.path} ${i.message}`);
  }
  assert.fail("expected a ManifestError");
}

Deno.test("a manifest over the size limit is refused before it is parsed, exit 2", async () => {
  const padding = `# ${"x".repeat(1022)}\n`.repeat(
    Math.ceil(DEFAULT_MAX_MANIFEST_BYTES / 1024) + 1,
  );
  const path = await tempManifest(HEAD + padding);
  const out = await cli(["list", path], { flags: readFlags(path) });
  assert.equal(out.code, 2, out.stderr);
  assert.match(
    out.stderr,
    new RegExp(
      `tools.yaml:1:1: /: the manifest is \\d+ bytes; the limit is ${DEFAULT_MAX_MANIFEST_BYTES}`,
    ),
  );
  const raised = await cli(["list", path, "--max-manifest-bytes", String(8 * 1024 * 1024)], {
    flags: readFlags(path),
  });
  assert.equal(raised.code, 0, raised.stderr);
  const bad = await cli(["list", path, "--max-manifest-bytes=-1"], { flags: readFlags(path) });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--max-manifest-bytes must be a positive whole number/);
});

Deno.test("parseManifest and loadManifest take the size limit as an option", async () => {
  const issues = await manifestIssues(() => parseManifest(HEAD, { path: "m.yaml", maxBytes: 10 }));
  assert.match(issues[0], /^1:1 {2}the manifest is 57 bytes; the limit is 10/);
  const path = await tempManifest(HEAD);
  const loaded = await manifestIssues(() => loadManifest(path, { maxBytes: 20 }));
  assert.match(loaded[0], /the limit is 20/);
  assert.equal((await loadManifest(path)).tools.length, 1);
  // Multi-byte text counts in UTF-8 bytes.
  const wide = `${HEAD}# ${"é".repeat(40)}\n`;
  await manifestIssues(() => parseManifest(wide, { path: "m.yaml", maxBytes: wide.length + 10 }));
});

Deno.test("a YAML alias bomb is a manifest error with its location, exit 2", async () => {
  const path = await tempManifest(
    [
      "version: 1",
      "tools: []",
      "x-a: &a [x, x, x, x, x, x, x, x, x, x]",
      "x-b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]",
      "x-c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]",
      "x-d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]",
      "x-e: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]",
    ].join("\n"),
  );
  const out = await cli(["validate", path], { flags: readFlags(path) });
  assert.equal(out.code, 2, out.stderr);
  assert.match(out.stderr, /tools\.yaml:4:10: \/: aliases expand too much/);
  assert.match(out.stderr, /invalid manifest/);
});

Deno.test("nesting deeper than the limit is a manifest error with its location, exit 2", async () => {
  for (const depth of [DEFAULT_MAX_MANIFEST_DEPTH + 5, 5000]) {
    const nested = "[".repeat(depth) + "]".repeat(depth);
    const path = await tempManifest(`version: 1\ntools: []\nchains: ${nested}\n`);
    const out = await cli(["validate", path], { flags: readFlags(path) });
    assert.equal(out.code, 2, `${depth}: ${out.stderr}`);
    assert.match(out.stderr, /tools\.yaml:3:\d+: .*nesting too deep \(the limit is 128 levels\)/);
    assert.doesNotMatch(out.stderr, /RangeError|Maximum call stack/);
  }
  const ok = "[".repeat(50) + "]".repeat(50);
  const fine = await manifestIssues(() =>
    parseManifest(`version: 1\nchains: ${ok}\n`, { path: "m.yaml" })
  );
  assert.doesNotMatch(fine.join("\n"), /too deep/);
});

Deno.test("invalid UTF-8 is a manifest error at its byte, line and column, exit 2", async () => {
  const bytes = new TextEncoder().encode(
    `${HEAD}  - { name: b, builtin: calculate, description: "caf?" }\n`,
  );
  const at = bytes.indexOf("?".charCodeAt(0));
  bytes[at] = 0xe9; // Latin-1 "é": not UTF-8
  const path = await tempManifest(bytes);
  const out = await cli(["list", path], { flags: readFlags(path) });
  assert.equal(out.code, 2, out.stderr);
  assert.match(
    out.stderr,
    new RegExp(
      `tools\\.yaml:4:${
        at - bytes.lastIndexOf(10, at)
      }: /: invalid UTF-8 at byte offset ${at} \\(byte 0xe9\\)`,
    ),
  );
  assert.equal(out.stdout, "");
  for (const bad of [[0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82]]) {
    const b = new Uint8Array([...new TextEncoder().encode("version: 1\n# "), ...bad]);
    const p = await tempManifest(b);
    const issues = await manifestIssues(() => loadManifest(p));
    assert.match(issues[0], /^2:3 {2}invalid UTF-8 at byte offset 13/, bad.join(","));
  }
});

Deno.test("a 50 MB manifest costs no more memory than a small one (refused unread)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tf-big-" });
  const path = `${dir}/tools.yaml`;
  const line = `  - { name: t, builtin: calculate, description: '${"x".repeat(400)}' }\n`;
  const file = await Deno.open(path, { write: true, create: true });
  const chunk = new TextEncoder().encode(line.repeat(1000));
  await file.write(new TextEncoder().encode("version: 1\ntools:\n"));
  for (let i = 0; i < 120; i++) await file.write(chunk);
  file.close();
  assert.ok((await Deno.stat(path)).size > 50_000_000);
  const time = await Deno.stat("/usr/bin/time").then(() => true, () => false);
  const out = await new Deno.Command(time ? "/usr/bin/time" : Deno.execPath(), {
    args: [
      ...(time ? ["-f", "maxrss_kb=%M", Deno.execPath()] : []),
      "run",
      "--quiet",
      ...readFlags(path),
      "cli.ts",
      "list",
      path,
    ],
    cwd: ROOT,
    stdin: "null",
    env: { NO_COLOR: "1" },
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.match(stderr, /the manifest is \d+ bytes; the limit is/);
  if (time) {
    const kb = Number(/maxrss_kb=(\d+)/.exec(stderr)?.[1]);
    console.log(`50 MB manifest: max RSS ${Math.round(kb / 1024)} MB`);
    assert.ok(kb < 200 * 1024, `max RSS ${kb} KB`); // measured: ~63 MB (before: 1.17 GB)
  }
  await Deno.remove(dir, { recursive: true });
});
