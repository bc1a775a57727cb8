// Cold start of the CLI under `deno run` with a warm cache: `--help`, and an
// end-to-end `run` of a built-in tool, each against a bare `deno run` of an
// empty module measured in the same run (the baseline).
import denoJson from "../deno.json" with { type: "json" };

const ROOT = new URL("..", import.meta.url).pathname;
const FLAGS = denoJson.tasks.compile.split(" ").filter((a) => a.startsWith("--allow-"));
const EMPTY = `data:application/javascript,${encodeURIComponent("")}`;

async function spawn(args: string[]): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).output();
  if (!out.success) throw new Error(`deno ${args.join(" ")} exited ${out.code}`);
}

Deno.bench(
  "deno run (empty module)",
  { group: "cold start", baseline: true, n: 20, warmup: 2 },
  async () => {
    await spawn(["run", "--quiet", EMPTY]);
  },
);

Deno.bench("cli --help", { group: "cold start", n: 20, warmup: 2 }, async () => {
  await spawn(["run", "--quiet", ...FLAGS, "cli.ts", "--help"]);
});

Deno.bench(
  "cli run math:calculate (end to end)",
  { group: "cold start", n: 20, warmup: 2 },
  async () => {
    await spawn([
      "run",
      "--quiet",
      ...FLAGS,
      "cli.ts",
      "run",
      "examples/tools.yaml",
      "math:calculate",
      "--args",
      '{"operation":"add","a":1,"b":2}',
    ]);
  },
);
