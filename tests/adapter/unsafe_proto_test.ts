// The adapters and the model's JSON functions under `--unstable-unsafe-proto`, where
// `Object.prototype.__proto__` is the real accessor (as in Node, Bun and browsers): own
// `"__proto__"` keys must survive every conversion there too. Runs the hostile tests in a
// subprocess with the flag, because the flag is per process.
import assert from "node:assert/strict";

Deno.test("the __proto__ tests pass under --unstable-unsafe-proto (the accessor of other engines)", async () => {
  const root = new URL("../../", import.meta.url);
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "test",
      "--unstable-unsafe-proto",
      "--no-prompt",
      "--allow-read",
      "--allow-env",
      "tests/adapter/hostile_test.ts",
      "tests/model/json_test.ts",
    ],
    cwd: root.pathname,
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, text.slice(-3000));
  const summary = text.match(/ok \| (\d+) passed \| 0 failed/);
  assert.ok(summary !== null && Number(summary[1]) > 40, text.slice(-1000));
  // The flag really gives the accessor (else the run would prove nothing).
  const probe = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      "--unstable-unsafe-proto",
      'const o = JSON.parse(\'{"__proto__": {"x": 1}}\'); const c = {}; c["__proto__"] = o["__proto__"]; console.log(Object.hasOwn(c, "__proto__"), c.x)',
    ],
    stdin: "null",
  }).output();
  assert.equal(new TextDecoder().decode(probe.stdout).trim(), "false 1");
});
