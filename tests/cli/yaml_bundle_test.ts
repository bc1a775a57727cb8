// Start-up: manifests are parsed by npm:yaml's browser build bundled
// into workspace/_generated/yaml.js. It must read documents exactly as the package's
// Node build (npm:yaml, the same pinned version) does: values, errors and
// their positions, warnings, and the text `import` writes. The package's Node
// build reads LOG_TOKENS and LOG_STREAM, so this test needs --allow-env for them.
import assert from "node:assert/strict";
import * as node from "yaml";
import * as bundled from "../../workspace/_generated/yaml.js";

const ROOT = new URL("../../", import.meta.url);

const BROKEN = [
  "version: 1\ntools:\n  - name: a\n  - name: b\n    oops: [1, 2\n",
  "a: 1\na: 2\n",
  "key: value\n  bad indent: x\n",
  "- a\nb: c\n",
  "x: &a [1]\ny: *b\n",
  "s: 'unterminated\n",
  "%YAML 1.1\n---\nx: yes\n",
  "y: !custom 1\n",
  "tab:\t1\n\t- x\n",
  "a: b: c\n",
  '"\\xZZ": 1\n',
  "x: 0x1F\ny: 1e3\nz: .inf\nw: ~\nv: 2001-12-14\n",
  "---\na: 1\n---\nb: 2\n",
];

/** What a parser makes of a text: the value (or why not), errors and warnings with positions. */
function reading(yaml: typeof node, text: string) {
  const counter = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, {
    lineCounter: counter,
    uniqueKeys: true,
    prettyErrors: false,
  });
  let value: unknown;
  try {
    value = doc.errors.length > 0 ? "(errors)" : doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    value = `(throws ${(error as Error).message})`;
  }
  const problem = (e: { code: string; message: string; pos: [number, number] }) => ({
    code: e.code,
    message: e.message,
    pos: e.pos,
    at: counter.linePos(e.pos[0]),
  });
  return {
    value,
    errors: doc.errors.map(problem),
    warnings: doc.warnings.map(problem),
    contentsIsMap: yaml.isMap(doc.contents),
  };
}

Deno.test("the bundled parser reads the repository's YAML files as npm:yaml does", async () => {
  const files = [
    "examples/tools.yaml",
    "examples/everything.yaml",
    "tests/fixtures/serve/manifest.yaml",
    "docs/deploy/compose.yaml",
  ];
  for (const file of files) {
    const text = await Deno.readTextFile(new URL(file, ROOT));
    const got = reading(bundled as unknown as typeof node, text);
    assert.deepEqual(got, reading(node, text), file);
    assert.equal(got.errors.length, 0, file);
  }
});

Deno.test("the one difference: !!binary is a Uint8Array, not Node's Buffer (a Uint8Array subclass)", () => {
  const text = "x: !!binary aGk=\n";
  const got = bundled.parseDocument(text).toJS() as { x: Uint8Array };
  const want = node.parseDocument(text).toJS() as { x: Uint8Array };
  assert.equal(Object.getPrototypeOf(got.x), Uint8Array.prototype);
  assert.notEqual(Object.getPrototypeOf(want.x), Uint8Array.prototype);
  assert.ok(want.x instanceof Uint8Array);
  assert.deepEqual([...got.x], [...want.x]);
});

Deno.test("the bundled parser reports broken and unusual YAML as npm:yaml does", () => {
  let failing = 0;
  for (const text of BROKEN) {
    const got = reading(bundled as unknown as typeof node, text);
    assert.deepEqual(got, reading(node, text), JSON.stringify(text));
    if (got.errors.length > 0) failing++;
  }
  // The corpus does exercise errors (not only happy paths).
  assert.ok(failing >= 5, `${failing} of ${BROKEN.length} texts had errors`);
});

Deno.test("the bundled Document writes the same text as npm:yaml's", () => {
  const value = {
    version: 1,
    servers: { web: { url: "http://127.0.0.1:3001/mcp", headers: { "x-a": "${env:TOKEN}" } } },
    tools: [{ name: "a", builtin: "calculate", tags: ["x", "y"] }],
  };
  const write = (yaml: typeof node) => {
    const doc = new yaml.Document(value);
    doc.commentBefore = " a comment\n second line";
    return doc.toString({ lineWidth: 100 });
  };
  assert.equal(write(bundled as unknown as typeof node), write(node));
});
