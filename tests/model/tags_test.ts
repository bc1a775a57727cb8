import assert from "node:assert/strict";
import { MAX_TAG_COUNT, MAX_TAG_LENGTH, normalizeTag, normalizeTags } from "../../model/mod.ts";

Deno.test("normalizeTag lowercases, trims and joins whitespace runs with '-'", () => {
  assert.equal(normalizeTag("  File   System\t"), "file-system");
});

Deno.test("normalizeTag joins whitespace before dropping characters, as the Go original", () => {
  assert.equal(normalizeTag("a ! b"), "a--b");
  assert.equal(normalizeTag("C++ / Rust"), "c--rust");
});

Deno.test("normalizeTag keeps only [a-z0-9-_.] and cuts to 64 characters", () => {
  assert.equal(normalizeTag("Ünïcode_v1.2"), "ncode_v1.2");
  assert.equal(normalizeTag("x".repeat(100)).length, MAX_TAG_LENGTH);
});

Deno.test("normalizeTags drops empties and duplicates, keeping first-seen order", () => {
  assert.deepEqual(normalizeTags(["Search", " search ", "!!", "", "io", "SEARCH", "io"]), [
    "search",
    "io",
  ]);
});

Deno.test("normalizeTags keeps at most 20 tags, counting only kept ones", () => {
  const raw = ["", "dup", "dup", ...Array.from({ length: 30 }, (_, i) => `t${i}`)];
  const out = normalizeTags(raw);
  assert.equal(out.length, MAX_TAG_COUNT);
  assert.equal(out[0], "dup");
  assert.equal(out[19], "t18");
});

Deno.test("normalizeTags is idempotent and does not mutate its input", () => {
  const raw = Object.freeze(["B", "a b", "B"]);
  const once = normalizeTags(raw);
  assert.deepEqual(normalizeTags(once), once);
  assert.deepEqual(raw, ["B", "a b", "B"]);
});
