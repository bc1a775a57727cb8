// scripts/_stable_chunk_names.ts: the CLI bundle's chunks named after the
// modules they hold, so that an edit rewrites only the chunks it changed.
import assert from "node:assert/strict";
import { type BundleFile, stableChunkNames } from "../../scripts/_stable_chunk_names.ts";

const DIR = "cli/_generated/cli";
const map = (...sources: string[]) => JSON.stringify({ version: 3, sources, mappings: "" });

/** A bundle: main imports a shared chunk, which a command chunk re-exports; an empty chunk. */
function bundle(sharedHash: string, sharedCode: string, emptyHash = "EEEEEEEE"): BundleFile[] {
  return [
    {
      name: "main.js",
      text: `import{a}from"./chunk-${sharedHash}.js";import("./run-RRRRRRRR.js");a();\n` +
        "//# sourceMappingURL=main.js.map",
    },
    { name: "main.js.map", text: map("../../main.ts") },
    {
      name: `chunk-${sharedHash}.js`,
      text: `${sharedCode}export{x as a};\n//# sourceMappingURL=chunk-${sharedHash}.js.map`,
    },
    { name: `chunk-${sharedHash}.js.map`, text: map("../../../model/tool.ts", "../../../x.ts") },
    {
      name: "run-RRRRRRRR.js",
      text: `import{a as b}from"./chunk-${sharedHash}.js";import"./chunk-${emptyHash}.js";` +
        "export{b as runCommand};\n//# sourceMappingURL=run-RRRRRRRR.js.map",
    },
    { name: "run-RRRRRRRR.js.map", text: map() },
    { name: `chunk-${emptyHash}.js`, text: `//# sourceMappingURL=chunk-${emptyHash}.js.map` },
    { name: `chunk-${emptyHash}.js.map`, text: map() },
  ];
}

Deno.test("a chunk keeps its name when its content (and so deno bundle's hash) changes", async () => {
  const before = await stableChunkNames(bundle("AAAAAAAA", "var x=1;"), DIR);
  const after = await stableChunkNames(bundle("BBBBBBBB", "var x=2;", "FFFFFFFF"), DIR);
  assert.deepEqual(after.map((f) => f.name), before.map((f) => f.name));
  // Only the chunk whose content changed differs.
  const changed = after.filter((f, i) => f.text !== before[i].text).map((f) => f.name);
  assert.equal(changed.length, 1);
  assert.match(changed[0], /^chunk-[A-Z2-7]{8}\.js$/);
});

Deno.test("every name and every reference is rewritten, at the same length", async () => {
  const input = bundle("AAAAAAAA", "var x=1;");
  const out = await stableChunkNames(input, DIR);
  for (const [i, file] of out.entries()) {
    assert.equal(file.name.length, input[i].name.length);
    assert.equal(file.text.length, input[i].text.length);
    assert.doesNotMatch(file.text, /AAAAAAAA|RRRRRRRR|EEEEEEEE/);
  }
  const names = new Set(out.map((f) => f.name));
  for (const file of out) {
    for (const m of file.text.matchAll(/"\.\/([\w.-]+\.js)"|sourceMappingURL=(\S+)/g)) {
      assert.ok(names.has(m[1] ?? m[2]), `${file.name} names ${m[1] ?? m[2]}`);
    }
  }
  assert.ok(names.has("main.js"));
});

Deno.test("two chunks that hold the same thing cannot take one name: it says which", async () => {
  const twin: BundleFile[] = [
    ...bundle("AAAAAAAA", "var x=1;"),
    { name: "chunk-CCCCCCCC.js", text: "var y=1;export{y as a};" },
    { name: "chunk-CCCCCCCC.js.map", text: map("../../../model/tool.ts") },
  ];
  await assert.rejects(
    stableChunkNames(twin, DIR),
    /two chunks would be named chunk-[A-Z2-7]{8}\.js: module model\/tool\.ts/,
  );
});
