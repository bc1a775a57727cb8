// Start-up: the manifest schema's check is generated at build time
// (scripts/gen.ts -> workspace/_generated/manifest_check.js). It must be current
// and must answer valid/invalid exactly as our validator (Hyperjump) does.
import assert from "node:assert/strict";
import { parse } from "yaml";
import { generated, leftovers } from "../../scripts/gen.ts";
import { validate as generatedCheck } from "../../workspace/_generated/manifest_check.js";
import { DefaultValidator } from "../../model/mod.ts";
import manifestSchema from "../../workspace/manifest.schema.json" with { type: "json" };

const ROOT = new URL("../../", import.meta.url);
const check = generatedCheck as (value: unknown) => boolean;

Deno.test("the generated files are what `deno task gen` writes (not stale)", async () => {
  const files = await generated();
  for (const { path, text } of files) {
    const current = await Deno.readTextFile(new URL(path, ROOT)).catch(() => undefined);
    assert.ok(current === text, `${path} is stale: run \`deno task gen\``);
  }
  // Nor a chunk of an earlier bundle left behind.
  assert.deepEqual(await leftovers(files), [], "files no longer generated: run `deno task gen`");
});

const REPLACEMENTS: unknown[] = [
  null,
  0,
  1,
  -1,
  1.5,
  2 ** 31,
  "",
  "x",
  "ALL",
  "all",
  "https://a.example/x",
  "not a url",
  "A_B",
  "1A",
  "é",
  true,
  false,
  [],
  ["x"],
  [1],
  {},
  { x: 1 },
  { command: "c" },
  { url: "https://a.example" },
];

/** The value with the node at `path` replaced (or deleted, with `undefined`). */
function edit(value: unknown, path: Array<string | number>, to: unknown): unknown {
  if (path.length === 0) return to;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...value];
    if (to === undefined && rest.length === 0) copy.splice(head as number, 1);
    else copy[head as number] = edit(copy[head as number], rest, to);
    return copy;
  }
  const copy = { ...(value as Record<string, unknown>) };
  if (to === undefined && rest.length === 0) delete copy[head];
  else {
    // An own property even for `__proto__` (as npm:yaml makes it).
    Object.defineProperty(copy, head, {
      value: edit(Object.hasOwn(copy, head) ? copy[head] : undefined, rest, to),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

function* paths(
  value: unknown,
  at: Array<string | number> = [],
): Generator<Array<string | number>> {
  yield at;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) yield* paths(value[i], [...at, i]);
  } else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) yield* paths(v, [...at, k]);
  }
}

Deno.test("the generated manifest check answers as Hyperjump on the examples and their mutations", async () => {
  const hyperjump = await new DefaultValidator().compile(manifestSchema);
  const seeds = await Promise.all(
    ["examples/tools.yaml", "examples/everything.yaml"].map(async (p) =>
      parse(await Deno.readTextFile(new URL(p, ROOT)))
    ),
  );
  let compared = 0;
  let invalid = 0;
  const differ: string[] = [];
  const compare = (value: unknown, label: string) => {
    const expected = hyperjump.check(value).valid;
    compared++;
    if (!expected) invalid++;
    if (check(value) !== expected) differ.push(`${label}: Hyperjump says ${expected}`);
  };
  for (const seed of seeds) {
    compare(seed, "as written");
    for (const path of paths(seed)) {
      const where = `/${path.join("/")}`;
      if (path.length > 0) compare(edit(seed, path, undefined), `delete ${where}`);
      for (const to of REPLACEMENTS) {
        compare(edit(seed, path, to), `${where} = ${JSON.stringify(to)}`);
      }
      compare(edit(seed, [...path, "unknownKey"], 1), `add ${where}/unknownKey`);
      compare(edit(seed, [...path, "__proto__"], { version: 1 }), `add ${where}/__proto__`);
    }
  }
  assert.deepEqual(differ, []);
  // The mutations reach both answers, many times.
  assert.ok(compared > 1000 && invalid > 500 && compared - invalid > 100, `${compared} ${invalid}`);
});
