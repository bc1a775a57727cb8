// scripts/_redundant_imports.ts: the CLI bundle without the side-effect
// imports of chunks an earlier import already reaches, outside the chunks
// kept flat, every column kept.
import assert from "node:assert/strict";
import { chunksHolding, withoutRedundantImports } from "../../scripts/_redundant_imports.ts";
import type { BundleFile } from "../../scripts/_stable_chunk_names.ts";

const js = (name: string, code: string): BundleFile => ({ name, text: code });

const BUNDLE: BundleFile[] = [
  js(
    "cmd-CCCCCCCC.js",
    // chunk-SSSSSSSS.js is reached through chunk-RRRRRRRR.js, chunk-TTTTTTTT.js
    // through chunk-SSSSSSSS.js; chunk-UUUUUUUU.js by nothing before it.
    'import{a as b}from"./chunk-RRRRRRRR.js";import"./chunk-SSSSSSSS.js";' +
      'import"./chunk-UUUUUUUU.js";import "./chunk-TTTTTTTT.js";var c=b;',
  ),
  js("chunk-RRRRRRRR.js", 'import"./chunk-SSSSSSSS.js";var a=1;export{a};'),
  js("chunk-SSSSSSSS.js", 'import{t}from"./chunk-TTTTTTTT.js";var s=t;export{s};'),
  js("chunk-TTTTTTTT.js", "var t=3;export{t};"),
  js("chunk-UUUUUUUU.js", 'import{t}from"./chunk-TTTTTTTT.js";var u=t;'),
  { name: "chunk-UUUUUUUU.js.map", text: "{}" },
];

Deno.test("withoutRedundantImports blanks a side-effect import an earlier import reaches, in place", () => {
  const { files, blanked } = withoutRedundantImports(BUNDLE, new Set());
  const cmd = files.find((f) => f.name === "cmd-CCCCCCCC.js")!.text;
  assert.equal(cmd.length, BUNDLE[0].text.length);
  assert.equal(
    cmd,
    'import{a as b}from"./chunk-RRRRRRRR.js";' + " ".repeat(28) +
      'import"./chunk-UUUUUUUU.js";' + " ".repeat(29) + "var c=b;",
  );
  assert.equal(blanked, 2);
  // A chunk's only side-effect import, reached by nothing before it, and
  // every import that binds a name, stay; a file that is not JavaScript is untouched.
  for (const name of ["chunk-RRRRRRRR.js", "chunk-SSSSSSSS.js", "chunk-UUUUUUUU.js.map"]) {
    assert.equal(
      files.find((f) => f.name === name)!.text,
      BUNDLE.find((f) => f.name === name)!.text,
    );
  }
});

Deno.test("withoutRedundantImports leaves the chunks it is told to keep as they are", () => {
  const { files, blanked } = withoutRedundantImports(BUNDLE, new Set(["cmd-CCCCCCCC.js"]));
  assert.deepEqual(files, BUNDLE);
  assert.equal(blanked, 0);
});

Deno.test("withoutRedundantImports refuses an import of a chunk the bundle does not hold", () => {
  assert.throws(
    () => withoutRedundantImports([js("main.js", 'import"./chunk-GONEGONE.js";')], new Set()),
    /main\.js imports chunk-GONEGONE\.js, not in the bundle/,
  );
});

Deno.test("chunksHolding names the chunk whose source map lists a module, or says none does", () => {
  const files: BundleFile[] = [
    { name: "run-AAAAAAAA.js", text: "" },
    {
      name: "run-AAAAAAAA.js.map",
      text: JSON.stringify({ sources: ["../../commands/_shared.ts", "../../commands/run.ts"] }),
    },
    { name: "main.js.map", text: JSON.stringify({ sources: ["../../main.ts"] }) },
  ];
  assert.deepEqual(
    chunksHolding(files, ["cli/commands/run.ts", "cli/main.ts"], "cli/_generated/cli"),
    new Set(["run-AAAAAAAA.js", "main.js"]),
  );
  assert.throws(
    () => chunksHolding(files, ["cli/commands/gone.ts"], "cli/_generated/cli"),
    /no chunk of the bundle holds cli\/commands\/gone\.ts/,
  );
});
