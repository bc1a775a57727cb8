// Start-up of the CLI as an installed user feels it: each command spawned as a
// fresh `deno run --no-config` from a temporary directory outside the
// repository (so no project deno.json on either side), with exactly the
// permissions the compiled binary has (`deno.json`'s compile task:
// `--allow-read=examples`), warm module cache (`--cached-only`). Every round
// runs each command once, each right after a `deno run` of an empty module
// (same flags, same directory), so that both see the same machine load; the
// figures are the ratios of the command's medians to the empty module's:
// wall time (the target) and CPU time (user + system, all threads), which
// other processes' load moves much less. Needs python3 (to read the child's
// resource use).
//
//   deno task bench:startup [rounds, default 15] [--profile] [--before=../main]
//
// `--before=DIR` runs `--help`, `list` and `run` of another checkout's CLI too
// (the same rounds, the same empty module): before/after ratios from one run.
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
/** Another checkout (e.g. the main branch) whose CLI runs the same commands in the same rounds. */
const BEFORE = absolute(flag("before"));

/** The directory every command runs in: a copy of the example, an empty module, no config. */
const WORK = await Deno.makeTempDir({ prefix: "toolfoundation-startup-" });
await Deno.mkdir(`${WORK}/examples`);
await Deno.copyFile(`${ROOT}examples/tools.yaml`, `${WORK}/examples/tools.yaml`);
await Deno.writeTextFile(`${WORK}/empty.ts`, "");
// The example with one anchor: outside the YAML subset the CLI parses itself,
// so parsed by npm:yaml, or read from the manifest cache when it may be used.
const example = await Deno.readTextFile(`${WORK}/examples/tools.yaml`);
const anchored = example.replace("tags: [math, arithmetic]", "tags: &tags [math, arithmetic]");
if (anchored === example) {
  throw new Error("examples/tools.yaml: no `tags: [math, arithmetic]` to anchor");
}
await Deno.writeTextFile(`${WORK}/examples/anchored.yaml`, anchored);
const CACHE = `${WORK}/deno-dir`;

interface Case {
  name: string;
  args: string[];
  /** The program (default: this Deno). */
  program?: string;
  /** Environment variables added. */
  env?: Record<string, string>;
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
  ? [
    ...COMMANDS.map((args) => ({
      name: label(args),
      args: [...BASE, ...BINARY_PERMISSIONS, CLI, ...args],
    })),
    // The two ways to a parsed manifest that the subset parser does not read.
    {
      name: "list examples/anchored.yaml (npm:yaml)",
      args: [...BASE, ...BINARY_PERMISSIONS, CLI, "list", "examples/anchored.yaml"],
    },
    {
      name: "list examples/anchored.yaml (manifest cache hit)",
      args: [
        ...BASE,
        "--allow-env=DENO_DIR",
        `--allow-read=examples,${CACHE}`,
        `--allow-write=${CACHE}`,
        CLI,
        "list",
        "examples/anchored.yaml",
      ],
      env: { DENO_DIR: CACHE },
    },
  ]
  : COMMANDS.map((args) => ({ name: `binary ${label(args)}`, args, program: BINARY }));
if (BEFORE !== undefined) {
  for (const args of COMMANDS.slice(0, 3)) {
    CASES.push({
      name: `${BEFORE}: ${label(args)}`,
      args: [...BASE, ...BINARY_PERMISSIONS, `${BEFORE.replace(/\/$/, "")}/cli.ts`, ...args],
    });
  }
}
const BASELINE: Case = BASELINE_BINARY === undefined
  ? { name: "deno run (empty module)", args: [...BASE, "empty.ts"] }
  : { name: "empty module, compiled", args: [], program: BASELINE_BINARY };

/**
 * Spawns a command and reports its wall and CPU time (user + system, all its
 * threads, from `wait4`) as JSON: a few lines of Python, because Deno does not
 * report a child's resource use. CPU time hardly moves with the load of other
 * processes on the machine; wall time does.
 */
const MEASURE = `
import json, os, sys, time
devnull = os.open(os.devnull, os.O_RDWR)
err = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
started = time.perf_counter()
pid = os.posix_spawn(sys.argv[2], sys.argv[2:], os.environ,
  file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 0), (os.POSIX_SPAWN_DUP2, devnull, 1),
                (os.POSIX_SPAWN_DUP2, err, 2)])
_, status, usage = os.wait4(pid, 0)
wall = (time.perf_counter() - started) * 1000
print(json.dumps({"wall": wall, "cpu": (usage.ru_utime + usage.ru_stime) * 1000,
                  "code": os.waitstatus_to_exitcode(status)}))
`;

/** The Python interpreter itself (not a shim script in front of it, which would cost each spawn). */
const PYTHON = new TextDecoder().decode(
  (await new Deno.Command("python3", { args: ["-c", "import sys; print(sys.executable)"] })
    .output())
    .stdout,
).trim();

interface Timing {
  wall: number;
  cpu: number;
}

async function time(c: Case, extra: string[] = []): Promise<Timing> {
  const args = extra.length === 0 ? c.args : [c.args[0], ...extra, ...c.args.slice(1)];
  const errors = `${WORK}/stderr.txt`;
  const out = await new Deno.Command(PYTHON, {
    args: ["-c", MEASURE, errors, c.program ?? Deno.execPath(), ...args],
    cwd: WORK,
    env: c.env,
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).output();
  const result = out.success
    ? JSON.parse(new TextDecoder().decode(out.stdout)) as Timing & { code: number }
    : undefined;
  if (result === undefined || result.code !== 0) {
    throw new Error(
      `${c.name}: exit ${result?.code}: ${await Deno.readTextFile(errors).catch(() => "")}`,
    );
  }
  return { wall: result.wall, cpu: result.cpu };
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
  const base: Timing[] = [];
  const runs = new Map<Case, Timing[]>(CASES.map((c) => [c, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of CASES) {
      base.push(await time(BASELINE));
      runs.get(c)!.push(await time(c));
    }
  }
  const wall = median(base.map((t) => t.wall));
  const cpu = median(base.map((t) => t.cpu));
  const cell = (ms: number, of: number) => `${ms.toFixed(1)} | ${(ms / of).toFixed(2)}x`;
  console.log(`| command | wall ms | x empty module | CPU ms | x empty module |`);
  console.log(`|---|---:|---:|---:|---:|`);
  console.log(`| ${BASELINE.name} | ${cell(wall, wall)} | ${cell(cpu, cpu)} |`);
  for (const [c, times] of runs) {
    const w = median(times.map((t) => t.wall));
    const u = median(times.map((t) => t.cpu));
    console.log(`| ${c.name} | ${cell(w, wall)} | ${cell(u, cpu)} |`);
  }
  if (PROFILE) { for (const c of CASES) await profile(c); }
} finally {
  await Deno.remove(WORK, { recursive: true });
}
