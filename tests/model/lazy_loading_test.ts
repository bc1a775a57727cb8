// Hyperjump and re2js load only when a schema needs them: a schema the fast
// path answers alone (failures included) is compiled and checked, valid and
// invalid with its messages read, without either module. Shown in a child
// process whose import map replaces both packages with a module that throws
// when it is loaded.
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url);

async function inChild(script: string): Promise<{ code: number; out: string; err: string }> {
  const dir = await Deno.makeTempDir();
  try {
    const trap = `${dir}/trap.js`;
    await Deno.writeTextFile(trap, 'throw new Error("a lazily loaded package was loaded");\n');
    const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
    const imports: Record<string, string> = { ...config.imports };
    for (const key of Object.keys(imports)) {
      if (key.startsWith("@hyperjump/") || key === "re2js") {
        imports[key] = key.endsWith("/") ? `${dir}/` : trap;
      }
    }
    // Every deep import of a trapped package lands on the trap too.
    for (const sub of ["draft-2020-12", "draft-07", "formats", "experimental"]) {
      imports[`@hyperjump/json-schema/${sub}`] = trap;
    }
    imports["@hyperjump/json-schema/instance/experimental"] = trap;
    const map = `${dir}/import_map.json`;
    await Deno.writeTextFile(map, JSON.stringify({ imports }));
    const main = `${dir}/main.ts`;
    await Deno.writeTextFile(
      main,
      `import { DefaultValidator } from "${new URL("model/mod.ts", ROOT).href}";\n${script}`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", "--no-config", `--import-map=${map}`, `--allow-read`, main],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decode = (b: Uint8Array) => new TextDecoder().decode(b);
    return { code: out.code, out: decode(out.stdout), err: decode(out.stderr) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a schema the fast path answers alone needs neither Hyperjump nor re2js", async () => {
  const { code, out, err } = await inChild(`
    const v = new DefaultValidator();
    const schema = {
      type: "object",
      properties: { a: { type: "integer", minimum: 1 }, b: { enum: ["x", "y"] } },
      required: ["a"],
      additionalProperties: false,
    };
    const compiled = await v.compile(schema);
    const bad = compiled.check({ a: 0, c: 1 });
    console.log(JSON.stringify([compiled.check({ a: 2, b: "x" }).valid, bad.valid,
      bad.valid ? [] : bad.failures.map((f) => f.message)]));
    const draft07 = await v.compile({ $schema: "http://json-schema.org/draft-07/schema#", type: "string" });
    console.log(draft07.check(1).valid);
  `);
  assert.equal(code, 0, err);
  assert.equal(
    out,
    `[true,false,["must be >= 1","must NOT have additional property 'c'"]]\nfalse\n`,
  );
});

Deno.test("the trap works: a schema Hyperjump must compile, or one with a pattern, loads them", async () => {
  for (
    const schema of [
      { type: "object", unevaluatedProperties: false }, // not on the fast path
      { type: "string", pattern: "^a" }, // the fast path, but a pattern needs re2js
      { $id: "https://example.com/s", type: "string" }, // $id: Hyperjump's to register
      { type: "strnig" }, // fails its meta-schema: Hyperjump says how
    ]
  ) {
    const { code, err } = await inChild(
      `await new DefaultValidator().compile(${JSON.stringify(schema)});`,
    );
    assert.notEqual(code, 0, JSON.stringify(schema));
    assert.match(err, /a lazily loaded package was loaded/, JSON.stringify(schema));
  }
});
