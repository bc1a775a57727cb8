// scripts/_start_chunk.ts: the chunks main.js imports before any command,
// merged into one by a second `deno bundle` pass. Checked on a small bundle
// built here: module identity (a class across chunks, a live binding), the
// evaluation order, and stack traces through the composed source map.
import assert from "node:assert/strict";
import { denoBundle } from "../../scripts/_deno_bundle.ts";
import type { BundleFile } from "../../scripts/_stable_chunk_names.ts";
import { withStartChunk } from "../../scripts/_start_chunk.ts";
import { decodeMappings, encodeMappings, segmentAt } from "../../scripts/_source_map_segments.ts";

const SOURCES: Record<string, string> = {
  // Shared by main and both commands: a chunk of its own.
  "order.ts": `export const order: string[] = [];
order.push("order");
export class Failure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "Failure";
  }
}
export let count = 0;
export function bump(): number {
  return ++count;
}
`,
  // Shared by main and one command: another chunk.
  "fail.ts": `import { Failure, order } from "./order.ts";
order.push("fail");
export function fail(): never {
  throw new Failure("boom");
}
`,
  "one.ts": `import { bump, count, Failure } from "./order.ts";
import { fail } from "./fail.ts";
export function check(): { caught: boolean; count: number } {
  bump();
  try {
    fail();
  } catch (error) {
    return { caught: error instanceof Failure, count };
  }
  return { caught: false, count };
}
`,
  "two.ts": `import { order } from "./order.ts";
export const seen = (): string => order.join(",");
`,
  "main.ts": `import { bump, count, order } from "./order.ts";
import { fail } from "./fail.ts";
order.push("main");
export { fail };
export function state(): { count: number; order: string } {
  return { count, order: order.join(",") };
}
export function local(): number {
  return bump();
}
export const one = () => import("./one.ts");
export const two = () => import("./two.ts");
`,
};

/** `deno bundle` of the sources above as the generator runs it, then the merge. */
async function bundled(): Promise<{ root: string; files: BundleFile[]; merged: string[] }> {
  const root = await Deno.makeTempDir();
  for (const [name, text] of Object.entries(SOURCES)) {
    await Deno.writeTextFile(`${root}/${name}`, text);
  }
  const rootUrl = new URL(`file://${root}/`);
  await denoBundle(rootUrl, [
    "--platform=deno",
    "--format=esm",
    "--code-splitting",
    "--minify",
    "--keep-names",
    "--sourcemap=linked",
    "--outdir=first",
    "main.ts",
  ]);
  const written: BundleFile[] = [];
  for await (const entry of Deno.readDir(`${root}/first`)) {
    written.push({
      name: entry.name,
      text: await Deno.readTextFile(`${root}/first/${entry.name}`),
    });
  }
  const result = await withStartChunk(written, "main.js", {
    root: rootUrl,
    scratch: "start",
    externals: [],
  });
  // A sibling of the first output: the maps' relative sources hold.
  await Deno.mkdir(`${root}/out`);
  for (const file of result.files) await Deno.writeTextFile(`${root}/out/${file.name}`, file.text);
  return { root, files: result.files, merged: result.merged };
}

Deno.test("withStartChunk merges main.js's chunks into one; classes, live bindings and order hold", async () => {
  const { root, files, merged } = await bundled();
  try {
    assert.ok(merged.length >= 2, `merged ${merged.join(", ")}: the test bundle needs two chunks`);
    const names = files.map((f) => f.name);
    for (const chunk of merged) assert.ok(!names.includes(chunk), `${chunk} is still written`);
    const start = names.filter((name) => /^start-[A-Z2-7]{8}\.js$/.test(name));
    assert.equal(start.length, 1, names.join(", "));
    const main = files.find((f) => f.name === "main.js")!.text;
    const imported = [...main.matchAll(/from\s*"\.\/([\w.-]+\.js)"|import\s*"\.\/([\w.-]+\.js)"/g)]
      .map((m) => m[1] ?? m[2]);
    assert.deepEqual([...new Set(imported)], start);

    const mod = await import(`file://${root}/out/main.js`);
    // Each module evaluated once, dependencies first, as before the merge.
    assert.deepEqual(mod.state(), { count: 0, order: "order,fail,main" });
    assert.equal(mod.local(), 1);
    // A command's chunk shares the class and the binding with main.js's.
    const one = await mod.one();
    assert.deepEqual(one.check(), { caught: true, count: 2 });
    assert.equal(mod.state().count, 2);
    assert.equal((await mod.two()).seen(), "order,fail,main");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a stack trace from the merged start chunk names the TypeScript source line", async () => {
  const { root } = await bundled();
  try {
    const mod = await import(`file://${root}/out/main.js`);
    let stack = "";
    try {
      mod.fail();
    } catch (error) {
      stack = (error as Error).stack ?? "";
      assert.equal((error as Error).name, "Failure");
    }
    // `throw new Failure("boom")` is line 4 of fail.ts.
    assert.match(stack, /\/fail\.ts:4:\d+\)?$/m, stack);
    assert.doesNotMatch(stack.split("\n")[1], /start-/, stack);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("withStartChunk refuses a start chunk that imports a chunk dynamically, and names it", async () => {
  const files: BundleFile[] = [
    { name: "main.js", text: 'import{a as b}from"./chunk-A.js";import"./chunk-B.js";b();\n' },
    { name: "chunk-A.js", text: 'var a=()=>import("./x.js");export{a};\n' },
    { name: "chunk-B.js", text: "var c=1;export{c as a};\n" },
    { name: "x.js", text: "export{};\n" },
  ];
  await assert.rejects(
    withStartChunk(files, "main.js", {
      root: new URL("file:///nowhere/"),
      scratch: "s",
      externals: [],
    }),
    /chunk-A\.js, which main\.js imports, imports a chunk dynamically \(import\("\.\/x\.js"\)\)/,
  );
});

Deno.test("withStartChunk leaves a bundle whose main.js imports one chunk or none as it is", async () => {
  const files: BundleFile[] = [
    { name: "main.js", text: 'import{a as b}from"./chunk-A.js";b();\n' },
    { name: "chunk-A.js", text: "var a=()=>1;export{a};\n" },
  ];
  const result = await withStartChunk(files, "main.js", {
    root: new URL("file:///nowhere/"),
    scratch: "s",
    externals: [],
  });
  assert.equal(result.files, files);
  assert.deepEqual(result.merged, []);
});

Deno.test("source map segments decode and encode back to the same mappings; a position finds its segment", () => {
  const mappings = "AAAA,SAASA,IAAI;;EACJ,CAAC,EAAE,GAAGC;AAChB";
  const lines = decodeMappings(mappings);
  assert.equal(encodeMappings(lines), mappings);
  assert.deepEqual(segmentAt(lines, 0, 10), {
    column: 9,
    source: 0,
    line: 0,
    sourceColumn: 9,
    name: 0,
  });
  assert.equal(segmentAt(lines, 1, 0), undefined);
  assert.equal(segmentAt(lines, 2, 2)?.column, 2);
  assert.equal(segmentAt(lines, 2, 1), undefined);
  assert.throws(() => decodeMappings("A!"), /mappings hold "!"/);
});
