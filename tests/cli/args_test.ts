// The commands' argument parser (cli/_args.ts), which replaced node:util's
// parseArgs to start faster: the same strict behaviour.
import assert from "node:assert/strict";
import { parseArgs } from "../../cli/_args.ts";
import { UsageError } from "../../workspace/errors.ts";
import { main } from "../../cli/main.ts";

const OPTIONS = {
  args: { type: "string" },
  events: { type: "boolean" },
  prefix: { type: "string", multiple: true },
} as const;

function parse(args: string[]) {
  return parseArgs({ args, options: OPTIONS, allowPositionals: true });
}

Deno.test("options and positionals, in any order, --name value and --name=value", () => {
  const { values, positionals } = parse(["a.yaml", "--args", "{}", "x", "--events", "--prefix=p"]);
  assert.deepEqual(positionals, ["a.yaml", "x"]);
  assert.equal(values.args, "{}");
  assert.equal(values.events, true);
  assert.deepEqual(values.prefix, ["p"]);
  assert.equal(Object.getPrototypeOf(values), null);
});

Deno.test("absent options are undefined; a repeated option: the last wins, or all with multiple", () => {
  const { values } = parse(["--args", "1", "--args=2", "--prefix", "a", "--prefix", "b"]);
  assert.equal(values.args, "2");
  assert.deepEqual(values.prefix, ["a", "b"]);
  assert.equal(values.events, undefined);
});

Deno.test("a value may be empty, contain '=' or be '-'; after -- everything is positional", () => {
  assert.equal(parse(["--args="]).values.args, "");
  assert.equal(parse(["--args=a=b"]).values.args, "a=b");
  assert.equal(parse(["--args", "-"]).values.args, "-");
  assert.equal(parse(["--args=-1"]).values.args, "-1");
  assert.deepEqual(parse(["-", "--", "--events", "-x"]).positionals, ["-", "--events", "-x"]);
  assert.equal(parse(["--", "--events"]).values.events, undefined);
});

Deno.test("misuse is a UsageError naming the option", () => {
  const cases: Array<[string[], RegExp]> = [
    [["--nope"], /unknown option "--nope"/],
    [["--nope=1"], /unknown option "--nope"/],
    [["-x"], /unknown option "-x"/],
    [["--__proto__"], /unknown option "--__proto__"/],
    [["--toString"], /unknown option "--toString"/],
    [["--args"], /option --args needs a value/],
    [["--args", "--events"], /needs a value, got the option-like "--events"; .*--args=--events/],
    [["--events=yes"], /option --events takes no value/],
  ];
  for (const [args, message] of cases) {
    assert.throws(() => parse(args), (e: unknown) => {
      assert.ok(e instanceof UsageError, String(e));
      assert.equal(e.code, "usage");
      assert.match(e.message, message);
      return true;
    });
  }
});

Deno.test("positionals are refused unless allowed", () => {
  assert.throws(
    () => parseArgs({ args: ["x"], options: OPTIONS }),
    (e: unknown) => e instanceof UsageError && /unexpected argument "x"/.test(e.message),
  );
  assert.deepEqual(parseArgs({ args: ["--events"], options: OPTIONS }).values.events, true);
});

Deno.test("a command given an unknown option exits 2 with the parser's message", async () => {
  const err: string[] = [];
  const code = await main(["run", "examples/tools.yaml", "x", "--nope"], {
    io: { stdout: () => {}, stderr: (t) => err.push(t) },
  });
  assert.equal(code, 2);
  assert.match(err.join(""), /unknown option "--nope"/);
});
