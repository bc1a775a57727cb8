// The validator's regular-expression engine gives ECMA-262's answer (`u`
// flag), checked against the JavaScript engine itself on random patterns
// and strings, and on the places where RE2's own rules differ.

import assert from "node:assert/strict";
import fc from "fast-check";
import { compilePattern, loadRegexEngine, UnboundedPatternError } from "../../model/_regex.ts";
import { spaceSet } from "../../model/_regex_ranges.ts";

// Patterns compile synchronously here: load the engine first.
await loadRegexEngine();

/** Compiles with the bounded engine, or undefined when it refuses. */
function bounded(pattern: string): ((s: string) => boolean) | undefined {
  try {
    const matcher = compilePattern(pattern);
    return (s) => matcher.test(s);
  } catch (error) {
    if (error instanceof UnboundedPatternError) return undefined;
    throw error;
  }
}

Deno.test("where RE2's rules differ from ECMA-262, the answer is ECMA-262's", () => {
  const cases: [string, string[]][] = [
    // `.` excludes exactly \n \r U+2028 U+2029 (RE2's excludes only \n)
    ["^.$", ["\n", "\r", "\u2028", "\u2029", "\u0085", "a", "😀", "\ud800"]],
    // `\s` is ECMA's whitespace (RE2's is ASCII only)
    ["^\\s$", ["\u00a0", "\ufeff", "\u2028", "\u3000", "\u1680", "\u0085", "\u200b", "\v"]],
    ["^\\S$", ["\u00a0", "x"]],
    // `\d`, `\w`, `\b` are ASCII
    ["^\\d$", ["٣", "3"]],
    ["^\\w+$", ["é", "ab_9"]],
    ["a\\b", ["aé", "a b", "ab"]],
    // `$` is the end of the input, not before a final newline
    ["^a$", ["a\n", "a"]],
    // code points, not UTF-16 units; lone surrogates match themselves
    ["^[^a]$", ["😀", "\ud800", "\udc00"]],
    ["\\ud83d\\ude00", ["😀", "\ud83d"]],
    ["^\\ud83d", ["😀", "\ud83d"]],
    ["^\\u{1F600}$", ["😀"]],
    // Unicode properties with the engine's own Unicode version
    ["^\\p{L}+$", ["héllo", "日本", "ab1"]],
    ["^\\p{Script=Greek}$", ["α", "a"]],
    ["^\\P{Lu}$", ["a", "A"]],
    ["^[\\p{N}\\s]+$", ["١ 2", "x"]],
    // escapes
    ["^\\cJ\\0[\\b]\\x41\\u0042$", ["\n\0\bAB"]],
    ["^[\\-a]$", ["-", "a", "b"]],
    // counts above RE2's 1000
    ["^a{1500}$", ["a".repeat(1500), "a".repeat(1499)]],
    ["^(?:ab){2,1200}$", ["ab".repeat(1200), "ab".repeat(1201), "ab"]],
    ["^x{999,}$", ["x".repeat(999), "x".repeat(998)]],
    // `s` modifier, empty class, `[^]`
    ["(?s:a.b)", ["a\nb"]],
    ["[]", ["", "a"]],
    ["^[^]$", ["\n"]],
  ];
  for (const [pattern, inputs] of cases) {
    const test = bounded(pattern);
    assert.ok(test !== undefined, pattern);
    for (const input of inputs) {
      assert.equal(
        test(input),
        new RegExp(pattern, "u").test(input),
        `${pattern} on ${JSON.stringify(input)}`,
      );
    }
  }
});

Deno.test("each engine is chosen as documented", () => {
  assert.equal(compilePattern("^(a+)+$").engine, "re2");
  assert.equal(compilePattern("(?<=a)b").engine, "re2");
  assert.equal(compilePattern("^(?=.*\\d).{8,}$").engine, "re2-lookahead");
  assert.equal(compilePattern("^(\\d)\\1$").engine, "native-bounded");
  assert.equal(compilePattern("(?i:ab)").engine, "native-bounded");
  for (const refused of ["(\\w+)\\1", "(?=.*a).*b", "(?i:a+)", "^[\\s\\S]{0,100000}$"]) {
    assert.throws(() => compilePattern(refused), UnboundedPatternError, refused);
  }
  assert.throws(() => compilePattern("("), SyntaxError);
  // Group nesting is bounded, not recursed into without end.
  assert.throws(
    () => compilePattern("(".repeat(5000) + "a" + ")".repeat(5000)),
    (e) => e instanceof UnboundedPatternError || e instanceof SyntaxError,
  );
});

const ATOMS = [
  "a",
  "b",
  ".",
  "\\d",
  "\\D",
  "\\w",
  "\\W",
  "\\s",
  "\\S",
  "[ab]",
  "[^a]",
  "[a-c\\d]",
  "[^\\s]",
  "\\p{L}",
  "\\P{L}",
  "é",
  "😀",
  "\\n",
  "\\u2028",
  "\\ud800",
  "[\\s\\S]",
];
const QUANTIFIERS = ["", "", "*", "+", "?", "{0,2}", "{1,3}", "{2}", "*?", "+?"];

const pattern: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(...ATOMS),
    fc.constantFrom("^", "$", "\\b", "\\B"),
    fc.tuple(tie("node"), tie("node")).map(([a, b]) => a + b),
    fc.tuple(tie("node"), tie("node")).map(([a, b]) => `(?:${a}|${b})`),
    fc.tuple(tie("node"), fc.constantFrom(...QUANTIFIERS)).map(([a, q]) => `(${a})${q}`),
    tie("node").map((a) => `(?<=${a})`),
    tie("node").map((a) => `(?<!${a})`),
    fc.tuple(tie("node"), tie("node")).map(([a, b]) => `^(?=${a})${b}`),
  ),
})).node;

const CHARS = [
  "a",
  "b",
  "c",
  "1",
  "_",
  " ",
  "\n",
  "\r",
  "\u2028",
  "\u00a0",
  "é",
  "😀",
  "\ud800",
  "A",
];
const text: fc.Arbitrary<string> = fc.array(fc.constantFrom(...CHARS), { maxLength: 8 }).map((
  cs,
) => cs.join(""));

/**
 * Whether the engine finds a match as the spec's search does with the `u` flag:
 * tried at each code point boundary only (`y` at each of them). V8's own
 * unanchored search also tries positions inside a surrogate pair, where an
 * assertion such as `\\B` or a negative lookbehind can match (see the test below).
 */
function nativeSearch(sticky: RegExp, input: string): boolean {
  for (let i = 0;;) {
    sticky.lastIndex = i;
    if (sticky.test(input)) return true;
    if (i >= input.length) return false;
    i += input.codePointAt(i)! > 0xffff ? 2 : 1;
  }
}

Deno.test("random patterns answer as the JavaScript engine does on random strings", () => {
  fc.assert(
    fc.property(pattern, fc.array(text, { minLength: 1, maxLength: 6 }), (source, inputs) => {
      let native: RegExp;
      try {
        native = new RegExp(source, "uy");
      } catch {
        return; // not a pattern in ECMA-262 (e.g. a quantified assertion)
      }
      const test = bounded(source);
      if (test === undefined) return;
      for (const input of inputs) {
        assert.equal(
          test(input),
          nativeSearch(native, input),
          `${source} on ${JSON.stringify(input)}`,
        );
      }
    }),
    { numRuns: 400 },
  );
});

Deno.test("the search by code point finds what V8 finds except inside a surrogate pair", () => {
  // The counterexample a random run found: V8 alone matches at index 2, inside the pair.
  const source = "(?<!(?:\\b|😀))";
  assert.equal(new RegExp(source, "u").exec("a😀")?.index, 2);
  assert.equal(nativeSearch(new RegExp(source, "uy"), "a😀"), false);
  assert.equal(bounded(source)!("a😀"), false);
  assert.equal(nativeSearch(/a😀/uy, "xa😀"), true);
});

Deno.test("a pattern run natively (bounded) searches by code point, never inside a surrogate pair", () => {
  // A lookahead inside a lookbehind: RE2 cannot run it, the native engine does.
  const matcher = compilePattern("\\B(?<!^(?=a)a)");
  assert.equal(matcher.engine, "native-bounded");
  assert.equal(/\B(?<!^(?=a)a)/u.test("a😀a"), true, "V8's search matches inside the pair");
  assert.equal(matcher.test("a😀a"), false);
  assert.equal(matcher.test("a😀"), true, "at the end, after the emoji");
  assert.equal(matcher.test("ab"), false, "the only non-boundary follows the leading a");
  assert.equal(matcher.test("abc"), true);
});

Deno.test("\\B matches by code point, never inside a surrogate pair (where V8 differs from the spec)", () => {
  const test = bounded("\\B")!;
  // Positions 0, 1 (between "a" and the emoji), 3 and 4 are all word boundaries by code point.
  assert.equal(test("a😀a"), false);
  assert.equal(/\B/u.exec("a😀a")?.index, 2, "V8 matches inside the pair");
  assert.equal(test("😀"), true, "before and after a lone non-word code point");
  assert.equal(test("ab"), true);
});

Deno.test("the \\s set is the engine's \\s on every code point", () => {
  const set = spaceSet();
  const inSet = (cp: number) => {
    for (let i = 0; i < set.length; i += 2) if (cp >= set[i] && cp <= set[i + 1]) return true;
    return false;
  };
  const native = /^\s$/u;
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (inSet(cp) !== native.test(String.fromCodePoint(cp))) {
      assert.fail(`U+${cp.toString(16)} differs`);
    }
  }
});
