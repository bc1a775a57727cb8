// A process group started with spawnGroup and never stopped gets SIGKILL when
// the process that started it ends (Deno.exit or its event loop running
// empty), grandchildren included, under an unscoped --allow-run and under the
// scoped grant the CLI asks for (through the `kill` program).
import assert from "node:assert/strict";

const FIXTURE = new URL("../../fixtures/run/exit_with_live_group.ts", import.meta.url).pathname;

/** The processes, not zombies, with `marker` in their command line ("pid stat args"). */
async function living(marker: string): Promise<string[]> {
  const out = await new Deno.Command("ps", { args: ["-eo", "pid=,stat=,args="], stdout: "piped" })
    .output();
  return new TextDecoder().decode(out.stdout).split("\n").map((line) => line.trim())
    .filter((line) => line.includes(marker) && !line.split(/\s+/)[1]?.startsWith("Z"));
}

async function endsWithNoSurvivor(how: string, runGrant: string): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "tf-live-groups-" });
  const pidfile = `${dir}/pids.jsonl`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--no-config",
      `--allow-read=${dir}`,
      "--allow-env=PATH",
      runGrant,
      FIXTURE,
      how,
      pidfile,
    ],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.ok(
    how === "throw" ? out.code !== 0 : out.code === 0,
    new TextDecoder().decode(out.stderr),
  );
  assert.ok((await Deno.readTextFile(pidfile)).includes("grandchild"));
  let survivors = await living(pidfile);
  const until = performance.now() + 1000;
  while (survivors.length > 0 && performance.now() < until) {
    await new Promise((r) => setTimeout(r, 20));
    survivors = await living(pidfile);
  }
  for (const line of survivors) {
    try {
      Deno.kill(Number(line.split(/\s+/)[0]), "SIGKILL"); // leave nothing behind, then fail
    } catch { /* gone */ }
  }
  assert.deepEqual(survivors, [], `${how} under ${runGrant}`);
}

Deno.test("a group never stopped is killed when the process calls Deno.exit (unscoped --allow-run)", async () => {
  await endsWithNoSurvivor("exit", "--allow-run");
});

Deno.test("a group never stopped is killed when the process calls Deno.exit (--allow-run=sh,kill)", async () => {
  await endsWithNoSurvivor("exit", "--allow-run=sh,kill");
});

Deno.test("a group never stopped is killed when the process's event loop runs empty", async () => {
  await endsWithNoSurvivor("end", "--allow-run=sh,kill");
});
