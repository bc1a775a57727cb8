import assert from "node:assert/strict";
import { providerBackend, type Tool } from "../../model/mod.ts";
import {
  commandProvider,
  type CommandProviderOptions,
  ExecutionError,
  Runner,
} from "../../run/mod.ts";

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
  assert.match((await big.run("t", {}).catch((e) => e)).message, /exceeds 1000 bytes/);
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
  const started = performance.now();
  const error = await runner.run("t", {}, { timeoutMs: 500 }).catch((e) => e);
  assert.equal(error.code, "timeout");
  assert.ok(performance.now() - started < 1500);
  await runner.close(); // waits for the killed process to be reaped
  const pid = Number(await Deno.readTextFile(pidFile));
  assert.ok(pid > 0);
  const alive = await Deno.stat(`/proc/${pid}`).then(() => true, () => false);
  assert.equal(alive, false, "the process is gone");
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
  assert.match(error.message, /not found/);
});
