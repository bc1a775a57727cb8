// Shell completions: scripts that parse (bash -n, zsh -n, fish -n), complete
// every command and its flags, and a table of commands and flags that cannot
// drift from the help texts and the parsers.
import assert from "node:assert/strict";
import { cli } from "./_cli.ts";
import { COMMAND_SPECS, GLOBAL_FLAGS } from "../../cli/_flags.ts";
import { HELP, USAGE } from "../../cli/_help.ts";
import { main } from "../../cli/main.ts";

async function installed(shell: string): Promise<boolean> {
  try {
    const out = await new Deno.Command(shell, {
      args: ["-c", "exit 0"],
      stdout: "null",
      stderr: "null",
    })
      .output();
    return out.success;
  } catch {
    return false;
  }
}

/** Runs `shell` on `script` (a file), `-n` only checks the syntax. */
async function shell(name: string, args: string[]): Promise<{ ok: boolean; out: string }> {
  const out = await new Deno.Command(name, { args, stdout: "piped", stderr: "piped" }).output();
  const dec = new TextDecoder();
  return { ok: out.success, out: dec.decode(out.stdout) + dec.decode(out.stderr) };
}

async function script(which: string): Promise<string> {
  const out = await cli(["completions", which]);
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stderr, "");
  const file = await Deno.makeTempFile({ suffix: `.${which}` });
  await Deno.writeTextFile(file, out.stdout);
  return file;
}

Deno.test("completions bash is valid bash and completes commands, flags and their choices", async () => {
  const file = await script("bash");
  const text = await Deno.readTextFile(file);
  for (const c of COMMAND_SPECS) assert.match(text, new RegExp(`\\b${c.name}\\b`), c.name);
  const syntax = await shell("bash", ["-n", file]);
  assert.ok(syntax.ok, syntax.out);
  const complete = async (...words: string[]) => {
    const run = await shell("bash", [
      "-c",
      `source ${JSON.stringify(file)}; COMP_WORDS=(${
        words.map((w) => JSON.stringify(w)).join(" ")
      }); ` +
      `COMP_CWORD=${words.length - 1}; _toolfoundation; echo "\${COMPREPLY[*]}"`,
    ]);
    assert.ok(run.ok, run.out);
    return run.out.trim().split(/\s+/).filter((w) => w !== "").sort();
  };
  assert.deepEqual(await complete("toolfoundation", "va"), ["validate"]);
  assert.deepEqual(await complete("toolfoundation", "convert", "m.yaml", "--t"), [
    "--timeout",
    "--to",
  ]);
  assert.deepEqual(await complete("toolfoundation", "convert", "m.yaml", "--to", "openai"), [
    "openai",
    "openai-responses",
  ]);
  assert.deepEqual(await complete("toolfoundation", "validate", "m.yaml", "--js"), ["--json"]);
  assert.deepEqual(await complete("toolfoundation", "list", "m.yaml", "--qu"), ["--quiet"]);
  assert.deepEqual(await complete("toolfoundation", "auth", "lo"), ["login", "logout"]);
  assert.deepEqual(await complete("toolfoundation", "completions", "z"), ["zsh"]);
  // Every command's every flag is offered after "--".
  for (const c of COMMAND_SPECS) {
    const offered = await complete("toolfoundation", c.name, "--");
    const expected = [...c.flags, ...GLOBAL_FLAGS].map((f) => `--${f.name}`).sort();
    assert.deepEqual(offered, expected, c.name);
  }
});

Deno.test("completions zsh is valid zsh and names every command and flag", async () => {
  const file = await script("zsh");
  const text = await Deno.readTextFile(file);
  assert.match(text, /^#compdef toolfoundation\n/);
  for (const c of COMMAND_SPECS) {
    assert.match(text, new RegExp(`'${c.name}:`), c.name);
    for (const f of c.flags) assert.ok(text.includes(`--${f.name}`), `${c.name} --${f.name}`);
  }
  if (!await installed("zsh")) return; // the text checks above still ran
  const syntax = await shell("zsh", ["-n", file]);
  assert.ok(syntax.ok, syntax.out);
  // Loaded into a shell with the completion system, it defines its function.
  const loaded = await shell("zsh", [
    "-c",
    `autoload -U compinit && compinit -u -D; source ${
      JSON.stringify(file)
    }; whence -w _toolfoundation`,
  ]);
  assert.ok(loaded.ok, loaded.out);
  assert.match(loaded.out, /_toolfoundation: function/);
});

Deno.test("completions fish is valid fish and completes commands, flags and their choices", async () => {
  const file = await script("fish");
  const text = await Deno.readTextFile(file);
  for (const c of COMMAND_SPECS) assert.match(text, new RegExp(`-a ${c.name} `), c.name);
  if (!await installed("fish")) return;
  const syntax = await shell("fish", ["-n", file]);
  assert.ok(syntax.ok, syntax.out);
  const complete = async (line: string) => {
    const run = await shell("fish", [
      "-c",
      `source ${JSON.stringify(file)}; complete -C ${JSON.stringify(line)}`,
    ]);
    assert.ok(run.ok, run.out);
    return run.out.trim().split("\n").map((l) => l.split("\t")[0]).sort();
  };
  assert.deepEqual(await complete("toolfoundation conv"), ["convert"]);
  assert.deepEqual(await complete("toolfoundation convert --t"), ["--timeout", "--to"]);
  assert.deepEqual(await complete("toolfoundation respond m --format anth"), ["anthropic"]);
});

Deno.test("completions without a shell or with an unknown one is a usage error (exit 2)", async () => {
  const none = await cli(["completions"]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /completions needs a shell: bash, zsh, fish/);
  const tcsh = await cli(["completions", "tcsh"]);
  assert.equal(tcsh.code, 2);
  assert.match(tcsh.stderr, /got "tcsh"/);
});

Deno.test("the table of commands is the usage's: every command listed, none more", () => {
  const section = USAGE.slice(USAGE.indexOf("Commands:"), USAGE.indexOf("Options:"));
  const listed = [...section.matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1]);
  assert.deepEqual(listed, COMMAND_SPECS.map((c) => c.name));
});

Deno.test("every flag in the table is in its command's --help, and every flag of the help in the table", () => {
  const global = new Set(GLOBAL_FLAGS.map((f) => f.name));
  for (const c of COMMAND_SPECS) {
    const help = HELP.get(c.name);
    assert.ok(help !== undefined, `no help for ${c.name}`);
    const mentioned = new Set([...help.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)].map((m) => m[1]));
    const own = new Set(c.flags.map((f) => f.name));
    const missing = [...own].filter((f) => !mentioned.has(f));
    assert.deepEqual(missing, [], `${c.name} --help does not mention these flags`);
    // Deno's own permission flags (--allow-net...) may be named in the text.
    const unknown = [...mentioned].filter((f) =>
      !own.has(f) && !global.has(f) && !/^allow-(net|read|write|env|run|sys|ffi|import)$/.test(f)
    );
    assert.deepEqual(unknown, [], `${c.name} --help mentions flags the table does not have`);
  }
  for (const f of GLOBAL_FLAGS) {
    assert.ok(USAGE.includes(`--${f.name}`), `--${f.name} in the usage`);
  }
});

Deno.test("every flag in the table is one its command's parser accepts", async () => {
  for (const c of COMMAND_SPECS) {
    for (const f of [...c.flags, ...GLOBAL_FLAGS.filter((g) => g.name !== "help")]) {
      const arg = f.value === undefined ? `--${f.name}` : `--${f.name}=${f.choices?.[0] ?? "1"}`;
      const err: string[] = [];
      await main([c.name, arg], {
        io: { stdout: () => {}, stderr: (t) => err.push(t), stdinIsTerminal: true },
      });
      assert.doesNotMatch(
        err.join(""),
        /unknown option|takes no value|needs a value/,
        `${c.name} ${arg}`,
      );
    }
  }
});
