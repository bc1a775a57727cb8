// The validator against ajv (allErrors) in the same run, as ratios, on the
// bench's sample schemas and on every MCP tool schema the tests use (~1,640 real
// servers' schemas, see _validator_corpus.ts): valid and invalid instances,
// calls alternating across schemas (as a gateway's do) and in a per-schema hot
// loop, and compile time per schema; and the most common failure in practice,
// a stray member (a model's extra argument) on the real schemas whose root has
// `additionalProperties: false`. Prints Markdown tables.
//
//   deno run --allow-read --allow-env bench/validator_compare.ts [--quick] [--fast-path=off] [--stray] [--targets]
//     [--baseline=/path/to/other/checkout/]
//
// `--stray` measures the stray-member table alone; `--targets` the targets
// table alone (`deno task bench:validator`): the rows the validator's speed
// targets name (real schemas: valid alternating, failures read alternating
// and in a hot loop), each as the median of per-repetition ratios of
// interleaved runs (ours then ajv's, several times), which a loaded machine
// moves far less than it moves the times themselves.
// `--baseline` (with `--targets`) also measures another checkout's validator
// (its model/mod.ts) in the same rounds: each row then gives its ratio to
// ajv and ours to it, for before/after figures from one run.
// `--fast-path=off` measures DefaultValidator with `fastPath: false` (Hyperjump
// for every answer). Each figure is the best of several repetitions, ours and
// ajv's interleaved so that both see the same machine load.
import Ajv from "ajv";
import Ajv2020 from "ajv/dist/2020.js";
import {
  type CompiledSchema,
  DefaultValidator,
  type DefaultValidatorOptions,
} from "../model/mod.ts";
import { corpus, type CorpusCase } from "./_validator_corpus.ts";

const quick = Deno.args.includes("--quick");
const strayOnly = Deno.args.includes("--stray");
const targetsOnly = Deno.args.includes("--targets");
const fastPath = !Deno.args.includes("--fast-path=off");
const baselineDir = Deno.args.find((a) => a.startsWith("--baseline="))?.slice("--baseline=".length);
const REPEAT = quick ? 3 : 5;
const BUDGET_MS = quick ? 150 : 400;
const WARM_CALLS = quick ? 100 : 2000;

type AjvValidate = ((value: unknown) => boolean) & { errors?: { message?: string }[] | null };
type AjvInstance = { compile(schema: unknown): AjvValidate };
type AjvClass = new (options: Record<string, unknown>) => AjvInstance;

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
const ajvOptions = { allErrors: true, strict: false, validateFormats: false };
const newAjv = (): { d7: AjvInstance; d2020: AjvInstance } => ({
  d7: new (Ajv as unknown as AjvClass)(ajvOptions),
  d2020: new (Ajv2020 as unknown as AjvClass)(ajvOptions),
});

function ajvCompile(ajv: ReturnType<typeof newAjv>, schema: unknown): AjvValidate {
  const draft07 = typeof schema === "object" && schema !== null &&
    DRAFT_07.test(String((schema as Record<string, unknown>).$schema ?? ""));
  return (draft07 ? ajv.d7 : ajv.d2020).compile(schema);
}

function options(): DefaultValidatorOptions {
  return {
    cacheSize: 100_000,
    ...(fastPath ? {} : { fastPath: false }),
  } as DefaultValidatorOptions;
}

interface Ready {
  ours: CompiledSchema;
  /** The baseline checkout's compiled schema (with `--baseline`). */
  base?: CompiledSchema;
  ajv: AjvValidate;
  valid: unknown;
  invalid: unknown;
}

async function prepare(
  cases: CorpusCase[],
  baseline?: Validator,
): Promise<{ ready: Ready[]; dropped: number }> {
  const validator = new DefaultValidator(options());
  const ajv = newAjv();
  const byText = new Map<string, AjvValidate>();
  const ready: Ready[] = [];
  let dropped = 0;
  for (const c of cases) {
    try {
      const ours = await validator.compile(c.schema as never);
      const text = JSON.stringify(c.schema);
      let check = byText.get(text);
      if (check === undefined) byText.set(text, check = ajvCompile(ajv, c.schema));
      const base = await baseline?.compile(c.schema as never);
      const agree = ours.check(c.valid).valid && check(c.valid) &&
        !ours.check(c.invalid).valid && !check(c.invalid) &&
        (base === undefined || (base.check(c.valid).valid && !base.check(c.invalid).valid));
      if (agree) {
        ready.push({
          ours,
          ...(base === undefined ? {} : { base }),
          ajv: check,
          valid: c.valid,
          invalid: c.invalid,
        });
      } else dropped++;
    } catch {
      dropped++;
    }
  }
  return { ready, dropped };
}

let sink = 0;

/** Microseconds per call of `run` (which makes `calls` calls), best of REPEAT, paired. */
function paired(
  calls: number,
  perSchema: number,
  ours: () => void,
  theirs: () => void,
  repeat = REPEAT,
  base?: () => void,
): {
  ours: number;
  ajv: number;
  median: number;
  base?: number;
  baseMedian?: number;
  vsBase?: number;
} {
  // Warm up both until each schema's checker has run WARM_CALLS times (a
  // gateway's steady state: generated code tiers up per function) and for at
  // least BUDGET_MS / 4; then rounds so that one measurement takes about
  // BUDGET_MS / REPEAT. V8 compiles the optimized code of a few hundred
  // schemas' functions on a background thread, which a loaded machine starves:
  // after 500 calls per schema, hundreds of them (the failures code made on
  // the second failures read above all) were still compiled during the
  // measured rounds (`--v8-flags=--trace-opt`), and the failures row measured
  // code half optimized.
  for (const f of base === undefined ? [ours, theirs] : [ours, base, theirs]) {
    const until = performance.now() + BUDGET_MS / 4;
    for (let done = 0; done < WARM_CALLS || performance.now() < until; done += perSchema) f();
  }
  const t0 = performance.now();
  ours();
  const once = Math.max(performance.now() - t0, 0.001);
  const rounds = Math.max(1, Math.round(BUDGET_MS / REPEAT / once));
  let best = { ours: Infinity, ajv: Infinity };
  let bestBase = Infinity;
  const ratios: number[] = [];
  const baseRatios: number[] = [];
  const vsBase: number[] = [];
  const time = (f: () => void, times: number): number => {
    const start = performance.now();
    for (let i = 0; i < times; i++) f();
    return (performance.now() - start) * 1000 / (times * calls);
  };
  for (let r = 0; r < repeat; r++) {
    const a = time(ours, rounds);
    const c = base === undefined ? 0 : time(base, rounds);
    const b = time(theirs, Math.max(1, rounds * 4));
    best = { ours: Math.min(best.ours, a), ajv: Math.min(best.ajv, b) };
    ratios.push(a / b);
    if (base !== undefined) {
      bestBase = Math.min(bestBase, c);
      baseRatios.push(c / b);
      vsBase.push(a / c);
    }
  }
  const median = (list: number[]) => list.sort((x, y) => x - y)[Math.floor(list.length / 2)];
  if (base === undefined) return { ...best, median: median(ratios) };
  return {
    ...best,
    median: median(ratios),
    base: bestBase,
    baseMedian: median(baseRatios),
    vsBase: median(vsBase),
  };
}

function readOurs(ready: Ready, kind: "valid" | "invalid", messages: boolean): void {
  const result = ready.ours.check(ready[kind]);
  if (result.valid) sink++;
  else if (messages) { for (const f of result.failures) sink += f.message.length; }
  else sink--;
}

function readBase(ready: Ready, kind: "valid" | "invalid", messages: boolean): void {
  const result = ready.base!.check(ready[kind]);
  if (result.valid) sink++;
  else if (messages) { for (const f of result.failures) sink += f.message.length; }
  else sink--;
}

function readAjv(ready: Ready, kind: "valid" | "invalid", messages: boolean): void {
  if (ready.ajv(ready[kind])) sink++;
  else if (messages) { for (const e of ready.ajv.errors ?? []) sink += String(e.message).length; }
  else sink--;
}

interface Row {
  what: string;
  ours: number;
  ajv: number;
}

const MODES: [string, "valid" | "invalid", boolean][] = [
  ["valid", "valid", false],
  ["invalid, answer only", "invalid", false],
  ["invalid, failures and messages read", "invalid", true],
];

function measure(ready: Ready[], modes = MODES): Row[] {
  const rows: Row[] = [];
  for (const [label, kind, messages] of modes) {
    const alternating = paired(
      ready.length,
      1,
      () => {
        for (const r of ready) readOurs(r, kind, messages);
      },
      () => {
        for (const r of ready) readAjv(r, kind, messages);
      },
    );
    rows.push({ what: `${label}, alternating`, ...alternating });
    const HOT = 50;
    const hot = paired(
      ready.length * HOT,
      HOT,
      () => {
        for (const r of ready) for (let i = 0; i < HOT; i++) readOurs(r, kind, messages);
      },
      () => {
        for (const r of ready) for (let i = 0; i < HOT; i++) readAjv(r, kind, messages);
      },
    );
    rows.push({ what: `${label}, per-schema hot loop`, ...hot });
  }
  return rows;
}

async function compileTimes(cases: CorpusCase[]): Promise<Row> {
  const distinct = [...new Map(cases.map((c) => [JSON.stringify(c.schema), c.schema])).values()];
  let best = { ours: Infinity, ajv: Infinity };
  for (let r = 0; r < (quick ? 1 : 3); r++) {
    const validator = new DefaultValidator(options());
    let start = performance.now();
    for (const schema of distinct) await validator.compile(schema as never).catch(() => undefined);
    const ours = (performance.now() - start) * 1000 / distinct.length;
    const ajv = newAjv();
    start = performance.now();
    for (const schema of distinct) {
      try {
        ajvCompile(ajv, schema);
      } catch { /* counted in the time anyway */ }
    }
    const theirs = (performance.now() - start) * 1000 / distinct.length;
    best = { ours: Math.min(best.ours, ours), ajv: Math.min(best.ajv, theirs) };
  }
  return { what: `compile, per distinct schema (${distinct.length})`, ...best };
}

function table(title: string, rows: Row[]): string {
  const lines = [
    `### ${title}`,
    "",
    "| what | toolfoundation (µs/call) | ajv allErrors (µs/call) | ratio (x ajv) |",
    "| --- | ---: | ---: | ---: |",
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.what} | ${row.ours.toFixed(3)} | ${row.ajv.toFixed(3)} | ${
        (row.ours / row.ajv).toFixed(2)
      } |`,
    );
  }
  return lines.join("\n");
}

/**
 * The real schemas whose root has `additionalProperties: false`, each with
 * its valid instance and, as the invalid one, that instance with a stray member.
 */
function strayMember(cases: CorpusCase[]): CorpusCase[] {
  return cases.flatMap((c) => {
    const schema = c.schema;
    const valid = c.valid;
    if (typeof schema !== "object" || schema.additionalProperties !== false) return [];
    if (typeof valid !== "object" || valid === null || Array.isArray(valid)) return [];
    const properties = schema.properties as Record<string, unknown> | undefined;
    if (properties !== undefined && Object.hasOwn(properties, "stray_argument")) return [];
    return [{ ...c, invalid: { ...valid, stray_argument: "x" } }];
  });
}

/** The validator's speed targets on the real schemas: what, how, the most ours may cost (x ajv). */
const TARGETS: [string, "valid" | "invalid", boolean, "alternating" | "hot", number][] = [
  ["valid, alternating", "valid", false, "alternating", 1.5],
  // ajv (allErrors) builds its errors with every answer: the fair comparison.
  ["invalid, answer (failures not read), alternating", "invalid", false, "alternating", 5],
  ["invalid, failures and messages read, alternating", "invalid", true, "alternating", 1.5],
  ["invalid, failures and messages read, per-schema hot loop", "invalid", true, "hot", 3],
];

/** The targets table: each row's median per-repetition ratio against its target. */
function targets(ready: Ready[]): string {
  const withBase = ready.length > 0 && ready[0].base !== undefined;
  const lines = [
    `### targets: real MCP tool schemas, ${ready.length} pairs (median of per-repetition ratios)`,
    "",
    withBase ? `baseline: ${baselineDir}` : "",
    "",
    "| what | toolfoundation (µs/call, best) | ajv (µs/call, best) | ratio (x ajv, median) | target | met |" +
    (withBase
      ? " baseline (µs/call, best) | baseline (x ajv, median) | ours / baseline (median) |"
      : ""),
    "| --- | ---: | ---: | ---: | ---: | --- |" + (withBase ? " ---: | ---: | ---: |" : ""),
  ];
  const repeat = quick ? 5 : 15;
  for (const [what, kind, messages, how, target] of TARGETS) {
    const HOT = how === "hot" ? 50 : 1;
    const row = paired(
      ready.length * HOT,
      HOT,
      () => {
        for (const r of ready) for (let i = 0; i < HOT; i++) readOurs(r, kind, messages);
      },
      () => {
        for (const r of ready) for (let i = 0; i < HOT; i++) readAjv(r, kind, messages);
      },
      repeat,
      withBase
        ? () => {
          for (const r of ready) for (let i = 0; i < HOT; i++) readBase(r, kind, messages);
        }
        : undefined,
    );
    lines.push(
      `| ${what} | ${row.ours.toFixed(3)} | ${row.ajv.toFixed(3)} | ${row.median.toFixed(2)} | ` +
        `≤ ${target}x | ${row.median <= target ? "yes" : "no"} |` +
        (row.base === undefined
          ? ""
          : ` ${row.base.toFixed(3)} | ${row.baseMedian!.toFixed(2)} | ` +
            `${row.vsBase!.toFixed(2)} |`),
    );
  }
  return lines.join("\n");
}

/** What the bench compiles with: a DefaultValidator of this checkout or of the baseline's. */
interface Validator {
  compile(schema: never): Promise<CompiledSchema>;
}

/** The baseline checkout's DefaultValidator (`--baseline`), its first compile done. */
async function baselineValidator(): Promise<Validator | undefined> {
  if (baselineDir === undefined) return undefined;
  const dir = baselineDir.startsWith("/") ? baselineDir : `${Deno.cwd()}/${baselineDir}`;
  const url = new URL("model/mod.ts", `file://${dir.endsWith("/") ? dir : `${dir}/`}`);
  const model = await import(url.href) as { DefaultValidator: new (o: unknown) => Validator };
  const validator = new model.DefaultValidator(options());
  await validator.compile({ type: "object" } as never);
  return validator;
}

const { seeds, real } = await corpus();
// The first compile in a process compiles Hyperjump's meta-schema: not part of the figures.
await new DefaultValidator().compile({ type: "object" });
const out: string[] = [`fast path: ${fastPath ? "on" : "off"}`, ""];
for (
  const [title, cases] of strayOnly || targetsOnly
    ? []
    : [["bench sample schemas", seeds], ["real MCP tool schemas", real]] as const
) {
  const compile = await compileTimes(cases as CorpusCase[]);
  const { ready, dropped } = await prepare(cases as CorpusCase[]);
  const rows = [...measure(ready), compile];
  out.push(table(`${title}: ${ready.length} schema/instance pairs (${dropped} dropped)`, rows), "");
}
if (!strayOnly) out.push(targets((await prepare(real, await baselineValidator())).ready), "");
if (!targetsOnly) {
  const { ready, dropped } = await prepare(strayMember(real));
  const rows = measure(ready, MODES.slice(1));
  const title = "invalid: stray member on an additionalProperties:false schema (real MCP schemas)";
  out.push(table(`${title}: ${ready.length} pairs (${dropped} dropped)`, rows), "");
}
console.log(out.join("\n"));
if (sink === 0.5) console.log(sink);
