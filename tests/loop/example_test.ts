// examples/agent_loop.ts: a full loop against the scripted fake model, for each format,
// in-process and as the script a user runs (with no permissions at all).
import assert from "node:assert/strict";
import { LOOP_FORMATS } from "../../loop/mod.ts";
import { runAgentLoop } from "../../examples/agent_loop.ts";

for (const format of LOOP_FORMATS) {
  Deno.test(`examples/agent_loop.ts, ${format}: the model repairs its call from the answer and finishes`, async () => {
    const { lines, answer, conversation } = await runAgentLoop(format);
    const sep = format === "gemini" ? ":" : "__";
    assert.deepEqual(lines, [
      `turn 1: weather${sep}get → ok, math${sep}add → invalid_arguments`,
      `turn 2: math${sep}add → ok`,
      "turn 3: the model answers: It is 18 °C in Paris, and 2 + 3 = 5.",
    ]);
    assert.equal(answer, "It is 18 °C in Paris, and 2 + 3 = 5.");
    // user, assistant turn (2 calls), 2 answers (one message for Anthropic and Gemini),
    // assistant turn (1 call), 1 answer, the final assistant text
    const expected = { openai: 7, "openai-responses": 8, anthropic: 6, gemini: 6 }[format];
    assert.equal(conversation.length, expected);
  });
}

Deno.test("examples/agent_loop.ts runs as a script with no permissions", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-prompt", "examples/agent_loop.ts"],
    cwd: new URL("../..", import.meta.url),
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.equal(stdout.match(/the model answers: It is 18 °C in Paris/g)?.length, 4);
  for (const format of LOOP_FORMATS) assert.match(stdout, new RegExp(`^${format}:$`, "m"));
});
