// The conventions of a command line, through the CLI as a subprocess:
// --version, --quiet, --verbose, warnings summarised by kind (--warnings json),
// validate --json, progress while servers connect (a live line on a terminal,
// nothing off one unless --verbose), and servers connected at the same time.
import assert from "node:assert/strict";
import { cli, flagsFor, readFlags, ROOT, tempManifest } from "./_cli.ts";

const denoJson = JSON.parse(await Deno.readTextFile(`${ROOT}/deno.json`)) as { version: string };
const DENO = Deno.execPath();
const FAKE = new URL("../fixtures/run/mcp_fake_server.ts", import.meta.url).pathname;
const EXAMPLES = "examples/tools.yaml";
/** The example manifest's commands need to read it (and its module tools' folder). */
const EX = { flags: ["--allow-read=examples"] };

Deno.test("--version and -V print the version of deno.json and exit 0", async () => {
  for (const flag of ["--version", "-V"]) {
    const out = await cli([flag]);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout, `toolfoundation ${denoJson.version}\n`);
    assert.equal(out.stderr, "");
  }
});

Deno.test("--quiet and --verbose together, or --warnings with another value, are usage errors (exit 2)", async () => {
  const both = await cli(["list", EXAMPLES, "--quiet", "--verbose"]);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /give --quiet or --verbose, not both/);
  const xml = await cli(["list", EXAMPLES, "--warnings", "xml"]);
  assert.equal(xml.code, 2);
  assert.match(xml.stderr, /--warnings must be text or json, got "xml"/);
  const none = await cli(["list", EXAMPLES, "--warnings"]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /--warnings must be text or json, got nothing/);
});

Deno.test("an argument after -- that looks like --quiet stays the command's positional", async () => {
  // `run` takes exactly <manifest> <toolId>: a third positional is refused by name.
  const out = await cli(["run", EXAMPLES, "math:calculate", "--", "--quiet"]);
  assert.equal(out.code, 2);
  assert.match(out.stderr, /unexpected argument "--quiet"/);
});

Deno.test("convert summarises its feature-loss warnings by kind with counts; --verbose lists each", async () => {
  const args = ["convert", EXAMPLES, "--to", "openai", "--strict"];
  const json = await cli([...args, "--warnings", "json"], EX);
  assert.equal(json.code, 0, json.stderr);
  const lines = json.stderr.trim().split("\n").map((l) => JSON.parse(l));
  assert.ok(lines.length > 10, `expected many warnings, got ${lines.length}`);
  for (const w of lines) {
    assert.equal(typeof w.warning, "string");
    assert.equal(w.warning, `${w.feature} ${w.action}`);
    assert.match(w.path, /^\//);
    assert.equal(w.to, "openai");
    assert.equal(typeof w.reason, "string");
    assert.match(w.message, new RegExp(`^${w.tool}: ${w.path}: `));
  }
  const counts = new Map<string, number>();
  for (const w of lines) counts.set(w.warning, (counts.get(w.warning) ?? 0) + 1);

  const summary = await cli(args, EX);
  assert.equal(summary.code, 0, summary.stderr);
  assert.equal(summary.stdout, json.stdout, "the converted tools do not depend on the warnings");
  const stderr = summary.stderr.trim().split("\n");
  assert.equal(stderr.length, 1, summary.stderr);
  assert.match(stderr[0], new RegExp(`^warning: ${lines.length} warnings: `));
  for (const [kind, n] of counts) assert.ok(stderr[0].includes(`${n} × ${kind}`), kind);
  assert.match(stderr[0], /--verbose lists each; --warnings json writes them as JSON lines/);

  const verbose = await cli([...args, "--verbose"], EX);
  assert.equal(verbose.code, 0, verbose.stderr);
  const each = verbose.stderr.trim().split("\n");
  assert.deepEqual(each, lines.map((w) => `warning: ${w.message}`));

  const quiet = await cli([...args, "--quiet"], EX);
  assert.equal(quiet.code, 0, quiet.stderr);
  assert.equal(quiet.stderr, "");
  assert.equal(quiet.stdout, json.stdout);
});

Deno.test("a few warnings are printed in full without --verbose", async () => {
  const manifest = await tempManifest(
    "version: 1\ntools:\n  - { name: calc, builtin: calculate }\n",
  );
  const out = await cli(["convert", manifest, "--to", "gemini"], { flags: readFlags(manifest) });
  assert.equal(out.code, 0, out.stderr);
  const lines = out.stderr.trim().split("\n");
  assert.ok(lines.length >= 1 && lines.length <= 3, out.stderr);
  for (const line of lines) {
    assert.match(line, /^warning: calc: \/\S*: \S+ (dropped|rewritten|moved-to-description) \(/);
  }
});

Deno.test("--quiet leaves only results and errors: permissions prints its command lines, no reasons", async () => {
  const loud = await cli(["permissions", EXAMPLES], EX);
  assert.equal(loud.code, 0, loud.stderr);
  assert.match(loud.stderr, /--allow-read=.*: the manifest/);
  const quiet = await cli(["permissions", EXAMPLES, "--quiet"], EX);
  assert.equal(quiet.code, 0, quiet.stderr);
  assert.equal(quiet.stderr, "");
  assert.equal(quiet.stdout, loud.stdout);
  const validate = await cli(["validate", EXAMPLES, "-q"], EX);
  assert.equal(validate.code, 0, validate.stderr);
  assert.equal(validate.stderr, "", "no ok line under --quiet");
  // Errors stay.
  const missing = await cli(["run", EXAMPLES, "nope", "--quiet"], EX);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /error: unknown tool "nope"/);
});

Deno.test("validate --json prints the verdict on stdout: valid, a failed preflight (exit 1), an invalid manifest (exit 2)", async () => {
  const ok = await cli(["validate", EXAMPLES, "--json", "--target", "anthropic"], EX);
  assert.equal(ok.code, 0, ok.stderr);
  const verdict = JSON.parse(ok.stdout);
  assert.equal(verdict.valid, true);
  assert.equal(verdict.target, "anthropic");
  assert.deepEqual(verdict.problems, []);
  assert.equal(typeof verdict.tools, "number");
  assert.equal(typeof verdict.chains, "number");
  assert.doesNotMatch(ok.stderr, /^ok:/m, "the verdict is not repeated on stderr");

  const values = Array.from({ length: 1001 }, (_, i) => `v${i}`);
  const big = await tempManifest(
    [
      "version: 1",
      "providers:",
      "  echo: { command: cat }",
      "tools:",
      "  - name: pick",
      "    provider: echo",
      `    inputSchema: ${
        JSON.stringify({
          type: "object",
          properties: { v: { type: "string", enum: values } },
          required: ["v"],
          additionalProperties: false,
        })
      }`,
    ].join("\n"),
  );
  const rejected = await cli(["validate", big, "--json", "--target", "openai", "--strict"], {
    flags: readFlags(big),
  });
  assert.equal(rejected.code, 1, rejected.stderr);
  const no = JSON.parse(rejected.stdout);
  assert.equal(no.valid, false);
  assert.equal(no.problems.length, 1, rejected.stdout);
  assert.equal(no.problems[0].tool, "pick");
  assert.match(no.problems[0].message, /openai would reject .*the number of enum values is 1001/);
  assert.doesNotMatch(rejected.stderr, /^error:/m);

  const broken = await tempManifest("version: 1\ntools:\n  - { name: x, builtin: nope }\n");
  const invalid = await cli(["validate", broken, "--json"], { flags: readFlags(broken) });
  assert.equal(invalid.code, 2, invalid.stderr);
  const bad = JSON.parse(invalid.stdout);
  assert.equal(bad.valid, false);
  assert.equal(bad.problems.length, 1);
  assert.deepEqual(
    { line: bad.problems[0].line, pointer: bad.problems[0].pointer, file: bad.problems[0].file },
    { line: 3, pointer: "/tools/0/builtin", file: broken },
  );
  assert.match(bad.problems[0].message, /unknown built-in "nope"/);
});

/** A manifest of `n` fake servers that each wait `delayMs` before answering initialize. */
async function slowServers(n: number, delayMs: number): Promise<string> {
  const lines = ["version: 1", "servers:"];
  for (const name of ["alpha", "beta", "gamma", "delta"].slice(0, n)) {
    lines.push(
      `  ${name}:`,
      `    command: ${JSON.stringify(DENO)}`,
      `    args: [run, -A, --no-config, ${JSON.stringify(FAKE)}, normal, init-delay=${delayMs}]`,
    );
  }
  return await tempManifest(lines.join("\n"));
}

Deno.test("list connects to three slow servers at once: about as long as the slowest, not the sum", async () => {
  const delayMs = 2500;
  const manifest = await slowServers(3, delayMs);
  const flags = await flagsFor(manifest);
  const out = await cli(["list", manifest, "--verbose"], { flags });
  assert.equal(out.code, 0, out.stderr);
  const listed = JSON.parse(out.stdout) as { servers: { name: string; status: string }[] };
  assert.deepEqual(
    listed.servers.map((s) => [s.name, s.status]),
    [["alpha", "ok"], ["beta", "ok"], ["gamma", "ok"]],
    "reports stay in the manifest's order",
  );
  // Every server starts before any finishes (one after another: connect, list, connect...).
  const events = out.stderr.split("\n").filter((l) => l.startsWith("progress: "));
  assert.equal(events.length, 6, out.stderr);
  assert.deepEqual(
    events.slice(0, 3).map((l) => l.replace(/^progress: server (\w+): .*$/, "$1")).sort(),
    ["alpha", "beta", "gamma"],
  );
  for (const l of events.slice(0, 3)) assert.match(l, /connecting and listing its tools$/);
  for (const l of events.slice(3)) assert.match(l, /: 8 tool\(s\) listed in \d+\.\d s$/);
  // One after another it would take at least 3 × 2.5 s.
  assert.ok(out.ms < 3 * delayMs, `list took ${Math.round(out.ms)} ms`);
});

Deno.test("lock connects to its servers at once too, and the first failure stops the others", async () => {
  const delayMs = 8000;
  const manifest = await slowServers(2, delayMs);
  const text = await Deno.readTextFile(manifest);
  // A third server that exits at start: lock fails on it at once, naming it,
  // without waiting for the two slow ones.
  await Deno.writeTextFile(
    manifest,
    `${text}\n  broken:\n    command: ${JSON.stringify(DENO)}\n` +
      `    args: [run, -A, --no-config, ${JSON.stringify(FAKE)}, exit-var]\n`,
  );
  const flags = [...await flagsFor(manifest), `--allow-write=${manifest}.lock`];
  const out = await cli(["lock", manifest, "--verbose"], { flags });
  assert.equal(out.code, 1, out.stderr);
  assert.match(out.stderr, /error: \[server_unavailable\] server "broken" cannot be used/);
  const events = out.stderr.split("\n").filter((l) => l.startsWith("progress: "));
  assert.deepEqual(
    events.slice(0, 3).map((l) => l.replace(/^progress: server (\w+): .*$/, "$1")).sort(),
    ["alpha", "beta", "broken"],
  );
  assert.ok(out.ms < delayMs, `lock took ${Math.round(out.ms)} ms: it waited for the slow servers`);
  await assert.rejects(Deno.stat(`${manifest}.lock`), Deno.errors.NotFound);
  const good = await slowServers(3, 2500);
  const locked = await cli(["lock", good], {
    flags: [...await flagsFor(good), `--allow-write=${good}.lock`],
  });
  assert.equal(locked.code, 0, locked.stderr);
  // One after another it would take at least 3 × 2.5 s.
  assert.ok(locked.ms < 3 * 2500, `lock took ${Math.round(locked.ms)} ms`);
  const lock = JSON.parse(await Deno.readTextFile(`${good}.lock`));
  assert.deepEqual(Object.keys(lock.servers), ["alpha", "beta", "gamma"]);
});

Deno.test("off a terminal, list writes no progress unless --verbose", async () => {
  const manifest = await slowServers(2, 200);
  const flags = await flagsFor(manifest);
  const out = await cli(["list", manifest], { flags });
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stderr, "");
});

/** Runs the CLI under a pseudo-terminal (`script`), stdout and stderr together. */
async function underPty(args: string[], flags: string[]): Promise<string> {
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  // --no-prompt: on a terminal Deno would ask for a missing permission and wait.
  const command = [DENO, "run", "--quiet", "--no-prompt", ...flags, "cli.ts", ...args].map(quote)
    .join(" ");
  const out = await new Deno.Command("script", {
    args: ["-qec", command, "/dev/null"],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, text + new TextDecoder().decode(out.stderr));
  return text;
}

Deno.test("on a terminal, list shows one live progress line while servers connect, then clears it", async () => {
  const manifest = await slowServers(3, 1000);
  const flags = await flagsFor(manifest);
  // ESC [2K (erase the line) written as E, for readable patterns.
  const text = (await underPty(["list", manifest], flags)).replaceAll("\x1b[2K", "E");
  assert.match(
    text,
    /\rEservers: 0\/3 listed; waiting for alpha, beta, gamma \(\d+\.\d s\)/,
  );
  assert.match(text, /\rEservers: 3\/3 listed \(\d+\.\d s\)\rE\{/);
  // The line is rewritten in place: no newline inside the progress.
  const progress = text.slice(text.indexOf("\rEservers:"), text.lastIndexOf("\rE"));
  assert.doesNotMatch(progress, /\n/);
  assert.match(text, /"name": "gamma"/);
  const quiet = await underPty(["list", manifest, "--quiet"], flags);
  assert.doesNotMatch(quiet, /servers: /);
});
