// Where a failures read of the validator goes, alternating across the real
// MCP tool schemas (bench/_validator_corpus.ts), against ajv's whole answer
// with its errors in the same rounds: the generated check alone, the check
// then the walk of the refused value, the generated failures code alone
// (called directly), the three in a row, and the public read
// (`check(value).failures` and their messages). Each figure is the median of
// per-repetition ratios to ajv, the parts interleaved, their order rotated
// from one repetition to the next, each timed in the process's CPU time (all
// threads: the garbage collector's helper threads included). Only the
// schemas whose plan has a walk, no patterns and generated failures code
// are measured (the commonest case).
//
//   deno run --allow-read --allow-env bench/validator_parts.ts [--repeat=N] [--tree=<checkout>]
//     [--warm=N] [--clock=wall] [--order=fixed]
//
// `--tree` measures another checkout's validator (its model/) instead.
// `--warm` is the number of untimed rounds of each part first (2000): with
// 150, ajv's validate functions were still being compiled by V8's optimizing
// tiers during the timed rounds (about 120 compiles, `--v8-flags=--trace-opt`)
// and ajv's time came out about 2.5x its steady one, the read's ratio to it
// about 0.6-0.7 of the true one. `--clock=wall` times each part by the wall
// clock, `--order=fixed` measures the parts in the same order every
// repetition (ajv's right after the public read): how this bench measured
// before, for comparison.
import process from "node:process";
import Ajv from "ajv";
import Ajv2020 from "ajv/dist/2020.js";
import { corpus } from "./_validator_corpus.ts";

type Fn = (value: unknown) => unknown;
type AjvValidate = ((value: unknown) => boolean) & { errors?: { message?: string }[] | null };
type AjvClass = new (options: Record<string, unknown>) => { compile(s: unknown): AjvValidate };

const repeat = Number(Deno.args.find((a) => a.startsWith("--repeat="))?.slice(9) ?? 11);
const treeArg = Deno.args.find((a) => a.startsWith("--tree="))?.slice(7);
const tree = treeArg === undefined
  ? new URL("../", import.meta.url)
  : new URL(`file://${treeArg.startsWith("/") ? "" : `${Deno.cwd()}/`}${treeArg}/`);
const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
const DIALECTS = {
  d7: "http://json-schema.org/draft-07/schema",
  d2020: "https://json-schema.org/draft/2020-12/schema",
};

const { DefaultValidator } = await import(new URL("model/mod.ts", tree).href);
const { planFastPath } = await import(new URL("model/_fast/mod.ts", tree).href);
const { analyzeSchemaStructure } = await import(new URL("model/schema_structure.ts", tree).href);
const options = { allErrors: true, strict: false, validateFormats: false };
const ajvs = {
  d7: new (Ajv as unknown as AjvClass)(options),
  d2020: new (Ajv2020 as unknown as AjvClass)(options),
};

interface Pair {
  check: (value: unknown) => { valid: boolean; failures?: { message: string }[] };
  run: Fn;
  json: Fn;
  code: (value: unknown) => { message: string }[];
  ajv: AjvValidate;
  invalid: unknown;
}

const validator = new DefaultValidator({ cacheSize: 100_000 });
const byText = new Map<string, AjvValidate>();
const pairs: Pair[] = [];
for (const c of (await corpus()).real) {
  try {
    const schema = c.schema as Record<string, unknown>;
    const d7 = DRAFT_07.test(String(schema.$schema ?? ""));
    const compiled = await validator.compile(schema);
    if (!compiled.check(c.valid).valid || compiled.check(c.invalid).valid) continue;
    const { fansOut } = analyzeSchemaStructure(schema, {
      maxDepth: 64,
      documents: {},
      draft07: d7,
    });
    const plan = planFastPath(structuredClone(schema), {
      dialect: d7 ? DIALECTS.d7 : DIALECTS.d2020,
      formatAssertion: false,
      fansOut,
      maxDepth: 256,
    });
    if (plan.reason !== undefined || plan.patterns || plan.json === undefined) continue;
    // The second read makes the generated failures code.
    plan.failures?.(c.invalid);
    plan.failures?.(c.invalid);
    const code = plan.failuresCode?.();
    if (code === undefined) continue;
    const text = JSON.stringify(schema);
    let ajv = byText.get(text);
    if (ajv === undefined) byText.set(text, ajv = ajvs[d7 ? "d7" : "d2020"].compile(schema));
    if (ajv(c.invalid)) continue;
    pairs.push({
      check: compiled.check,
      run: plan.run,
      json: plan.json,
      code,
      ajv,
      invalid: c.invalid,
    });
  } catch {
    // a schema one of them refuses: not measured
  }
}

let sink = 0;
const parts: [string, () => void][] = [
  ["ajv, whole answer and errors read", () => {
    for (const p of pairs) {
      if (p.ajv(p.invalid)) sink++;
      else for (const e of p.ajv.errors ?? []) sink += String(e.message).length;
    }
  }],
  ["generated check (refuses)", () => {
    for (const p of pairs) if (p.run(p.invalid)) sink++;
  }],
  ["check, then the walk of the refused value", () => {
    for (const p of pairs) if (!p.run(p.invalid) && p.json(p.invalid)) sink++;
  }],
  ["generated failures code alone, messages read", () => {
    for (const p of pairs) for (const f of p.code(p.invalid)) sink += f.message.length;
  }],
  ["check, walk, failures code in a row", () => {
    for (const p of pairs) {
      if (!p.run(p.invalid) && p.json(p.invalid)) {
        for (const f of p.code(p.invalid)) sink += f.message.length;
      }
    }
  }],
  ["the answer alone (`check(value).valid`)", () => {
    for (const p of pairs) sink += p.check(p.invalid).valid ? 1 : -1;
  }],
  ["a failures read (`check(value).failures`)", () => {
    for (const p of pairs) {
      const result = p.check(p.invalid);
      if (result.valid) sink++;
      else for (const f of result.failures!) sink += f.message.length;
    }
  }],
];

const wall = Deno.args.includes("--clock=wall");
const fixed = Deno.args.includes("--order=fixed");
/** Milliseconds: the process's CPU time (user and system, every thread), or the wall clock's. */
const clock = wall ? () => performance.now() : () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const ROUNDS = 20;
const WARM = Number(Deno.args.find((a) => a.startsWith("--warm="))?.slice(7) ?? 2000);
for (const [, run] of parts) for (let i = 0; i < WARM; i++) run();
const times = parts.map((): number[] => []);
for (let r = 0; r < repeat; r++) {
  for (let n = 0; n < parts.length; n++) {
    // Rotated: each part follows each other part in turn.
    const i = fixed ? n : (n + r) % parts.length;
    const start = clock();
    for (let k = 0; k < ROUNDS; k++) parts[i][1]();
    times[i].push((clock() - start) * 1000 / (ROUNDS * pairs.length));
  }
}
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
console.log(
  `### where a failures read goes: ${pairs.length} pairs, alternating, ${repeat} repetitions, ` +
    `${wall ? "wall clock" : "process CPU time"}, ${fixed ? "fixed" : "rotated"} order`,
);
console.log("");
console.log("| part | µs/call (median) | x ajv (median of per-repetition ratios) |");
console.log("| --- | ---: | ---: |");
parts.forEach(([what], i) => {
  const ratio = median(times[i].map((t, r) => t / times[0][r]));
  console.log(`| ${what} | ${median(times[i]).toFixed(3)} | ${ratio.toFixed(2)} |`);
});
if (sink === 0.5) console.log(sink);
