import assert from "node:assert/strict";
import {
  decodeToolName,
  encodeToolName,
  GEMINI_VERTEX_PROFILE,
  NameCollisionError,
  ToolNameMap,
  UnknownToolNameError,
} from "../../adapter/mod.ts";

Deno.test("encodeToolName joins namespace and name with __ where a colon is illegal", () => {
  assert.equal(encodeToolName("filesystem:read_file", "openai"), "filesystem__read_file");
  assert.equal(encodeToolName("filesystem:read_file", "anthropic"), "filesystem__read_file");
  assert.equal(encodeToolName("echo", "openai"), "echo");
});

Deno.test("encodeToolName keeps namespace:name as it is on Gemini", () => {
  assert.equal(encodeToolName("files.v2:read", "gemini"), "files.v2:read");
});

Deno.test("encodeToolName adds a hash suffix when dots are illegal, and the result decodes only through a map", () => {
  const name = encodeToolName("files.v2:read", "openai");
  assert.match(name, /^files_v2__read_[0-9a-f]{8}$/);
  assert.equal(decodeToolName(name, "openai"), undefined);
  assert.equal(new ToolNameMap(["files.v2:read"], "openai").toCanonical(name), "files.v2:read");
});

Deno.test("encodeToolName cuts names over the length limit and keeps them distinct", () => {
  const a = `ns:${"x".repeat(100)}a`;
  const b = `ns:${"x".repeat(100)}b`;
  const ea = encodeToolName(a, "openai");
  const eb = encodeToolName(b, "openai");
  assert.equal(ea.length, 64);
  assert.equal(eb.length, 64);
  assert.notEqual(ea, eb);
  assert.match(ea, /^[A-Za-z0-9_-]+$/);
});

Deno.test("encodeToolName hashes names whose split would be ambiguous", () => {
  // a namespace ending in "_" and a plain name containing "__" would decode wrongly
  for (const id of ["ns_:x", "a__b", "sha_deadbeef"]) {
    const name = encodeToolName(id, "openai");
    assert.match(name, /_[0-9a-f]{8}$/, id);
    assert.notEqual(decodeToolName(name, "openai"), id === "a__b" ? "a:b" : "x");
  }
});

Deno.test("encodeToolName prefixes an underscore when the profile restricts the first character", () => {
  const name = encodeToolName("9lives", GEMINI_VERTEX_PROFILE);
  assert.match(name, /^_9lives_[0-9a-f]{8}$/);
});

Deno.test("decodeToolName inverts plain encodings for every target", () => {
  for (const target of ["openai", "openai-responses", "anthropic", "gemini", "mcp"]) {
    for (const id of ["echo", "math:add", "files:read-file", "a-b:c_d"]) {
      assert.equal(decodeToolName(encodeToolName(id, target), target), id, `${target} ${id}`);
    }
  }
});

Deno.test("decodeToolName returns undefined for names no tool ID encodes to", () => {
  assert.equal(decodeToolName("", "openai"), undefined);
  assert.equal(decodeToolName("a:b:c", "gemini"), undefined);
});

Deno.test("ToolNameMap rejects two IDs that share a provider name", () => {
  assert.throws(() => new ToolNameMap(["a:b", "a:b"], "openai"), NameCollisionError);
});

Deno.test("ToolNameMap maps both ways and refuses unknown provider names", () => {
  const map = new ToolNameMap(["math:add", "files.v2:read", "echo"], "anthropic");
  assert.equal(map.size, 3);
  for (const id of ["math:add", "files.v2:read", "echo"]) {
    assert.equal(map.toCanonical(map.toProvider(id)), id);
  }
  assert.equal(map.has("math__add"), true);
  assert.throws(() => map.toCanonical("math__sub"), UnknownToolNameError);
});
