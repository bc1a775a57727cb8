// Start-up: manifests in the YAML subset that workspace/_yaml_subset.ts reads are
// parsed without npm:yaml. That parser must answer exactly what npm:yaml's
// `parseDocument(text, { uniqueKeys: true }).toJS()` gives, and place every
// node where npm:yaml's ranges do (the manifest's `locate`), or answer nothing
// (then npm:yaml parses). Checked on every YAML file of the repository, on
// hand-picked edge cases, and on random documents written in many styles,
// then randomly damaged.
import assert from "node:assert/strict";
import fc from "fast-check";
import { isMap, LineCounter, parseDocument } from "../../workspace/_generated/yaml.js";
import type { Document, Node } from "yaml";
import { parseYamlSubset, placeOf, resolvePlain } from "../../workspace/_yaml_subset.ts";
import { positionOf } from "../../workspace/_yaml_position.ts";
import { escapePointerToken } from "../../model/json_pointer.ts";

const ROOT = new URL("../../", import.meta.url);

/** Every pointer into a value (and a few that lead nowhere). */
function pointers(value: unknown, at = ""): string[] {
  const out = [at, `${at}/nowhere`, `${at}/0`];
  if (Array.isArray(value)) {
    value.forEach((v, i) => out.push(...pointers(v, `${at}/${i}`)));
    out.push(`${at}/${value.length}`, `${at}/01`, `${at}/`);
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      out.push(...pointers(v, `${at}/${escapePointerToken(k)}`));
    }
  }
  return out;
}

/**
 * Asserts the subset parser agrees with npm:yaml on `text`; returns whether
 * it answered (rather than leaving the text to npm:yaml).
 */
function agrees(text: string): boolean {
  const fast = parseYamlSubset(text);
  if (fast === undefined) return false;
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: true, prettyErrors: false });
  const why = `on ${JSON.stringify(text)}`;
  assert.deepEqual(doc.errors.map((e) => e.message), [], `npm:yaml has errors ${why}`);
  assert.ok(isMap(doc.contents), `not a mapping for npm:yaml ${why}`);
  const expected = doc.toJS({ maxAliasCount: 100 });
  assert.deepStrictEqual(fast.value, expected, why);
  // Same own property descriptors (npm:yaml defines inherited names as own properties).
  assert.deepStrictEqual(
    JSON.stringify(Object.getOwnPropertyNames(fast.value)),
    JSON.stringify(Object.getOwnPropertyNames(expected)),
    why,
  );
  for (const pointer of pointers(expected)) {
    for (const key of [false, true]) {
      const { line, column } = placeOf(fast.root, pointer, key);
      assert.deepEqual(
        { line, column },
        positionOf(doc as Document<Node>, counter, pointer, key),
        `place of ${pointer}${key ? " (key)" : ""} ${why}`,
      );
    }
  }
  return true;
}

Deno.test("the subset parser reads every YAML file of the repository as npm:yaml does", async () => {
  const files = [
    "examples/tools.yaml",
    "examples/everything.yaml",
    "tests/fixtures/serve/manifest.yaml",
    "tests/fixtures/serve/manifest_2026.yaml",
    "tests/fixtures/serve/input_manifest.yaml",
    "tests/fixtures/serve/manifest_2026_http.yaml",
  ];
  const read: string[] = [];
  for (const file of files) {
    if (agrees(await Deno.readTextFile(new URL(file, ROOT)))) read.push(file);
  }
  // The manifests shipped as examples are in the subset: they start without npm:yaml.
  assert.ok(read.includes("examples/tools.yaml"), read.join(", "));
  assert.ok(read.includes("examples/everything.yaml"), read.join(", "));
});

Deno.test("the subset parser reads usual manifest shapes and leaves the rest to npm:yaml", () => {
  const read = [
    "version: 1\ntools:\n  - name: a\n    namespace: math\n    builtin: calculate\n",
    "version: 1\ntools:\n- name: a\n  tags: [x, 'y z', \"w\"]\nchains: {}\n",
    "a: { b: 1, c: [1, 2.5, -3], d: {} }\n",
    "a: [1,\n  2, # two\n  3,\n]\nb: {\n  c: 1 }\n",
    "url: http://localhost:8080/mcp # comment\nx:   # nothing\ny: ~\n",
    "k: 'it''s'\nd: \"tab\\tand \\u00e9 \\x41 \\U0001F600\"\n",
    "a:\r\n  - 1\r\n  -\r\n  - x: y\r\n",
    "constructor: 1\ntoString: x\n__proto__: {a: 1}\n",
    "n: [0o17, 0x1F, 1e3, .5, 1., .inf, -.Inf, .NaN, 012, +1, -0, 1.50]\n",
    "- not: a top-level sequence\n".slice(0, 0) + "key: -x\nother: a#b\n",
  ];
  for (const text of read) assert.ok(agrees(text), `not read: ${JSON.stringify(text)}`);
  const left = [
    "- a\n",
    "a: &x 1\nb: *x\n",
    "a: !t 1\n",
    "a: |\n  text\n",
    "a: b\n  c\n",
    "a: 'x\n  y'\n",
    "---\na: 1\n",
    "a:\t1\n",
    "a: 1\na: 2\n",
    "1: x\n",
    "<<: {a: 1}\n",
    "a: b: c\n",
    "a: [x: 1]\n",
    "a: {b}\n",
    "a: [1, , 2]\n",
    "\uFEFFa: 1\n",
    "a: 'unterminated\n",
    '"bad \\q": 1\n',
    "  a: 1\n",
  ];
  for (const text of left) {
    assert.equal(parseYamlSubset(text), undefined, `read: ${JSON.stringify(text)}`);
  }
});

Deno.test("a plain scalar resolves by the core schema as npm:yaml resolves it", () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.stringMatching(/^[-+.0-9a-fA-FxoeEINnaft~ul]{1,8}$/),
        fc.constantFrom(
          "null",
          "Null",
          "NULL",
          "~",
          "",
          "true",
          "True",
          "false",
          "FALSE",
          "tRUE",
          ".inf",
          "-.INF",
        ),
      ),
      (s) => {
        const doc = parseDocument(`k: ${JSON.stringify(s).slice(1, -1)}`);
        if (doc.errors.length > 0 || /^[-+.]$|^-|[:#]/.test(s)) return;
        assert.deepStrictEqual({ v: resolvePlain(s) }, { v: (doc.toJS() as { k: unknown }).k }, s);
      },
    ),
    { numRuns: 2000 },
  );
});

/** A small seeded random number generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYS = [
  "name",
  "a",
  "b-c",
  "x y",
  "true",
  "1",
  "null",
  "~",
  "__proto__",
  "constructor",
  "<<",
  "-k",
  "k#x",
  "http://h",
  "é",
  "a:b",
  "'q'",
  '"dq"',
  '"a\\tb"',
  "?",
  "&x",
];
const SCALARS = [
  "x",
  "hello world",
  "1",
  "-1",
  "+1",
  "0o17",
  "0x1F",
  "1e3",
  ".5",
  "1.",
  "1.50",
  ".inf",
  "-.Inf",
  ".NaN",
  "null",
  "Null",
  "~",
  "TRUE",
  "yes",
  "012",
  "1_000",
  "a: b",
  "a:b",
  "a #b",
  "a#b",
  "-",
  "-x",
  "?x",
  ":x",
  "&a",
  "*a",
  "!t x",
  "|",
  ">",
  "@x",
  "`x`",
  "%x",
  "{a}",
  "[a]",
  "a, b",
  "'x'",
  "'it''s'",
  '"x\\n\\u00e9"',
  '"bad \\q"',
  '"\\x41\\U0001F600"',
  '""',
  "''",
  "{{placeholders}}",
  "${VAR}",
  "é ✓",
  "9007199254740993",
  "0.1e-2",
  "/result",
  "x   ",
  "a\\b",
];
const DAMAGE = [" ", ":", "-", "\t", "#", "'", '"', "[", "]", "{", "}", ",", "\n", "&", "*", "  "];

/** A random YAML document: a tree of mappings, sequences and scalars in random styles. */
function document(seed: number): string {
  const r = rng(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)];
  // Mostly names and values a manifest holds, sometimes anything of the pools.
  const key = () => r() < 0.9 ? pick(KEYS.slice(0, 4)) : pick(KEYS);
  const scalar = () => r() < 0.85 ? pick(SCALARS.slice(0, 12)) : pick(SCALARS);
  const step = pick([1, 2, 2, 2, 3, 4]);
  const eol = r() < 0.1 ? "\r\n" : "\n";
  const comment = () => (r() < 0.1 ? " # note" : "");
  const flow = (depth: number): string => {
    const roll = r();
    if (depth > 2 || roll < 0.6) return scalar();
    if (roll < 0.8) {
      const n = Math.floor(r() * 4);
      return `[${Array.from({ length: n }, () => flow(depth + 1)).join(pick([", ", ","]))}]`;
    }
    const n = Math.floor(r() * 4);
    return `{ ${Array.from({ length: n }, () => `${key()}: ${flow(depth + 1)}`).join(", ")} }`;
  };
  // Lines of a block node at `indent`; `first` is the text before the node on its first line.
  const block = (indent: number, depth: number): string[] => {
    const pad = " ".repeat(indent);
    const lines: string[] = [];
    if (depth > 0 && r() < 0.4) {
      const n = 1 + Math.floor(r() * 3);
      for (let i = 0; i < n; i++) {
        const roll = r();
        if (roll < 0.4 || depth > 3) lines.push(`${pad}- ${flow(depth)}${comment()}`);
        else if (roll < 0.7) {
          const inner = block(indent + 2, depth + 1);
          if (inner[0]?.trimStart().startsWith("- ") || inner.length === 0) {
            lines.push(`${pad}-${comment()}`, ...inner);
          } else {
            lines.push(`${pad}- ${inner[0].slice(indent + 2)}`, ...inner.slice(1));
          }
        } else {
          lines.push(`${pad}-${comment()}`, ...block(indent + step, depth + 1));
        }
        if (r() < 0.1) lines.push(r() < 0.5 ? "" : `${pad}# comment`);
      }
      return lines;
    }
    const n = 1 + Math.floor(r() * 4);
    for (let i = 0; i < n; i++) {
      const name = key();
      const roll = r();
      if (roll < 0.5 || depth > 3) lines.push(`${pad}${name}: ${flow(depth)}${comment()}`);
      else if (roll < 0.6) {
        // A flow collection over several lines, its entries indented by 0-3 more.
        const more = " ".repeat(indent + Math.floor(r() * 4));
        const text = flow(depth).replace(/, ?/g, () => `,${comment()}\n${more}`)
          .replace(/\]$/, () => (r() < 0.5 ? `\n${pad}]` : "]"));
        lines.push(...`${pad}${name}: ${text}`.split("\n"));
      } else if (roll < 0.7) lines.push(`${pad}${name}:${comment()}`);
      else if (roll < 0.8) {
        lines.push(`${pad}${name}:`, ...block(indent, depth + 1).filter((l) => l.startsWith(pad)));
      } else lines.push(`${pad}${name}:${comment()}`, ...block(indent + step, depth + 1));
    }
    return lines;
  };
  let text = (r() < 0.3 ? `# header${eol}` : "") + block(0, 0).join(eol) + eol;
  const damage = r() < 0.5 ? 0 : Math.floor(r() * 3);
  for (let i = 0; i < damage; i++) {
    const at = Math.floor(r() * text.length);
    text = r() < 0.7
      ? text.slice(0, at) + pick(DAMAGE) + text.slice(at)
      : text.slice(0, at) + text.slice(at + 1);
  }
  return text;
}

Deno.test("the subset parser agrees with npm:yaml on random documents, or leaves them to it", () => {
  let read = 0;
  const runs = 4000;
  fc.assert(
    fc.property(fc.integer(), (seed) => {
      if (agrees(document(seed))) read++;
    }),
    { numRuns: runs },
  );
  // The generator must exercise the parser, not only its refusals.
  assert.ok(read > runs / 10, `read ${read} of ${runs}`);
});
