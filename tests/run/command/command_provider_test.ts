import assert from "node:assert/strict";
import { providerBackend, type Tool } from "../../../model/mod.ts";
import {
  commandProvider,
  type CommandProviderOptions,
  ExecutionError,
  OutputTooLargeError,
  Runner,
} from "../../../run/mod.ts";
import { exited, readPids } from "../_processes.ts";
import { makeTestCerts } from "../_tls.ts";

const deno = Deno.execPath();

function script(code: string, extra: Partial<CommandProviderOptions> = {}): CommandProviderOptions {
  return { id: "cmd", command: deno, args: ["eval", "--no-config", code], ...extra };
}

const tool: Tool = { name: "t", inputSchema: { type: "object" } };

function runnerFor(options: CommandProviderOptions, providerToolId = "t") {
  const runner = new Runner({ providers: [commandProvider(options)] });
  runner.registry.add(tool, providerBackend(options.id, providerToolId));
  return runner;
}

const ECHO = `const input = JSON.parse(await new Response(Deno.stdin.readable).text());
console.log(JSON.stringify({ input, tool: Deno.env.get("TOOLFOUNDATION_TOOL_ID"), argv: Deno.args }));`;

Deno.test("command provider writes JSON args to stdin and parses the JSON stdout", async () => {
  const runner = runnerFor(script(ECHO, { args: ["eval", "--no-config", ECHO, "{toolId}"] }), "wc");
  const result = await runner.run("t", { text: "a b", n: [1, 2] });
  assert.deepEqual(result.structured, {
    input: { text: "a b", n: [1, 2] },
    tool: "wc",
    argv: ["wc"],
  });
  assert.equal(result.backend.kind, "provider");
  await runner.close();
});

Deno.test("command provider turns a non-zero exit into an execution error with the stderr tail", async () => {
  const runner = runnerFor(
    script(`console.error("noise ".repeat(2000) + "THE END"); Deno.exit(3);`, {
      stderrTailBytes: 100,
    }),
  );
  const error = await runner.run("t", {}).catch((e) => e);
  assert.ok(error instanceof ExecutionError);
  assert.equal(error.code, "execution");
  assert.equal(error.details.exitCode, 3);
  assert.match(error.message, /exited with code 3: .*THE END/);
  assert.ok((error.details.stderrTail as string).length <= 100);
  assert.equal(error.backend?.kind, "provider");
  await runner.close();
});

Deno.test("command provider rejects garbage on stdout with an excerpt of it", async () => {
  const runner = runnerFor(script(`console.log("this is <not> json"); console.error("warn: x");`));
  const error = await runner.run("t", {}).catch((e) => e);
  assert.ok(error instanceof ExecutionError);
  assert.match(error.message, /stdout is not JSON: "this is <not> json"; stderr: warn: x/);
  assert.ok(error.cause instanceof SyntaxError);
  await runner.close();
});

Deno.test("command provider rejects empty stdout and output over the size limit", async () => {
  const empty = runnerFor(script(`/* prints nothing */`));
  assert.match((await empty.run("t", {}).catch((e) => e)).message, /printed nothing/);
  await empty.close();
  const big = runnerFor(script(`console.log(JSON.stringify("x".repeat(5000)))`, {
    maxOutputBytes: 1000,
  }));
  const error = await big.run("t", {}).catch((e) => e);
  assert.ok(error instanceof OutputTooLargeError);
  assert.equal(error.code, "output_too_large");
  assert.match(error.message, /larger than 1000 bytes/);
  await big.close();
});

Deno.test("command provider kills a hanging process on timeout", async () => {
  const pidFile = await Deno.makeTempFile();
  const runner = runnerFor(
    script(
      `Deno.writeTextFileSync(${
        JSON.stringify(pidFile)
      }, String(Deno.pid)); setInterval(() => {}, 1000);`,
    ),
  );
  // Long enough for the child to start and write its pid on a loaded machine.
  const error = await runner.run("t", {}, { timeoutMs: 4000 }).catch((e) => e);
  assert.equal(error.code, "timeout");
  await runner.close(); // waits for the killed process to be reaped
  const pid = Number(await Deno.readTextFile(pidFile));
  assert.ok(pid > 0);
  assert.equal(await exited(pid), true, "the process is gone");
  await Deno.remove(pidFile);
});

Deno.test("command provider kills the process when the run is cancelled", async () => {
  const runner = runnerFor(script(`setInterval(() => {}, 1000);`));
  const controller = new AbortController();
  const pending = runner.run("t", {}, { signal: controller.signal });
  setTimeout(() => controller.abort(), 100);
  assert.equal((await pending.catch((e) => e)).code, "cancelled");
  await runner.close();
});

Deno.test("command provider reports a missing program as an execution error", async () => {
  const runner = runnerFor({ id: "cmd", command: "/nonexistent/program-xyz" });
  const error = await runner.run("t", {}).catch((e) => e);
  assert.equal(error.code, "execution");
  assert.match(error.message, /cannot start "\/nonexistent\/program-xyz": not found/);
  const bare = runnerFor({ id: "cmd", command: "no-such-program-xyz" });
  const bareError = await bare.run("t", {}).catch((e) => e);
  assert.match(bareError.message, /"no-such-program-xyz": not found \(searched the PATH it gets: /);
});

function sh(code: string, extra: Partial<CommandProviderOptions> = {}): CommandProviderOptions {
  return { id: "cmd", command: "sh", args: ["-c", code], ...extra };
}

const ENV_DUMP = `console.log(JSON.stringify(Deno.env.toObject()));`;

Deno.test("command provider hides the parent's variables unless inheritEnv lists them", async () => {
  Deno.env.set("TF_CMD_TEST_SECRET", "s3cret");
  const hadCa = Deno.env.get("NODE_EXTRA_CA_CERTS");
  if (hadCa === undefined) {
    Deno.env.set("NODE_EXTRA_CA_CERTS", "/etc/ssl/certs/ca-certificates.crt");
  }
  try {
    const plain = runnerFor(script(ENV_DUMP, { env: { MODE: "x" } }), "echo");
    const env = (await plain.run("t", {})).structured as Record<string, string>;
    assert.equal("TF_CMD_TEST_SECRET" in env, false, "a secret is not passed by default");
    assert.equal(env.NODE_EXTRA_CA_CERTS, Deno.env.get("NODE_EXTRA_CA_CERTS"));
    assert.equal(env.PATH, Deno.env.get("PATH"));
    assert.equal(env.MODE, "x");
    assert.equal(env.TOOLFOUNDATION_TOOL_ID, "echo");
    await plain.close();

    const listed = runnerFor(script(ENV_DUMP, { inheritEnv: ["TF_CMD_TEST_SECRET"] }));
    const got = (await listed.run("t", {})).structured as Record<string, string>;
    assert.equal(got.TF_CMD_TEST_SECRET, "s3cret");
    await listed.close();

    const all = runnerFor(script(ENV_DUMP, { inheritEnv: "all" }));
    const everything = (await all.run("t", {})).structured as Record<string, string>;
    assert.equal(everything.TF_CMD_TEST_SECRET, "s3cret");
    await all.close();
  } finally {
    Deno.env.delete("TF_CMD_TEST_SECRET");
    if (hadCa === undefined) Deno.env.delete("NODE_EXTRA_CA_CERTS");
  }
});

Deno.test("command provider takes the result when the program exits, though a grandchild holds stdout", async () => {
  const pidFile = await Deno.makeTempFile();
  const runner = runnerFor(sh(`sleep 30 & echo $! > ${pidFile}; echo '{"ok":true}'`));
  try {
    const started = performance.now();
    const result = await runner.run("t", {}, { timeoutMs: 20_000 });
    assert.deepEqual(result.structured, { ok: true });
    assert.ok(performance.now() - started < 15_000, "the result did not wait for the sleep");
    const [sleeper] = await readPids(pidFile, 1);
    assert.equal(await exited(sleeper), true, "the background sleep was stopped");
  } finally {
    await runner.close();
    await Deno.remove(pidFile);
  }
});

for (const how of ["timeout", "cancel", "close"] as const) {
  Deno.test(`command provider stops the whole process group on ${how}, SIGTERM-proof ones too`, async () => {
    const pidFile = await Deno.makeTempFile();
    // The shell ignores SIGTERM (and so does the sleep it forks): only SIGKILL ends them.
    const runner = runnerFor(
      sh(`trap "" TERM; echo $$ > ${pidFile}; sleep 30 & echo $! >> ${pidFile}; wait`, {
        killGraceMs: 300,
      }),
    );
    try {
      const controller = new AbortController();
      const pending = runner.run("t", {}, {
        timeoutMs: how === "timeout" ? 500 : 60_000,
        signal: controller.signal,
      }).catch((e) => e);
      const pids = await readPids(pidFile, 2);
      if (how === "cancel") controller.abort();
      if (how === "close") await runner.close();
      const error = await pending;
      const expected = { timeout: "timeout", cancel: "cancelled", close: "execution" }[how];
      assert.equal(error.code, expected);
      if (how === "close") assert.match(error.message, /the runner was closed/);
      await runner.close(); // waits for abandoned calls to settle
      for (const pid of pids) assert.equal(await exited(pid), true, `process ${pid} is gone`);
    } finally {
      await Deno.remove(pidFile);
    }
  });
}

Deno.test("command provider stops a program printing 200 MB at the output cap, memory staying low", async () => {
  const runner = runnerFor(sh(`head -c 209715200 /dev/zero`)); // default cap: 10 MiB
  const before = Deno.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => peak = Math.max(peak, Deno.memoryUsage().rss), 10);
  try {
    const error = await runner.run("t", {}, { timeoutMs: 60_000 }).catch((e) => e);
    assert.ok(error instanceof OutputTooLargeError, String(error));
    assert.equal(error.code, "output_too_large");
    assert.equal(error.limitBytes, 10 * 1024 * 1024);
    peak = Math.max(peak, Deno.memoryUsage().rss);
    assert.ok(peak - before < 100 * 1024 * 1024, `rss grew by ${(peak - before) >> 20} MiB`);
  } finally {
    clearInterval(sampler);
    await runner.close();
  }
});

Deno.test("command provider names a variable the program did not get and how to pass it", async () => {
  Deno.env.set("TF_CMD_TEST_TOKEN", "t0ken");
  try {
    const failing = runnerFor(sh(`echo "error: TF_CMD_TEST_TOKEN is not set" >&2; exit 1`));
    const error = await failing.run("t", {}).catch((e) => e);
    assert.ok(error instanceof ExecutionError);
    assert.equal(error.details.exitCode, 1);
    assert.match(error.message, /exited with code 1: error: TF_CMD_TEST_TOKEN is not set/);
    assert.match(error.message, /hint: TF_CMD_TEST_TOKEN is set here but not passed/);
    assert.match(error.message, /add "TF_CMD_TEST_TOKEN" to the provider's inheritEnv/);
    assert.deepEqual(error.details.missingEnv, ["TF_CMD_TEST_TOKEN"]);
    await failing.close();

    const fixed = runnerFor(
      sh(`test -n "$TF_CMD_TEST_TOKEN" && echo '{"ok":1}'`, { inheritEnv: ["TF_CMD_TEST_TOKEN"] }),
    );
    assert.deepEqual((await fixed.run("t", {})).structured, { ok: 1 });
    await fixed.close();
  } finally {
    Deno.env.delete("TF_CMD_TEST_TOKEN");
  }
  const unset = runnerFor(sh(`set -u; echo "$TF_CMD_NOWHERE"`));
  const error = await unset.run("t", {}).catch((e) => e);
  assert.match(error.message, /hint: the command needs TF_CMD_NOWHERE, which is not set/);
  assert.deepEqual(error.details.missingEnv, ["TF_CMD_NOWHERE"]);
  await unset.close();
});

Deno.test("command provider names the CA variables when a certificate cannot be verified", async () => {
  Deno.env.set("REQUESTS_CA_BUNDLE", "/etc/corp-ca.pem");
  try {
    const runner = runnerFor(
      sh(`echo "error sending request: invalid peer certificate: UnknownIssuer" >&2; exit 1`, {
        env: { NODE_EXTRA_CA_CERTS: "/etc/corp-ca.pem" },
      }),
    );
    const error = await runner.run("t", {}).catch((e) => e);
    assert.match(error.message, /hint: a TLS certificate could not be verified \(UnknownIssuer\)/);
    assert.match(error.message, /the command got NODE_EXTRA_CA_CERTS/);
    assert.match(
      error.message,
      /REQUESTS_CA_BUNDLE(, [A-Z_]+)*( and [A-Z_]+)? (is|are) set here but not passed/,
    );
    assert.ok((error.details.missingEnv as string[]).includes("REQUESTS_CA_BUNDLE"));
    await runner.close();
  } finally {
    Deno.env.delete("REQUESTS_CA_BUNDLE");
  }
});

Deno.test("command provider reports arguments JSON cannot hold as a clear error", async () => {
  const provider = commandProvider(script(ECHO));
  const ctx = { toolId: "t", signal: new AbortController().signal, progress: () => {} };
  const big = await Promise.resolve(provider.call({ toolId: "t", args: { n: 10n }, tool }, ctx))
    .catch((e) => e);
  assert.ok(big instanceof ExecutionError);
  assert.match(big.message, /the arguments cannot be written as JSON: \$\.n is a BigInt/);
  assert.ok(big.cause instanceof TypeError);
  const cyclic: Record<string, unknown> = { a: [1] };
  (cyclic.a as unknown[]).push(cyclic);
  const cycle = await Promise.resolve(provider.call({ toolId: "t", args: cyclic, tool }, ctx))
    .catch((e) => e);
  assert.ok(cycle instanceof ExecutionError);
  assert.match(cycle.message, /\$\.a\[1\] refers back to an enclosing value \(a cycle\)/);
});

Deno.test("command provider failing TLS says which CA variables it got; DENO_CERT in env fixes it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const certs = await makeTestCerts(dir);
    if (certs === undefined) return; // no openssl: nothing to check here
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {}, cert: certs.cert, key: certs.key },
      () => Response.json({ ok: true }),
    );
    try {
      const fetcher = `console.log(JSON.stringify(await (await fetch(
        "https://127.0.0.1:${server.addr.port}/")).json()));`;
      const untrusted = runnerFor(script(fetcher));
      const error = await untrusted.run("t", {}).catch((e) => e);
      assert.ok(error instanceof ExecutionError);
      assert.match(error.message, /exited with code 1: .*UnknownIssuer/s);
      assert.match(
        error.message,
        /hint: a TLS certificate could not be verified \(UnknownIssuer\)/,
      );
      assert.equal(error.message.includes("\x1b["), false, "no terminal escapes");
      assert.equal(error.details.hints !== undefined, true);
      await untrusted.close();
      const trusted = runnerFor(script(fetcher, { env: { DENO_CERT: certs.caFile } }));
      assert.deepEqual((await trusted.run("t", {})).structured, { ok: true });
      await trusted.close();
    } finally {
      await server.shutdown();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("command provider redacts stderr before cutting its tail, so no piece of a secret shows", async () => {
  // The last 1,000 characters of stderr start inside the secret.
  const script = `console.error("S3CRET-TOKEN-VALUE" + "y".repeat(995)); Deno.exit(1);`;
  const make = (redact?: (text: string) => string) => {
    const runner = new Runner({
      providers: [commandProvider({
        id: "p",
        command: Deno.execPath(),
        args: ["eval", script],
        ...(redact === undefined ? {} : { redact }),
      })],
    });
    runner.registry.add({ name: "t", inputSchema: { type: "object" } }, providerBackend("p", "t"));
    return runner;
  };
  const plain = make();
  const cut = await plain.run("t", {}).catch((e) => e);
  assert.match(cut.message, /VALUE/, "without redact the tail cuts the secret");
  await plain.close();
  const runner = make((text) => text.replaceAll("S3CRET-TOKEN-VALUE", "***"));
  const error = await runner.run("t", {}).catch((e) => e);
  assert.ok(error instanceof ExecutionError, String(error));
  assert.doesNotMatch(error.message, /S3CRET|TOKEN|VALUE/);
  assert.doesNotMatch(String(error.details.stderrTail), /S3CRET/);
  await runner.close();
});
