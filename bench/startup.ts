// Start-up of the CLI as a user feels it: each command spawned as a fresh
// `deno run` (warm cache, `--cached-only`, exactly the permissions the command
// needs), alternating with `deno run` of an empty module so that both see the
// same machine load. Prints medians and the ratio to the empty module.
//
//   deno run --allow-run --allow-read bench/startup.ts [runs per command, default 15]
//
// The compiled binary (`deno task compile`, which bakes in the permissions of
// the example) in place of `deno run cli.ts`, against `deno run` of the empty
// module or, with --baseline, against that module compiled too
// (`deno compile --output=dist/empty bench/_empty.ts`):
//
//   deno run --allow-run --allow-read bench/startup.ts 15 --binary=dist/toolfoundation \
//     [--baseline=dist/empty]
//
// Ratios, not milliseconds, are the figure to compare across machines.

const ROOT = new URL("..", import.meta.url).pathname;
const EMPTY = new URL("./_empty.ts", import.meta.url).pathname;
const flag = (name: string) =>
  Deno.args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const RUNS = Number(Deno.args.find((a) => !a.startsWith("--")) ?? 15);
/** A path given on the command line, made absolute (the commands run in the repository root). */
const absolute = (path: string | undefined) =>
  path === undefined ? undefined : new URL(path, `file://${Deno.cwd()}/`).pathname;
const BINARY = absolute(flag("binary"));
const BASELINE_BINARY = absolute(flag("baseline"));

interface Case {
  name: string;
  args: string[];
  /** The program (default: this Deno). */
  program?: string;
}

const BASE = ["run", "--quiet", "--cached-only"];
const READ = "--allow-read=examples";
const LAZY = "--unstable-lazy-dynamic-imports";
const ADD = '{"operation":"add","a":1,"b":2}';
const CASES: Case[] = [
  { name: "--help", args: [...BASE, "cli.ts", "--help"] },
  {
    name: "run examples/tools.yaml math:calculate",
    args: [
      ...BASE,
      READ,
      "cli.ts",
      "run",
      "examples/tools.yaml",
      "math:calculate",
      "--args",
      ADD,
    ],
  },
  {
    name: "list examples/tools.yaml",
    args: [...BASE, READ, "cli.ts", "list", "examples/tools.yaml"],
  },
  {
    name: "validate examples/tools.yaml",
    args: [...BASE, READ, "cli.ts", "validate", "examples/tools.yaml"],
  },
  // Opt-in: Deno loads the chunks of statically analysable dynamic imports
  // (one per command) only when they run; from a checkout they then need
  // read access to the CLI's bundle, cli/_generated/cli (README, "Benchmarks").
  { name: "--help, lazy dynamic imports", args: [...BASE, LAZY, "cli.ts", "--help"] },
  {
    name: "list examples/tools.yaml, lazy dynamic imports",
    args: [
      ...BASE,
      LAZY,
      "--allow-read=examples,cli/_generated/cli",
      "cli.ts",
      "list",
      "examples/tools.yaml",
    ],
  },
];
/** The same commands run by the compiled binary (its permissions are baked in). */
const BINARY_CASES: Case[] = BINARY === undefined ? [] : [
  ["--help"],
  ["run", "examples/tools.yaml", "math:calculate", "--args", ADD],
  ["list", "examples/tools.yaml"],
  ["validate", "examples/tools.yaml"],
].map((args) => ({ name: `${BINARY} ${args.slice(0, 2).join(" ")}`, args, program: BINARY }));
const BASELINE: Case = BASELINE_BINARY === undefined
  ? { name: "deno run (empty module)", args: [...BASE, EMPTY] }
  : { name: `${BASELINE_BINARY} (empty module, compiled)`, args: [], program: BASELINE_BINARY };

async function time(c: Case): Promise<number> {
  const started = performance.now();
  const out = await new Deno.Command(c.program ?? Deno.execPath(), {
    args: c.args,
    cwd: ROOT,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  const ms = performance.now() - started;
  if (!out.success) {
    throw new Error(`${c.name}: exit ${out.code}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return ms;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// Warm up (and fail early when a command does not work).
const RUN = BINARY === undefined ? CASES : BINARY_CASES;
for (const c of [BASELINE, ...RUN]) await time(c);

const rows: Array<{ name: string; ms: number; ratio: number }> = [];
for (const c of RUN) {
  const base: number[] = [];
  const cmd: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    base.push(await time(BASELINE));
    cmd.push(await time(c));
  }
  rows.push({ name: c.name, ms: median(cmd), ratio: median(cmd) / median(base) });
  rows.push({ name: `  (baseline alongside)`, ms: median(base), ratio: 1 });
}
console.log(`| command | median ms | ratio to empty module |`);
console.log(`|---|---:|---:|`);
for (const r of rows) console.log(`| ${r.name} | ${r.ms.toFixed(1)} | ${r.ratio.toFixed(2)}x |`);
