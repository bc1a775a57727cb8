// Start-up of the CLI as an installed user feels it: each command spawned as a
// fresh `deno run --no-config` from a temporary directory outside the
// repository (so no project deno.json on either side), with exactly the
// permissions the compiled binary has (`deno.json`'s compile task:
// `--allow-read=examples`), warm module cache (`--cached-only`). Every round
// runs each command once, each right after a `deno run` of an empty module
// (same flags, same directory), so that both see the same machine load; the
// figure is the ratio of the command's median to the empty module's median.
//
//   deno task bench:startup [rounds, default 15] [--profile]
//
// `--profile` runs each command once more with `--cpu-prof` and prints where
// its busy time goes (self time by source file, then by function).
//
// The compiled binary (`deno task compile`, which bakes in the permissions of
// the example) in place of `deno run cli.ts`, against `deno run` of the empty
// module or, with --baseline, against that module compiled too
// (`deno compile --output=dist/empty bench/_empty.ts`):
//
//   deno task bench:startup 15 --binary=dist/toolfoundation [--baseline=dist/empty]
//
// Ratios, not milliseconds, are the figure to compare across machines.

const ROOT = new URL("..", import.meta.url).pathname;
const CLI = `${ROOT}cli.ts`;
const flag = (name: string) =>
  Deno.args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const ROUNDS = Number(Deno.args.find((a) => !a.startsWith("--")) ?? 15);
const PROFILE = Deno.args.includes("--profile");
/** A path given on the command line, made absolute. */
const absolute = (path: string | undefined) =>
  path === undefined ? undefined : new URL(path, `file://${Deno.cwd()}/`).pathname;
const BINARY = absolute(flag("binary"));
const BASELINE_BINARY = absolute(flag("baseline"));

/** The directory every command runs in: a copy of the example, an empty module, no config. */
const WORK = await Deno.makeTempDir({ prefix: "toolfoundation-startup-" });
await Deno.mkdir(`${WORK}/examples`);
await Deno.copyFile(`${ROOT}examples/tools.yaml`, `${WORK}/examples/tools.yaml`);
await Deno.writeTextFile(`${WORK}/empty.ts`, "");

interface Case {
  name: string;
  args: string[];
  /** The program (default: this Deno). */
  program?: string;
}

const BASE = ["run", "--quiet", "--cached-only", "--no-config"];
/** The compiled binary's permissions (deno.json, task `compile`). */
const BINARY_PERMISSIONS = ["--allow-read=examples"];
const ADD = '{"operation":"add","a":1,"b":2}';
const COMMANDS: string[][] = [
  ["--help"],
  ["list", "examples/tools.yaml"],
  ["run", "examples/tools.yaml", "math:calculate", "--args", ADD],
  ["validate", "examples/tools.yaml"],
];
const label = (args: string[]) => args.slice(0, 2).join(" ");
const CASES: Case[] = BINARY === undefined
  ? COMMANDS.map((args) => ({
    name: label(args),
    args: [...BASE, ...BINARY_PERMISSIONS, CLI, ...args],
  }))
  : COMMANDS.map((args) => ({ name: `binary ${label(args)}`, args, program: BINARY }));
const BASELINE: Case = BASELINE_BINARY === undefined
  ? { name: "deno run (empty module)", args: [...BASE, "empty.ts"] }
  : { name: "empty module, compiled", args: [], program: BASELINE_BINARY };

async function time(c: Case, extra: string[] = []): Promise<number> {
  const args = extra.length === 0 ? c.args : [c.args[0], ...extra, ...c.args.slice(1)];
  const started = performance.now();
  const out = await new Deno.Command(c.program ?? Deno.execPath(), {
    args,
    cwd: WORK,
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

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time (ms) by source file and by function of one `--cpu-prof` run. */
async function profile(c: Case): Promise<void> {
  const dir = await Deno.makeTempDir({ dir: WORK });
  await time(c, ["--cpu-prof", `--cpu-prof-dir=${dir}`]);
  const [entry] = await Array.fromAsync(Deno.readDir(dir));
  const p: Profile = JSON.parse(await Deno.readTextFile(`${dir}/${entry.name}`));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const byFile = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  p.samples.forEach((id, i) => {
    const { functionName, url } = byId.get(id)!.callFrame;
    const ms = (p.timeDeltas[i] ?? 0) / 1000;
    if (functionName === "(idle)" || functionName === "(program)") return;
    busy += ms;
    const file = url.replace(/^.*\/(node_modules|npm|ext|cli\/_generated)\//, "$1/") ||
      functionName;
    byFile.set(file, (byFile.get(file) ?? 0) + ms);
    const fn = `${functionName || "(anonymous)"} ${file}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
  });
  const top = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, ms]) =>
      `    ${ms.toFixed(1).padStart(6)} ms  ${k}`
    ).join("\n");
  console.log(`\n${c.name}: ${busy.toFixed(1)} ms busy (JavaScript and GC, sampled)`);
  console.log(`  by file:\n${top(byFile)}\n  by function:\n${top(byFunction)}`);
}

try {
  // Warm up (and fail early when a command does not work).
  for (const c of [BASELINE, ...CASES]) await time(c);
  const base: number[] = [];
  const runs = new Map<Case, number[]>(CASES.map((c) => [c, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of CASES) {
      base.push(await time(BASELINE));
      runs.get(c)!.push(await time(c));
    }
  }
  const empty = median(base);
  console.log(`| command | median ms | x empty module |`);
  console.log(`|---|---:|---:|`);
  console.log(`| ${BASELINE.name} | ${empty.toFixed(1)} | 1.00x |`);
  for (const [c, ms] of runs) {
    console.log(`| ${c.name} | ${median(ms).toFixed(1)} | ${(median(ms) / empty).toFixed(2)}x |`);
  }
  if (PROFILE) for (const c of CASES) await profile(c);
} finally {
  await Deno.remove(WORK, { recursive: true });
}
