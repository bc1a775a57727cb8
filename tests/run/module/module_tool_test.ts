// Module tools through the library: the child process sandbox, its output
// channel, its faults, its limits, the symlink check and the load check.
import assert from "node:assert/strict";
import {
  checkModuleTool,
  DEFAULT_MODULE_MEMORY_MB,
  moduleHandler,
  type ModuleHandlerOptions,
} from "../../../run/module/module_tool.ts";
import { ChannelSplitter } from "../../../run/module/_channel.ts";
import { type RunError, Runner } from "../../../run/mod.ts";

const FIXTURES = new URL("../../fixtures/module_tools/", import.meta.url);

/** A runner with one module tool `t`; closes both when done. */
async function withTool<T>(
  file: string,
  options: ModuleHandlerOptions,
  body: (runner: Runner, logs: string[]) => Promise<T>,
): Promise<T> {
  const logs: string[] = [];
  const handler = moduleHandler(new URL(file, FIXTURES), {
    onLog: (text) => logs.push(text),
    ...options,
  });
  const runner = new Runner({ timeoutMs: 60_000 });
  runner.addLocalTool({ name: "t", inputSchema: { type: "object" } }, handler);
  try {
    return await body(runner, logs);
  } finally {
    await handler.close();
    await runner.close();
  }
}

async function failure(promise: Promise<unknown>): Promise<RunError> {
  try {
    await promise;
  } catch (error) {
    return error as RunError;
  }
  assert.fail("expected the run to fail");
}

Deno.test("a module tool's stdout and console output go to the log, never into its result", async () => {
  await withTool("chatty.ts", {}, async (runner, logs) => {
    const progress: unknown[] = [];
    const first = await runner.run("t", { a: 1 }, { onProgress: (u) => progress.push(u) });
    assert.deepEqual(first.structured, { args: { a: 1 }, calls: 1 });
    assert.deepEqual(progress, [{ progress: 1, total: 2, message: "half" }]);
    const second = await runner.run("t", { a: 2 });
    // The process is kept for the next call: module state survives between calls.
    assert.deepEqual(second.structured, { args: { a: 2 }, calls: 2 });
    const log = logs.join("");
    for (
      const line of [
        "chatty: console.log at load",
        "chatty: console.log",
        "chatty: console.info",
        "chatty: console.error",
        "chatty: Deno.stdout without newline",
        '{"forged":true}',
      ]
    ) {
      assert.ok(log.includes(line), `${line} missing from the log: ${log}`);
    }
  });
});

Deno.test("Deno.exit inside a module tool fails that call at once, naming the tool", async () => {
  await withTool("faults.ts", { export: "exits" }, async (runner) => {
    const started = Date.now();
    const error = await failure(runner.run("t", { code: 3 }));
    assert.equal(error.code, "execution");
    assert.match(error.message, /tool "t" failed: the module called Deno\.exit\(3\)/);
    assert.ok(Date.now() - started < 30_000, "reported at once, not at the 60 s deadline");
  });
});

Deno.test("an uncaught error or unhandled rejection in a timer fails the call at once", async () => {
  await withTool("faults.ts", { export: "throwsLater" }, async (runner) => {
    const error = await failure(runner.run("t", {}));
    assert.equal(error.code, "execution");
    assert.match(error.message, /tool "t" failed: uncaught error: Error: thrown from a timer/);
  });
  await withTool("faults.ts", { export: "rejectsLater" }, async (runner) => {
    const error = await failure(runner.run("t", {}));
    assert.match(error.message, /unhandled promise rejection: Error: nobody catches this/);
  });
});

Deno.test("a module tool that fills its heap fails alone; the next call gets a fresh process", async () => {
  assert.equal(DEFAULT_MODULE_MEMORY_MB, 512);
  await withTool("faults.ts", { export: "fillsHeap", memoryMb: 64 }, async (runner, logs) => {
    const error = await failure(runner.run("t", {}));
    assert.equal(error.code, "execution");
    assert.match(
      error.message,
      /ran out of memory \(its heap limit is 64 MB; raise the tool's memoryMb\)/,
    );
    assert.equal(
      (error as unknown as { details: { outOfMemory: boolean } }).details.outOfMemory,
      true,
    );
    assert.match(logs.join(""), /out of memory/);
    // This process (the host) is alive and the tool can be called again.
    assert.equal((await failure(runner.run("t", {}))).code, "execution");
  });
});

Deno.test("an error merely named like a permission error is the tool's failure, not permission_denied", async () => {
  for (const name of ["fakeNotCapable", "fakePermissionDenied"]) {
    await withTool("faults.ts", { export: name }, async (runner) => {
      const error = await failure(runner.run("t", {}));
      assert.equal(error.code, "execution", name);
    });
  }
});

Deno.test("a real sandbox denial is permission_denied naming the grant to change", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tf-mod-" });
  await Deno.writeTextFile(`${dir}/secret.txt`, "secret");
  await Deno.mkdir(`${dir}/data`);
  await Deno.writeTextFile(`${dir}/data/a.txt`, "inside");
  const options = { export: "read", dir, permissions: { read: ["./data"] } };
  await withTool("fs.ts", options, async (runner) => {
    const ok = await runner.run("t", { path: `${dir}/data/a.txt` });
    assert.deepEqual(ok.structured, { text: "inside" });
    const error = await failure(runner.run("t", { path: `${dir}/secret.txt` }));
    assert.equal(error.code, "permission_denied");
    assert.match(error.message, /Requires read access to ".*secret\.txt"/);
    assert.match(error.message, /add "\.\/secret\.txt" to permissions\.read of tool "t"/);
    assert.doesNotMatch(error.message, /--allow-read/);
  });
  await withTool("fs.ts", { export: "env" }, async (runner) => {
    const error = await failure(runner.run("t", { name: "HOME" }));
    assert.equal(error.code, "permission_denied");
    assert.match(error.message, /add "HOME" to permissions\.env of tool "t"/);
  });
  await withTool("fs.ts", { export: "env", permissions: { env: ["HOME"] } }, async (runner) => {
    const ok = await runner.run("t", { name: "HOME" });
    assert.deepEqual(ok.structured, { value: Deno.env.get("HOME") ?? null });
  });
});

Deno.test("symbolic links out of a read or write grant are refused before the tool runs", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tf-mod-" });
  await Deno.writeTextFile(`${dir}/secret.txt`, "secret");
  await Deno.mkdir(`${dir}/data/sub`, { recursive: true });
  await Deno.writeTextFile(`${dir}/data/a.txt`, "inside");
  await Deno.symlink("../a.txt", `${dir}/data/sub/inner-link`); // stays inside: fine
  const options = { export: "read", dir, permissions: { read: ["./data"] } };
  await withTool("fs.ts", options, async (runner) => {
    const ok = await runner.run("t", { path: `${dir}/data/sub/inner-link` });
    assert.deepEqual(ok.structured, { text: "inside" });
    await Deno.symlink("../../secret.txt", `${dir}/data/sub/file-link`);
    const fileLink = await failure(runner.run("t", { path: `${dir}/data/sub/file-link` }));
    assert.equal(fileLink.code, "permission_denied");
    assert.match(
      fileLink.message,
      /data\/sub\/file-link -> .*\/secret\.txt \(outside permissions\.read/,
    );
    await Deno.remove(`${dir}/data/sub/file-link`);
    await Deno.symlink("..", `${dir}/data/up`);
    const dirLink = await failure(runner.run("t", { path: `${dir}/data/up/secret.txt` }));
    assert.match(dirLink.message, /data\/up -> /);
    await Deno.remove(`${dir}/data/up`);
    await Deno.symlink(`${dir}/elsewhere.txt`, `${dir}/data/dangling`);
    const dangling = await failure(runner.run("t", { path: `${dir}/data/a.txt` }));
    assert.match(dangling.message, /data\/dangling -> .*elsewhere\.txt/);
  });
  // A write grant naming a file that is a planted link.
  await Deno.symlink(`${dir}/secret.txt`, `${dir}/out.txt`);
  const writeOptions = { export: "write", dir, permissions: { write: ["./out.txt"] } };
  await withTool("fs.ts", writeOptions, async (runner) => {
    const error = await failure(runner.run("t", { path: `${dir}/out.txt`, text: "pwned" }));
    assert.match(error.message, /out\.txt -> .*secret\.txt \(outside permissions\.write/);
  });
  assert.equal(await Deno.readTextFile(`${dir}/secret.txt`), "secret");
});

Deno.test("a tool flooding stdout with one endless line neither breaks its result nor the cap", async () => {
  let logged = 0;
  const options = {
    export: "floods",
    maxOutputBytes: 1000,
    onLog: (t: string) => logged += t.length,
  };
  await withTool("faults.ts", options, async (runner) => {
    const out = await runner.run("t", { bytes: 8 * 1024 * 1024 });
    assert.deepEqual(out.structured, { ok: true });
  });
  assert.ok(logged >= 8 * 1024 * 1024, `logged ${logged}`);
});

Deno.test("a script that never closes its module handler exits by itself, leaving no process", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--allow-read", "--allow-env", "--allow-run", "no_close.ts"],
    cwd: FIXTURES.pathname,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const out = await child.output();
  clearTimeout(timer);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const { pid } = JSON.parse(new TextDecoder().decode(out.stdout)) as { pid: number };
  let alive = true;
  for (let i = 0; i < 20 && alive; i++) {
    alive = await Deno.stat(`/proc/${pid}`).then(() => true, () => false);
    if (alive) await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(alive, false, `module tool process ${pid} outlived the script`);
});

Deno.test("a result over the cap is output_too_large; BigInt and cycles are clear tool errors", async () => {
  await withTool("faults.ts", { export: "big", maxOutputBytes: 1000 }, async (runner) => {
    assert.deepEqual((await runner.run("t", { bytes: 10 })).structured, { text: "x".repeat(10) });
    const error = await failure(runner.run("t", { bytes: 5000 }));
    assert.equal(error.code, "output_too_large");
    assert.equal((error as unknown as { limitBytes: number }).limitBytes, 1000);
  });
  for (const name of ["bigint", "cycle"]) {
    await withTool("faults.ts", { export: name }, async (runner) => {
      const error = await failure(runner.run("t", {}));
      assert.equal(error.code, "execution");
      assert.match(error.message, /its result cannot be represented as JSON \(TypeError: /);
    });
  }
});

Deno.test("a cancelled call stops its process; concurrent calls get their own processes", async () => {
  const pids: number[] = [];
  await withTool("faults.ts", { export: "hangs" }, async (runner) => {
    const controller = new AbortController();
    const run = runner.run("t", {}, {
      signal: controller.signal,
      onProgress: (u) => {
        pids.push(u.progress);
        controller.abort();
      },
    });
    assert.equal((await failure(run)).code, "cancelled");
    const timedOut = await failure(runner.run("t", {}, {
      timeoutMs: 1000,
      onProgress: (u) => pids.push(u.progress),
    }));
    assert.equal(timedOut.code, "timeout");
  });
  assert.equal(pids.length, 2);
  for (const pid of pids) {
    const alive = await Deno.stat(`/proc/${pid}`).then(() => true, () => false);
    assert.equal(alive, false, `process ${pid} outlived its cancelled call`);
  }
  await withTool("chatty.ts", {}, async (runner) => {
    const results = await Promise.all([1, 2, 3].map((a) => runner.run("t", { a })));
    assert.deepEqual(results.map((r) => (r.structured as { args: unknown }).args), [
      { a: 1 },
      { a: 2 },
      { a: 3 },
    ]);
  });
});

Deno.test("a module that does not load fails its call with the reason", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tf-mod-" });
  await Deno.writeTextFile(`${dir}/broken.ts`, "export default function (] {}\n");
  const handler = moduleHandler(new URL(`file://${dir}/broken.ts`), { onLog: () => {} });
  const runner = new Runner();
  runner.addLocalTool({ name: "t", inputSchema: { type: "object" } }, handler);
  const error = await failure(runner.run("t", {}));
  assert.equal(error.code, "execution");
  assert.match(error.message, /the module failed to load: .*SyntaxError/s);
  await handler.close();
  await runner.close();
  await withTool("faults.ts", { export: "nope" }, async (r) => {
    const missing = await failure(r.run("t", {}));
    assert.match(missing.message, /the module has no function export "nope"/);
  });
});

Deno.test("checkModuleTool finds missing, unparsable, unresolvable modules and missing exports", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tf-mod-" });
  await Deno.writeTextFile(`${dir}/broken.ts`, "export default function (] {}\n");
  await Deno.writeTextFile(
    `${dir}/imports.ts`,
    'import "../../cli/gone.ts";\nexport default () => 1;\n',
  );
  await Deno.writeTextFile(
    `${dir}/needs.ts`,
    'const x = Deno.readTextFileSync("/etc/hostname");\nexport default () => x;\n',
  );
  const faults = new URL("faults.ts", FIXTURES).pathname;
  assert.equal((await checkModuleTool(`${dir}/gone.ts`))?.reason, "missing");
  assert.equal((await checkModuleTool(`${dir}/broken.ts`))?.reason, "unparsable");
  assert.equal((await checkModuleTool(`${dir}/imports.ts`))?.reason, "unresolvable");
  assert.equal(await checkModuleTool(faults, { export: "exits" }), undefined);
  const none = await checkModuleTool(faults, { export: "nope" });
  assert.equal(none?.reason, "no_export");
  assert.match(none!.message, /has no export "nope" \(its exports: .*"exits"/);
  const notFn = await checkModuleTool(faults, { export: "notAFunction" });
  assert.match(notFn!.message, /export "notAFunction" is a number, not a function/);
  // Top-level code that needs a permission may work under the tool's grant: not reported.
  assert.equal(await checkModuleTool(`${dir}/needs.ts`), undefined);
});

Deno.test("the output channel splits messages from tool output across any chunking", () => {
  const nonce = "abc123";
  const stream = `hello\n\n${nonce} {"a":1}\npartial\n${nonce} {"b":2}\n${
    nonce.slice(0, 3)
  }x\n\n${nonce} ${"z".repeat(50)}\n\n${nonce} {"c":3}\n`;
  const bytes = new TextEncoder().encode(stream);
  for (const size of [1, 2, 3, 7, bytes.length]) {
    const messages: string[] = [];
    let log = "";
    let overflows = 0;
    const splitter = new ChannelSplitter(nonce, 20, {
      message: (m) => messages.push(m),
      log: (b) => log += new TextDecoder().decode(b),
      overflow: () => overflows++,
    });
    for (let i = 0; i < bytes.length; i += size) splitter.push(bytes.subarray(i, i + size));
    splitter.end();
    assert.deepEqual(messages, ['{"a":1}', '{"b":2}', '{"c":3}'], `chunk size ${size}`);
    assert.equal(log, "hello\npartial\nabcx\n", `chunk size ${size}`);
    assert.equal(overflows, 1);
  }
});
