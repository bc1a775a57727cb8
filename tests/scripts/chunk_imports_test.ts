// scripts/_chunk_imports.ts: a chunk's side-effect imports of chunks that an
// earlier import already reaches are blanked, every column kept.
import assert from "node:assert/strict";
import { withoutRedundantImports } from "../../scripts/_chunk_imports.ts";

const chunk = (name: string, text: string) => ({ name, text });

Deno.test("withoutRedundantImports blanks a side-effect import an earlier import reaches, and no other", () => {
  const main = 'import{a}from"./b.js";import"./c.js";import"./d.js";import"./b.js";' +
    'var x=()=>import("./c.js");';
  const files = withoutRedundantImports([
    chunk("main.js", main),
    chunk("b.js", 'import"./c.js";var a=1;export{a};'),
    chunk("c.js", "var c=1;"),
    chunk("d.js", 'import"./c.js";var d=1;'),
    chunk("main.js.map", "{}"),
  ]);
  const out = files[0].text;
  assert.equal(out.length, main.length);
  // c.js through b.js, b.js itself: blanked; d.js (not reached before it) and the dynamic import kept.
  assert.equal(
    out,
    'import{a}from"./b.js";' + " ".repeat(15) + 'import"./d.js";' + " ".repeat(15) +
      'var x=()=>import("./c.js");',
  );
  assert.deepEqual(files.slice(1).map((f) => f.text), [
    'import"./c.js";var a=1;export{a};',
    "var c=1;",
    'import"./c.js";var d=1;',
    "{}",
  ]);
});

Deno.test("withoutRedundantImports keeps an import with bindings, and the first import of a chunk reached only later", () => {
  const main = 'import"./c.js";import{a}from"./b.js";import{c}from"./c.js";';
  const [out] = withoutRedundantImports([
    chunk("main.js", main),
    chunk("b.js", 'import"./c.js";var a=1;export{a};'),
    chunk("c.js", "var c=1;export{c};"),
  ]);
  assert.equal(out.text, main);
});

Deno.test("a chunk without its redundant imports evaluates its chunks in the same order", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const log = (name: string) => `globalThis.evaluated=[...globalThis.evaluated??[],"${name}"];`;
    const input = [
      chunk("main.js", 'import"./b.js";import"./d.js";import"./c.js";' + log("main")),
      chunk("b.js", 'import"./c.js";' + log("b")),
      chunk("c.js", log("c")),
      chunk("d.js", log("d")),
    ];
    const files = withoutRedundantImports(input);
    assert.match(files[0].text, /^import"\.\/b\.js";import"\.\/d\.js"; {15}globalThis/);
    const order = async (version: string, chunks: typeof input) => {
      await Deno.mkdir(`${dir}/${version}`);
      for (const { name, text } of chunks) {
        await Deno.writeTextFile(`${dir}/${version}/${name}`, text);
      }
      const state = globalThis as { evaluated?: string[] };
      delete state.evaluated;
      await import(`file://${dir}/${version}/main.js`);
      return state.evaluated;
    };
    assert.deepEqual(await order("after", files), ["c", "b", "d", "main"]);
    assert.deepEqual(await order("before", input), ["c", "b", "d", "main"]);
  } finally {
    delete (globalThis as { evaluated?: string[] }).evaluated;
    await Deno.remove(dir, { recursive: true });
  }
});
