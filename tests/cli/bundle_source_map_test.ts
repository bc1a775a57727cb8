// cli.ts runs the CLI as bundled by `deno task gen` (scripts/_cli_bundle.ts):
// minified chunks with linked source maps. A stack trace from the bundle must
// name the TypeScript source and line, as docs/cli.md says.
import assert from "node:assert/strict";

const DIR = new URL("../../cli/_generated/cli/", import.meta.url);
const MESSAGE = "re2js is not loaded: await loadRegexEngine() before compiling a pattern";

Deno.test("a stack trace from the bundle names the TypeScript source line (source maps)", async () => {
  // The line of the source that throws, found in the source itself.
  const source = await Deno.readTextFile(new URL("../../model/_regex_print.ts", import.meta.url));
  const line = source.split("\n").findIndex((l) => l.includes(MESSAGE)) + 1;
  assert.ok(line > 0);
  let chunk: string | undefined;
  for await (const entry of Deno.readDir(DIR)) {
    if (!entry.name.endsWith(".js")) continue;
    const text = await Deno.readTextFile(new URL(entry.name, DIR));
    if (text.includes(MESSAGE)) chunk = entry.name;
  }
  assert.ok(chunk !== undefined, "no chunk holds the regex engine");
  // Minified names: try the chunk's exports until one throws that error
  // (compilePattern, before the engine is loaded in this process).
  const exports = await import(new URL(chunk, DIR).href) as Record<string, unknown>;
  let stack: string | undefined;
  for (const value of Object.values(exports)) {
    if (typeof value !== "function") continue;
    try {
      (value as (pattern: string) => unknown)("a+");
    } catch (error) {
      if ((error as Error)?.message === MESSAGE) stack = (error as Error).stack;
    }
    if (stack !== undefined) break;
  }
  assert.ok(stack !== undefined, "no export threw the error");
  assert.match(stack, new RegExp(`/model/_regex_print\\.ts:${line}:\\d+\\)`), stack);
  assert.doesNotMatch(stack.split("\n")[1], /_generated/, stack);
});
