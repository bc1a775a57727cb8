import assert from "node:assert/strict";
import { AnsiStripper } from "../../../run/process/ansi.ts";

const SAMPLE =
  "\x1b[1;31mbold red\x1b[0m, \x1b]8;;https://x.test\x1b\\link\x1b]8;;\x1b\\, \x1b[2K\rline, \x1bMup";
const PLAIN = "bold red, link, \rline, up";

Deno.test("AnsiStripper strips CSI, OSC (BEL or ST) and two-character escapes in one chunk", () => {
  const strip = new AnsiStripper();
  assert.equal(strip.push(SAMPLE), PLAIN);
  assert.equal(strip.push("\x1b]0;title\x07after"), "after");
});

Deno.test("AnsiStripper gives the same text however the output is cut into chunks", () => {
  for (let size = 1; size <= SAMPLE.length; size++) {
    const strip = new AnsiStripper();
    let out = "";
    for (let i = 0; i < SAMPLE.length; i += size) out += strip.push(SAMPLE.slice(i, i + size));
    out += strip.flush();
    assert.equal(out, PLAIN, `chunks of ${size}`);
  }
});

Deno.test("AnsiStripper leaves text without escapes alone and drops an escape that never finishes", () => {
  const strip = new AnsiStripper();
  assert.equal(strip.push("plain [31m text ] and \\ too"), "plain [31m text ] and \\ too");
  assert.equal(strip.push("end\x1b[3"), "end");
  assert.equal(strip.flush(), "");
  assert.equal(strip.push("next"), "next");
});
