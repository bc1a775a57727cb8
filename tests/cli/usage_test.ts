// Usage of the CLI as a subprocess: option ranges, help, the command lines
// `permissions` prints, lookups by user-supplied names, closed pipes, colour.
import assert from "node:assert/strict";
import { cli, flagsFor, readFlags, ROOT, tempManifest } from "./_cli.ts";

const EXAMPLE = ["--allow-read=examples"];
const CALC = ["run", "examples/tools.yaml", "math:calculate", "--args"];
const ADD = '{"operation":"add","a":1,"b":2}';

Deno.test("--timeout out of range (negative, not a number, beyond 2^31-1 ms) is a usage error, exit 2", async () => {
  for (const value of ["-5", "abc", "1.5", "0", "2147483648", "1e3", "", "Infinity", "NaN"]) {
    for (const form of [["--timeout", value], [`--timeout=${value}`]]) {
      const out = await cli([...CALC, ADD, ...form], { flags: EXAMPLE });
      assert.equal(out.code, 2, `${form.join(" ")}: ${out.stderr}`);
      assert.equal(out.stdout, "");
    }
  }
  const chain = await cli(["chain", "examples/tools.yaml", "pointer", "--timeout=99999999999"], {
    flags: EXAMPLE,
  });
  assert.equal(chain.code, 2);
  assert.match(chain.stderr, /--timeout must be whole milliseconds from 1 to 2147483647/);
  const ok = await cli([...CALC, ADD, "--timeout", "2147483647"], { flags: EXAMPLE });
  assert.equal(ok.code, 0, ok.stderr);
});

Deno.test("`help run` prints run's help; `help` of an unknown command exits 2", async () => {
  const help = await cli(["help", "run"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: toolfoundation run <manifest> <toolId>/);
  const chain = await cli(["help", "chain"]);
  assert.match(chain.stdout, /^Usage: toolfoundation chain/);
  for (const name of ["nope", "constructor", "__proto__", "toString"]) {
    const bad = await cli(["help", name]);
    assert.equal(bad.code, 2, name);
    assert.match(bad.stderr, /no help for/);
  }
});

Deno.test("a command named like an Object.prototype property is an unknown command", async () => {
  for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
    const out = await cli([name, "examples/tools.yaml"]);
    assert.equal(out.code, 2, name);
    assert.match(out.stderr, /unknown command/);
  }
});

Deno.test("permissions prints complete command lines that run as printed", async () => {
  const tool = await cli(["permissions", "examples/tools.yaml", "math:calculate"], {
    flags: EXAMPLE,
  });
  assert.equal(tool.code, 0, tool.stderr);
  const [run, compile] = tool.stdout.trim().split("\n");
  assert.equal(
    run,
    "deno run --allow-read=examples/tools.yaml cli.ts " +
      "run examples/tools.yaml math:calculate",
  );
  assert.equal(
    compile,
    "deno compile --allow-read=examples/tools.yaml " +
      "--include=cli/_generated/cli/externals.ts --exclude-unused-npm cli.ts",
  );
  // The printed line, as printed (plus the arguments), runs the tool.
  const words = run.split(" ");
  const out = await new Deno.Command(Deno.execPath(), {
    args: [...words.slice(1, 2), "--quiet", ...words.slice(2), "--args", ADD],
    cwd: ROOT,
    stdin: "null",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.deepEqual(JSON.parse(new TextDecoder().decode(out.stdout)), { result: 3 });

  const chain = await cli(["permissions", "examples/tools.yaml", "area-report"], {
    flags: EXAMPLE,
  });
  assert.match(chain.stdout, /cli\.ts chain examples\/tools\.yaml area-report\n/);
  const all = await cli(["permissions", "examples/tools.yaml"], { flags: EXAMPLE });
  assert.match(all.stdout, /cli\.ts run examples\/tools\.yaml '<toolId>'\n/);
});

Deno.test("names looked up in the manifest see own entries only (__proto__, constructor, toString)", async () => {
  const noChains = await tempManifest(
    "version: 1\ntools:\n  - { name: calc, builtin: calculate }\n",
  );
  const withChains = await tempManifest(
    "version: 1\ntools:\n  - { name: calc, builtin: calculate }\nchains:\n  real:\n    steps: [{ tool: calc, args: { operation: add, a: 1, b: 2 } }]\n",
  );
  for (const name of ["__proto__", "constructor", "toString", "valueOf", "hasOwnProperty"]) {
    for (const manifest of [noChains, withChains]) {
      const chain = await cli(["chain", manifest, name], { flags: readFlags(manifest) });
      assert.equal(chain.code, 2, `chain ${name}: ${chain.stderr}`);
      assert.match(chain.stderr, new RegExp(`no chain named ${JSON.stringify(name)}`));
      assert.doesNotMatch(chain.stderr, /Cannot read properties/);
      const run = await cli(["run", manifest, name, "--args", "{}"], {
        flags: readFlags(manifest),
      });
      assert.equal(run.code, 2, `run ${name}`);
      assert.match(run.stderr, /unknown tool/);
      const perms = await cli(["permissions", manifest, name], { flags: readFlags(manifest) });
      assert.equal(perms.code, 2, `permissions ${name}`);
      assert.match(perms.stderr, /is neither a tool nor a chain/);
    }
    const target = await cli(["validate", noChains, "--target", name], {
      flags: readFlags(noChains),
    });
    assert.equal(target.code, 2);
    const convert = await cli(["convert", noChains, "--to", name], {
      flags: readFlags(noChains),
    });
    assert.equal(convert.code, 2);
  }
});

Deno.test("`builtin: toString` (constructor, valueOf, __proto__) fails validate at its line, exit 2", async () => {
  for (const name of ["toString", "constructor", "valueOf", "__proto__", "hasOwnProperty"]) {
    const manifest = await tempManifest(
      `version: 1\ntools:\n  - name: t\n    builtin: ${JSON.stringify(name)}\n`,
    );
    const out = await cli(["validate", manifest], { flags: readFlags(manifest) });
    assert.equal(out.code, 2, `${name}: ${out.stderr}`);
    assert.match(
      out.stderr,
      new RegExp(`tools.yaml:4:14: /tools/0/builtin: unknown built-in ${JSON.stringify(name)}`),
    );
  }
});

Deno.test("servers, providers and chains named __proto__ or constructor are ordinary names", async () => {
  const manifest = await tempManifest(
    [
      "version: 1",
      "providers:",
      "  constructor: { command: sh, args: ['-c', 'cat'] }",
      "tools:",
      "  - { name: echo, provider: constructor, inputSchema: { type: object } }",
      "chains:",
      "  __proto__:",
      "    steps: [{ tool: echo, args: { a: 1 } }]",
    ].join("\n"),
  );
  const flags = await flagsFor(manifest, "__proto__");
  assert.ok(flags.includes("--allow-run=kill,sh"), flags.join(" "));
  const out = await cli(["chain", manifest, "__proto__"], { flags });
  assert.equal(out.code, 0, out.stderr);
  assert.deepEqual(JSON.parse(out.stdout).result, { a: 1 });
});

Deno.test("writing into a closed pipe (`| head`) ends quietly", async () => {
  // A result far larger than a pipe's buffer, and a reader that goes away at once.
  const big = JSON.stringify({ value: { text: "x".repeat(1_000_000) } });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...EXAMPLE, "cli.ts", "run", "examples/tools.yaml", "json:format"],
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  await child.stdout.cancel(); // like `| head` exiting before we write
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(big));
  await writer.close();
  const status = await child.status;
  const stderr = new TextDecoder().decode(
    new Uint8Array(await new Response(child.stderr).arrayBuffer()),
  );
  assert.equal(stderr, "", "nothing about the pipe on stderr");
  assert.equal(status.code, 0);
});

Deno.test("no ANSI escape on stderr when it is not a terminal, NO_COLOR or not", async () => {
  // Everything but NO_COLOR (the helper sets it): Deno's cache and CA settings stay.
  const env = Object.fromEntries(
    Object.entries(Deno.env.toObject()).filter(([k]) => k !== "NO_COLOR"),
  );
  for (const args of [[...CALC, '{"operation":"divide","a":1,"b":0}'], ["validate", "nope.yaml"]]) {
    const child = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", ...EXAMPLE, "--allow-read=nope.yaml", "cli.ts", ...args],
      cwd: ROOT,
      clearEnv: true,
      env, // no NO_COLOR
      stdin: "null",
    }).output();
    const stderr = new TextDecoder().decode(child.stderr);
    assert.notEqual(child.code, 0);
    assert.match(stderr, /error/);
    assert.ok(!stderr.includes("\x1b"), JSON.stringify(stderr));
  }
});

Deno.test("servers and providers named like Object.prototype properties must be defined", async () => {
  for (const name of ["toString", "constructor", "__proto__", "valueOf"]) {
    for (const kind of ["server", "provider"]) {
      const manifest = await tempManifest(
        `version: 1\ntools:\n  - { name: t, ${kind}: ${
          JSON.stringify(name)
        }, inputSchema: { type: object } }\n`,
      );
      const out = await cli(["validate", manifest], { flags: readFlags(manifest) });
      assert.equal(out.code, 2, `${kind} ${name}: ${out.stderr}`);
      assert.match(
        out.stderr,
        new RegExp(
          `tools\\.yaml:3:\\d+: /tools/0/${kind}: unknown ${kind} ${JSON.stringify(name)}`,
        ),
      );
    }
  }
});
