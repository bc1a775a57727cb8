// Start-up of the CLI as a user feels it: each command spawned as a fresh
// `deno run` (warm cache, `--cached-only`, exactly the permissions the command
// needs), alternating with `deno run` of an empty module so that both see the
// same machine load. Prints medians and the ratio to the empty module.
//
//   deno run --allow-run --allow-read bench/startup.ts [runs per command, default 15]
//
// Ratios, not milliseconds, are the figure to compare across machines.

const ROOT = new URL("..", import.meta.url).pathname;
const EMPTY = new URL("./_empty.ts", import.meta.url).pathname;
const RUNS = Number(Deno.args[0] ?? 15);

interface Case {
  name: string;
  args: string[];
}

const BASE = ["run", "--quiet", "--cached-only"];
const READ = "--allow-read=examples";
// npm:yaml reads these debug switches while parsing a YAML manifest.
const ENV = "--allow-env=LOG_STREAM,LOG_TOKENS";
const CASES: Case[] = [
  { name: "--help", args: [...BASE, "cli.ts", "--help"] },
  {
    name: "run examples/tools.yaml math:calculate",
    args: [
      ...BASE,
      READ,
      ENV,
      "cli.ts",
      "run",
      "examples/tools.yaml",
      "math:calculate",
      "--args",
      '{"operation":"add","a":1,"b":2}',
    ],
  },
  {
    name: "list examples/tools.yaml",
    args: [...BASE, READ, ENV, "cli.ts", "list", "examples/tools.yaml"],
  },
  {
    name: "validate examples/tools.yaml",
    args: [...BASE, READ, ENV, "cli.ts", "validate", "examples/tools.yaml"],
  },
];
const BASELINE: Case = { name: "deno run (empty module)", args: [...BASE, EMPTY] };

async function time(c: Case): Promise<number> {
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
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
for (const c of [BASELINE, ...CASES]) await time(c);

const rows: Array<{ name: string; ms: number; ratio: number }> = [];
for (const c of CASES) {
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
