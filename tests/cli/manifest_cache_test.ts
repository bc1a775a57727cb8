// Start-up: a manifest outside the YAML subset workspace/_yaml_subset.ts reads
// is parsed by npm:yaml once and kept in Deno's cache folder, keyed by a hash
// of its text (workspace/_manifest_cache.ts). A hit must give what npm:yaml
// gives (values, problems and their places), a broken entry must count as a
// miss and be written again, concurrent writers must leave one whole entry,
// and a process without the permissions for the folder must skip it silently.
import assert from "node:assert/strict";
import { ManifestError, parseManifest } from "../../workspace/mod.ts";
import { cli } from "./_cli.ts";

// Anchors and aliases are outside the subset: these go through npm:yaml.
const MANIFEST = [
  "version: 1",
  "tools:",
  "  - &calc { name: calculate, namespace: math, builtin: calculate }",
  "  - name: wait",
  "    namespace: util",
  "    builtin: wait",
  "    description: *calc",
  "",
].join("\n");
const INVALID = [
  "version: 1",
  "tools:",
  "  - name: calculate",
  "    namespace: math",
  "    builtin: no-such-builtin",
  "    description: &d shared",
  "  - name: calculate",
  "    namespace: math",
  "    builtin: calculate",
  "    description: *d",
  "",
].join("\n");

/**
 * Runs `task` with a new temporary folder as the cache's entry folder. The
 * folder is passed as parseManifest's `cache` option, not through DENO_DIR:
 * test modules running in parallel share the process's environment.
 */
async function withCache(task: (entries: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "tf-cache-" });
  try {
    await task(`${dir}/toolfoundation/manifests`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function files(dir: string): Promise<string[]> {
  try {
    return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
}

/** What parsing gives, as comparable data: the manifest (its places included) or the problems. */
async function outcome(text: string, cache: string | false): Promise<unknown> {
  try {
    const m = await parseManifest(text, { path: "/tmp/tools.yaml", cache });
    const places = ["", "/tools", "/tools/0", "/tools/1/description", "/tools/9", "/nope"]
      .flatMap((p) => [m.locate!(p), m.locate!(p, true)]);
    return { tools: m.tools.map((t) => [t.id, t.tool.description]), places };
  } catch (error) {
    assert.ok(error instanceof ManifestError, String(error));
    return error.issues;
  }
}

Deno.test("a manifest outside the YAML subset is kept on a miss and read back on a hit", async () => {
  await withCache(async (entries) => {
    const cold = await outcome(MANIFEST, entries);
    const written = await files(entries);
    assert.equal(written.length, 1, written.join(", "));
    assert.match(written[0], /^[0-9a-f]{64}\.json$/);
    assert.deepEqual(await outcome(MANIFEST, entries), cold);
    // A hit reads the entry: change the kept value and the result changes with it.
    const file = `${entries}/${written[0]}`;
    const entry = JSON.parse(await Deno.readTextFile(file));
    // Entries name the npm:yaml that parsed them: a new version misses them all.
    const config = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
    // The yaml version the import map pins (a new version misses every entry).
    assert.equal(entry.parser, config.imports.yaml.replace(/^npm:(.+)@/, "$1 "));
    entry.value.tools[1].description = "from the cache";
    await Deno.writeTextFile(file, JSON.stringify(entry));
    const hit = await outcome(MANIFEST, entries) as { tools: unknown[] };
    assert.deepEqual(hit.tools[1], ["util:wait", "from the cache"]);
  });
});

Deno.test("problems of a manifest read from the cache are placed as npm:yaml places them", async () => {
  await withCache(async (entries) => {
    const cold = await outcome(INVALID, entries);
    assert.equal((await files(entries)).length, 1);
    const warm = await outcome(INVALID, entries);
    assert.deepEqual(warm, cold);
    assert.ok(Array.isArray(warm) && warm.length >= 2, JSON.stringify(warm));
  });
});

Deno.test("a garbage, truncated or misshapen cache entry is a miss and is written again", async () => {
  await withCache(async (entries) => {
    const cold = await outcome(MANIFEST, entries);
    const [name] = await files(entries);
    const file = `${entries}/${name}`;
    const good = await Deno.readTextFile(file);
    const broken = [
      "\u0000\u0001garbage",
      good.slice(0, good.length / 2),
      JSON.stringify({ ...JSON.parse(good), root: { at: [0, "x"] } }),
      JSON.stringify({ ...JSON.parse(good), format: 999 }),
      JSON.stringify({ ...JSON.parse(good), value: null }),
      "[]",
    ];
    for (const text of broken) {
      await Deno.writeTextFile(file, text);
      assert.deepEqual(await outcome(MANIFEST, entries), cold, text.slice(0, 40));
      assert.equal(await Deno.readTextFile(file), good, "the entry was not written again");
    }
    assert.deepEqual(await files(entries), [name]);
  });
});

Deno.test("a manifest in the YAML subset leaves no cache entry", async () => {
  await withCache(async (entries) => {
    await outcome(
      "version: 1\ntools:\n  - { name: calculate, namespace: math, builtin: calculate }\n",
      entries,
    );
    assert.deepEqual(await files(entries), []);
  });
});

Deno.test("a cache folder that cannot be written is skipped without an error", async () => {
  await withCache(async (entries) => {
    // The folder's place is taken by a file: creating it fails.
    await Deno.mkdir(entries.slice(0, entries.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(entries, "not a folder");
    const first = await outcome(MANIFEST, entries);
    const second = await outcome(MANIFEST, entries);
    assert.deepEqual(second, first);
    assert.equal(await Deno.readTextFile(entries), "not a folder");
  });
});

Deno.test("cache: false keeps nothing and reads nothing back", async () => {
  await withCache(async (entries) => {
    const kept = await outcome(MANIFEST, entries);
    const [name] = await files(entries);
    const entry = JSON.parse(await Deno.readTextFile(`${entries}/${name}`));
    entry.value.tools[1].description = "from the cache";
    await Deno.writeTextFile(`${entries}/${name}`, JSON.stringify(entry));
    // Not read: the manifest's own text is parsed again.
    assert.deepEqual(await outcome(MANIFEST, false), kept);
    await Deno.remove(`${entries}/${name}`);
    assert.deepEqual(await outcome(MANIFEST, false), kept);
    assert.deepEqual(await files(entries), []);
  });
});

Deno.test("concurrent writers of one entry leave one whole entry and no temporary file", async () => {
  await withCache(async (entries) => {
    const all = await Promise.all(Array.from({ length: 12 }, () => outcome(MANIFEST, entries)));
    for (const o of all) assert.deepEqual(o, all[0]);
    const names = await files(entries);
    assert.equal(names.length, 1, names.join(", "));
    JSON.parse(await Deno.readTextFile(`${entries}/${names[0]}`));
  });
});

// The CLI as a user runs it: the cache is used only with the permissions for it.

async function cliCase(name: string, text: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "tf-cache-cli-" });
  await Deno.writeTextFile(`${dir}/${name}`, text);
  return dir;
}

Deno.test("the CLI prints the same with and without the cache, hit or miss, for concurrent runs", async () => {
  const dir = await cliCase("tools.yaml", MANIFEST);
  await Deno.writeTextFile(`${dir}/bad.yaml`, INVALID);
  const cache = `${dir}/deno-dir`;
  const entries = `${cache}/toolfoundation/manifests`;
  const env = { DENO_DIR: cache };
  const readOnly = [`--allow-read=${dir}`];
  const withCacheFlags = [
    "--allow-env=DENO_DIR,XDG_CACHE_HOME,HOME",
    `--allow-read=${dir}`,
    `--allow-write=${cache}`,
  ];
  try {
    for (const args of [["list", `${dir}/tools.yaml`], ["list", `${dir}/bad.yaml`]]) {
      const kept = (await files(entries)).length;
      const plain = await cli(args, { flags: readOnly, env });
      const expected = { code: plain.code, stdout: plain.stdout, stderr: plain.stderr };
      assert.equal((await files(entries)).length, kept, "a process without the permissions wrote");
      const runs = await Promise.all(
        Array.from({ length: 3 }, () => cli(args, { flags: withCacheFlags, env })),
      );
      runs.push(await cli(args, { flags: withCacheFlags, env }));
      for (const run of runs) {
        assert.deepEqual({ code: run.code, stdout: run.stdout, stderr: run.stderr }, expected);
      }
      // Without write permission the cache is not read either (no prompt, no error).
      const noWrite = await cli(args, {
        flags: ["--allow-env=DENO_DIR", `--allow-read=${dir}`],
        env,
      });
      assert.deepEqual(
        { code: noWrite.code, stdout: noWrite.stdout, stderr: noWrite.stderr },
        expected,
      );
    }
    const names = await files(entries);
    assert.equal(names.length, 2, names.join(", "));
    assert.ok(names.every((n) => n.endsWith(".json")), names.join(", "));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
