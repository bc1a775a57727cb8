// scripts/_chunk_facades.ts: the CLI bundle without the chunks that only
// re-export other chunks (or hold nothing), every other column kept.
import assert from "node:assert/strict";
import { withoutFacades } from "../../scripts/_chunk_facades.ts";
import type { BundleFile } from "../../scripts/_stable_chunk_names.ts";

const MAP = (name: string) => `\n//# sourceMappingURL=${name}.map\n`;
const js = (name: string, code: string): BundleFile[] => [
  { name, text: `${code}${MAP(name)}` },
  { name: `${name}.map`, text: "{}" },
];

Deno.test("withoutFacades drops a facade and an empty chunk, and rewrites the imports of them in place", () => {
  const importer = 'var r=async()=>{let{Runner:s}=await import("./runner-AAAAAAAA.js");return s};' +
    'import"./chunk-EMPTYEEE.js";var k=1;';
  const { files, prologues } = withoutFacades([
    ...js("main.js", 'import"./chunk-EMPTYEEE.js";var m=()=>import("./cmd-CCCCCCCC.js");'),
    ...js("cmd-CCCCCCCC.js", importer),
    ...js(
      "runner-AAAAAAAA.js",
      'import{a as b}from"./chunk-RRRRRRRR.js";import"./chunk-EMPTYEEE.js";' +
        'import"./chunk-SSSSSSSS.js";import"./chunk-TTTTTTTT.js";export{b as Runner};',
    ),
    ...js("chunk-EMPTYEEE.js", ""),
    ...js("chunk-RRRRRRRR.js", 'import"./chunk-SSSSSSSS.js";var a=1;export{a};'),
    ...js("chunk-SSSSSSSS.js", "var s=2;"),
    ...js("chunk-TTTTTTTT.js", "var t=3;"),
  ]);
  assert.deepEqual(files.map((f) => f.name).sort(), [
    "chunk-RRRRRRRR.js",
    "chunk-RRRRRRRR.js.map",
    "chunk-SSSSSSSS.js",
    "chunk-SSSSSSSS.js.map",
    "chunk-TTTTTTTT.js",
    "chunk-TTTTTTTT.js.map",
    "cmd-CCCCCCCC.js",
    "cmd-CCCCCCCC.js.map",
    "main.js",
    "main.js.map",
  ]);
  const cmd = files.find((f) => f.name === "cmd-CCCCCCCC.js")!.text;
  assert.equal(cmd.length, `${importer}${MAP("cmd-CCCCCCCC.js")}`.length);
  assert.match(cmd, /await __load\("\.\/runner-AAAAAAAA\.js"\);return s\}; {28}var k=1;/);
  assert.equal(
    prologues.get("cmd-CCCCCCCC.js"),
    'const __load=(m)=>({"./runner-AAAAAAAA.js":async()=>{' +
      // chunk-SSSSSSSS.js is left out: chunk-RRRRRRRR.js imports it.
      'const m0=await import("./chunk-RRRRRRRR.js");await import("./chunk-TTTTTTTT.js");' +
      'return{get Runner(){return m0["a"]}}}})[m]();',
  );
  assert.equal(prologues.has("main.js"), false);
  assert.match(files.find((f) => f.name === "main.js")!.text, /^ {28}var m=/);
});

Deno.test("withoutFacades keeps a facade some chunk imports statically, and any chunk with code", () => {
  const input = [
    ...js("main.js", 'import{x}from"./f-AAAAAAAA.js";var m=()=>import("./g-BBBBBBBB.js");'),
    ...js("f-AAAAAAAA.js", 'import{a}from"./chunk-RRRRRRRR.js";export{a as x};'),
    ...js("g-BBBBBBBB.js", 'import{a}from"./chunk-RRRRRRRR.js";var y=a+1;export{y};'),
    ...js("chunk-RRRRRRRR.js", "var a=1;export{a};"),
  ];
  const { files, prologues } = withoutFacades(input);
  assert.deepEqual(files, input);
  assert.equal(prologues.size, 0);
});

Deno.test("withoutFacades refuses a chunk that already uses its helper's name", () => {
  assert.throws(
    () =>
      withoutFacades([
        ...js("main.js", 'var __load=1;var m=()=>import("./f-AAAAAAAA.js");'),
        ...js("f-AAAAAAAA.js", 'import{a}from"./chunk-RRRRRRRR.js";export{a as x};'),
        ...js("chunk-RRRRRRRR.js", "var a=1;export{a};"),
      ]),
    /main\.js already uses the name __load/,
  );
});

Deno.test("a chunk without its facade runs: the names are live and the chunks load in the facade's order", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { files, prologues } = withoutFacades([
      ...js("main.js", 'export const load=()=>import("./f-AAAAAAAA.js");'),
      ...js(
        "f-AAAAAAAA.js",
        'import"./chunk-SSSSSSSS.js";import{n as b,bump as c}from"./chunk-RRRRRRRR.js";' +
          "export{b as count,c as bump};",
      ),
      ...js("chunk-SSSSSSSS.js", "globalThis.order=[...globalThis.order??[],'s'];"),
      ...js(
        "chunk-RRRRRRRR.js",
        "globalThis.order=[...globalThis.order??[],'r'];let n=0;function bump(){n++}export{n,bump};",
      ),
    ]);
    for (const { name, text } of files) {
      await Deno.writeTextFile(`${dir}/${name}`, `${prologues.get(name) ?? ""}\n${text}`);
    }
    const main = await import(`file://${dir}/main.js`);
    const ns = await main.load();
    assert.deepEqual((globalThis as { order?: string[] }).order, ["s", "r"]);
    assert.equal(ns.count, 0);
    ns.bump();
    assert.equal(ns.count, 1);
  } finally {
    delete (globalThis as { order?: string[] }).order;
    await Deno.remove(dir, { recursive: true });
  }
});
