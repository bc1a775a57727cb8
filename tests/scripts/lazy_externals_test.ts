// scripts/_lazy_externals.ts: the CLI bundle's imports of npm packages made
// into imports Deno resolves only when the chunk runs, every other column kept.
import assert from "node:assert/strict";
import { lazyExternals, npmSpecifier } from "../../scripts/_lazy_externals.ts";

const IMPORTS = {
  "@scope/pkg": "npm:@scope/pkg@1.2.3",
  "@scope/pkg/": "npm:/@scope/pkg@1.2.3/",
  "plain": "npm:plain@4.5.6",
  "local": "./local.ts",
};

Deno.test("npmSpecifier maps exact names, prefixes and npm: specifiers, and nothing else", () => {
  assert.equal(npmSpecifier("@scope/pkg", IMPORTS), "npm:@scope/pkg@1.2.3");
  assert.equal(npmSpecifier("@scope/pkg/sub/path", IMPORTS), "npm:@scope/pkg@1.2.3/sub/path");
  assert.equal(npmSpecifier("npm:other@1.0.0", IMPORTS), "npm:other@1.0.0");
  assert.equal(npmSpecifier("local", IMPORTS), undefined);
  assert.equal(npmSpecifier("node:process", IMPORTS), undefined);
  assert.equal(npmSpecifier("./chunk-ABCDEFGH.js", IMPORTS), undefined);
  assert.equal(npmSpecifier("unknown", IMPORTS), undefined);
});

Deno.test("lazyExternals moves every static import form to the prologue, in order", () => {
  const text = [
    'import{a as b,c}from"@scope/pkg";import d from"plain";import e,{f as g}from"plain";',
    'import*as h from"@scope/pkg/sub";import"@scope/pkg/side";var x=b(c,d,e,g,h);',
  ].join("\n");
  const lazy = lazyExternals(text, "chunk.js", IMPORTS);
  assert.equal(
    lazy.prologue,
    "const __npm=(m)=>import(" +
      '{"@scope/pkg":"npm:@scope/pkg@1.2.3","@scope/pkg/side":"npm:@scope/pkg@1.2.3/side",' +
      '"@scope/pkg/sub":"npm:@scope/pkg@1.2.3/sub","plain":"npm:plain@4.5.6"}[m]);' +
      'const{a:b,c}=await __npm("@scope/pkg");const{default:d}=await __npm("plain");' +
      'const{default:e,f:g}=await __npm("plain");const h=await __npm("@scope/pkg/sub");' +
      'await __npm("@scope/pkg/side");',
  );
  assert.equal(lazy.text.length, text.length);
  assert.deepEqual(lazy.text.split("\n").map((line) => line.trim()), ["", "var x=b(c,d,e,g,h);"]);
  assert.deepEqual(lazy.packages, [
    "npm:@scope/pkg@1.2.3",
    "npm:@scope/pkg@1.2.3/side",
    "npm:@scope/pkg@1.2.3/sub",
    "npm:plain@4.5.6",
  ]);
});

Deno.test("lazyExternals keeps the column of every character it does not rewrite", () => {
  const text = 'var a=1;import{x}from"plain";var b=import("@scope/pkg"),c=import("./chunk-A.js");' +
    'import p from"node:process";function f(){return import("npm:other@1.0.0")}';
  const lazy = lazyExternals(text, "chunk.js", IMPORTS);
  assert.equal(lazy.text.length, text.length);
  const rewritten = [
    /import\{x\}from"plain";/,
    /import\("@scope\/pkg"\)/,
    /import\("npm:other@1.0.0"\)/,
  ].map((re) => {
    const at = re.exec(text)!;
    return [at.index, at.index + at[0].length];
  });
  for (let i = 0; i < text.length; i++) {
    if (rewritten.some(([start, end]) => i >= start && i < end)) continue;
    assert.equal(lazy.text[i], text[i], `column ${i}`);
  }
  assert.match(lazy.text, /var b=__npm\("@scope\/pkg"\) ,c=import\("\.\/chunk-A\.js"\)/);
  assert.match(lazy.text, /return __npm\("npm:other@1\.0\.0"\) \}/);
  assert.match(lazy.text, /import p from"node:process"/);
  assert.deepEqual(lazy.packages, ["npm:@scope/pkg@1.2.3", "npm:other@1.0.0", "npm:plain@4.5.6"]);
});

Deno.test("lazyExternals leaves a chunk that imports no package as it is, with no prologue", () => {
  const text = 'import{a}from"./chunk-B.js";import"node:process";var s="import{x}from";' +
    'var m=new Map([["import",()=>import("./import-C.js")],["from","plain"]]);';
  assert.deepEqual(lazyExternals(text, "chunk.js", IMPORTS), { text, prologue: "", packages: [] });
});

Deno.test("lazyExternals refuses a re-export of a package and a chunk that uses its helper's name", () => {
  assert.throws(
    () => lazyExternals('export{a}from"plain";', "chunk-R.js", IMPORTS),
    /chunk-R\.js re-exports plain/,
  );
  assert.throws(
    () => lazyExternals('var __npm=1;import"plain";', "chunk-N.js", IMPORTS),
    /chunk-N\.js already uses the name __npm/,
  );
});

Deno.test("a chunk made lazy runs: its bindings hold the package's exports", async () => {
  // A package stand-in that any Deno resolves: a data: module mapped as a package would be.
  const lib = "data:text/javascript,export const one=1;export default 2;";
  const text = 'import t,{one as o}from"lib";import*as ns from"lib";export const sum=t+o+ns.one;';
  const lazy = lazyExternals(text, "chunk.js", { lib: `npm:lib@1.0.0` });
  const source = `${lazy.prologue.replace("npm:lib@1.0.0", lib)}\n${lazy.text}`;
  const module = await import(`data:text/javascript,${encodeURIComponent(source)}`);
  assert.equal(module.sum, 4);
});
