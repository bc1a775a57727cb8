import assert from "node:assert/strict";
import { spawnGroup } from "../../../run/process/group.ts";
import { exited } from "../_processes.ts";

const PATH = Deno.env.get("PATH") ?? "/usr/bin:/bin";

/** Reads stdout until `lines` lines came (the writer may keep the pipe open). */
async function readLines(stream: ReadableStream<Uint8Array>, lines: number): Promise<string[]> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (text.split("\n").length <= lines) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  await reader.cancel();
  return text.trim().split("\n");
}

Deno.test("spawnGroup gives the child exactly the environment passed", async () => {
  Deno.env.set("TF_PROCESS_TEST_SECRET", "s3cret");
  try {
    const group = spawnGroup("sh", { args: ["-c", "env"], env: { PATH, ONLY: "this" } });
    group.process.stdin.close();
    const [out] = await Promise.all([
      new Response(group.process.stdout).text(),
      new Response(group.process.stderr).text(),
    ]);
    await group.process.status;
    assert.match(out, /^ONLY=this$/m);
    assert.doesNotMatch(out, /TF_PROCESS_TEST_SECRET|s3cret/);
    assert.doesNotMatch(out, /^HOME=/m);
  } finally {
    Deno.env.delete("TF_PROCESS_TEST_SECRET");
  }
});

Deno.test("stop gives a grandchild that outlives the leader its grace, then it is gone", async () => {
  const marker = await Deno.makeTempFile();
  try {
    // The grandchild cleans up on SIGTERM (the leader has exited by then).
    const grandchild = `trap "echo cleaned > ${marker}; exit 0" TERM; sleep 30 & wait`;
    const group = spawnGroup("sh", {
      args: ["-c", `sh -c '${grandchild}' </dev/null >/dev/null 2>&1 & echo $!`],
      env: { PATH },
      stdin: "null",
      stderr: "null",
    });
    const pid = Number((await new Response(group.process.stdout).text()).trim());
    assert.equal((await group.process.status).code, 0, "the leader exited by itself");
    assert.equal(await exited(pid), false, "the grandchild is still running");
    await new Promise((resolve) => setTimeout(resolve, 200)); // lets it install its trap
    await group.stop(30_000);
    assert.equal(await exited(pid), true, "the grandchild is gone once stop() resolves");
    assert.equal((await Deno.readTextFile(marker)).trim(), "cleaned", "it got SIGTERM first");
  } finally {
    await Deno.remove(marker);
  }
});

Deno.test("stop kills a group that ignores SIGTERM after the grace period", async () => {
  const group = spawnGroup("sh", {
    args: ["-c", `trap "" TERM; sleep 30 & echo $$; echo $!; wait`],
    env: { PATH },
    stdin: "null",
    stderr: "null",
  });
  const pids = (await readLines(group.process.stdout, 2)).map(Number);
  assert.equal(pids.length, 2);
  const started = performance.now();
  await group.stop(300);
  assert.ok(performance.now() - started >= 250, "SIGKILL waited for the grace period");
  assert.equal((await group.process.status).signal, "SIGKILL");
  for (const pid of pids) assert.equal(await exited(pid), true, `process ${pid} is gone`);
});

Deno.test("stop lets a group that exits on SIGTERM go without waiting for the grace", async () => {
  const group = spawnGroup("sh", {
    args: ["-c", "sleep 30 & echo $!; wait"],
    env: { PATH },
    stdin: "null",
    stderr: "null",
  });
  const [pid] = (await readLines(group.process.stdout, 1)).map(Number);
  const started = performance.now();
  await group.stop(60_000);
  assert.ok(performance.now() - started < 30_000, "stop() did not wait for the 60 s grace");
  assert.equal((await group.process.status).signal, "SIGTERM");
  assert.equal(await exited(pid), true);
  await group.stop(); // a second stop is harmless
});

Deno.test("stop reaches the whole group under a scoped --allow-run (through the kill program)", async () => {
  const fixture = new URL("../../fixtures/run/stop_group_scoped.ts", import.meta.url);
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--allow-read",
      "--allow-env=PATH",
      "--allow-run=sh,kill",
      fixture.pathname,
    ],
    stdin: "null",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const pid = Number(new TextDecoder().decode(out.stdout).trim());
  assert.ok(pid > 0);
  assert.equal(await exited(pid), true, "the SIGTERM-proof grandchild is gone");
});
