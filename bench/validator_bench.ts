// Validation speed of DefaultValidator against ajv (2020 build) in the same run,
// on three sample tool schemas, valid and invalid instances; and the cost of compiling
// 10,000 distinct tool schemas (the last 1,000 against the first 1,000).
import Ajv2020 from "ajv/dist/2020.js";
import { DefaultValidator, type Tool } from "../mod.ts";
import { CASES, distinctSchema } from "./_schemas.ts";

const validator = new DefaultValidator();
// deno-lint-ignore no-explicit-any
const ajv = new (Ajv2020 as any)({ allErrors: true, strict: false, validateFormats: false });

for (const c of CASES) {
  const compiled = await validator.compile(c.schema);
  const ajvCheck = ajv.compile(c.schema);
  const tool: Tool = { name: c.name, inputSchema: c.schema as Tool["inputSchema"] };
  for (const kind of ["valid", "invalid"] as const) {
    const value = c[kind];
    const group = `${c.name} ${kind}`;
    Deno.bench(`ajv ${group}`, { group, baseline: true }, () => {
      ajvCheck(value);
    });
    Deno.bench(`toolfoundation compiled.check ${group}`, { group }, () => {
      compiled.check(value);
    });
    Deno.bench(`toolfoundation validateInput ${group}`, { group }, async () => {
      await validator.validateInput(tool, value).catch(() => {});
    });
  }
}

async function compileRange(v: DefaultValidator, from: number, to: number): Promise<void> {
  for (let i = from; i < to; i++) await v.compile(distinctSchema(i));
}

Deno.bench("compile first 1,000 of 10,000 distinct schemas", {
  group: "compile scaling",
  baseline: true,
  n: 3,
  warmup: 1,
}, async (b) => {
  const v = new DefaultValidator({ cacheSize: 20_000 });
  b.start();
  await compileRange(v, 0, 1000);
  b.end();
});

Deno.bench("compile last 1,000 of 10,000 distinct schemas", {
  group: "compile scaling",
  n: 3,
  warmup: 1,
}, async (b) => {
  const v = new DefaultValidator({ cacheSize: 20_000 });
  await compileRange(v, 0, 9000);
  b.start();
  await compileRange(v, 9000, 10_000);
  b.end();
});

Deno.bench("compile 10,000 distinct schemas (total)", {
  group: "compile total",
  n: 3,
  warmup: 1,
}, async () => {
  await compileRange(new DefaultValidator({ cacheSize: 20_000 }), 0, 10_000);
});
