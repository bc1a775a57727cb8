import assert from "node:assert/strict";
import fc from "fast-check";
import { Redactor } from "../../workspace/mod.ts";
import { MIN_SECRET_LENGTH } from "../../workspace/secrets.ts";

const SECRET = 'sk-"A/b+c d%é😀\\z';

function redactor(...secrets: string[]): Redactor {
  const r = new Redactor();
  for (const s of secrets) r.add(s);
  return r;
}

Deno.test("redact catches the raw, URL-encoded and JSON-escaped forms of a secret", () => {
  const r = redactor(SECRET);
  const forms = [
    SECRET,
    encodeURIComponent(SECRET),
    encodeURIComponent(SECRET).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()), // lower hex
    encodeURI(SECRET),
    JSON.stringify(SECRET).slice(1, -1),
    JSON.stringify(JSON.stringify(SECRET)).slice(3, -3), // JSON inside a JSON string
    JSON.stringify(SECRET).slice(1, -1).replace(
      /[^\x20-\x7e]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    ), // \u-escaped (JSON's ASCII form)
    new URL(`http://h/p/${SECRET.replace("\\", "")}`).pathname.slice(3), // a URL parser's form
    new URLSearchParams({ t: SECRET }).toString().slice(2), // form encoding: space as +
  ];
  r.add(SECRET.replace("\\", ""));
  for (const form of forms) {
    const out = r.redact(`before ${form} after`);
    assert.equal(out, "before *** after", `form ${form}`);
  }
});

Deno.test("redactJson changes only strings: keys, numbers and structure stay", () => {
  const r = redactor("424242");
  const value = { "424242": 424242, list: [424242, "id-424242"], nested: { k: "424242" } };
  assert.equal(
    r.redactJson(value),
    '{"424242":424242,"list":[424242,"id-***"],"nested":{"k":"***"}}',
  );
  const inString = r.redactJson({ s: 'quote " and 424242' }, 2);
  assert.equal(inString, '{\n  "s": "quote \\" and ***"\n}');
});

Deno.test("a value with no secret in it comes out byte-identical (property)", () => {
  const r = redactor("sk-live-0123456789", "hunter2hunter2");
  fc.assert(
    fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 4 }), (value, indent) => {
      assert.equal(r.redactJson(value, indent), JSON.stringify(value, null, indent));
      const text = JSON.stringify(value);
      assert.equal(r.redact(text), text);
    }),
    { numRuns: 300 },
  );
});

Deno.test("a secret anywhere in any string is never printed in any covered form (property)", () => {
  fc.assert(
    fc.property(
      fc.string({ minLength: MIN_SECRET_LENGTH, maxLength: 24, unit: "grapheme" }),
      fc.string({ maxLength: 10 }),
      fc.string({ maxLength: 10 }),
      (secret, before, after) => {
        fc.pre([...secret].length >= MIN_SECRET_LENGTH && secret.trim() === secret);
        const r = redactor(secret);
        const value = { a: [`${before}${secret}${after}`], b: encodeURIComponent(secret) };
        const json = r.redactJson(value);
        assert.ok(!JSON.parse(json).a[0].includes(secret), json);
        assert.ok(!json.includes(encodeURIComponent(secret)), json);
        const events = r.redact(JSON.stringify({ message: `x ${secret} y` }));
        assert.ok(!events.includes(JSON.stringify(secret).slice(1, -1)), events);
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("a secret cut by an excerpt is scrubbed, not printed minus the cut characters", () => {
  const secret = "tok_ABCDEFGHIJKLMNOP";
  const r = redactor(secret);
  const body = `${"x".repeat(190)}${secret}${"y".repeat(50)}`;
  const excerpt = `${body.slice(0, 200)}... (${body.length} chars in all)`;
  assert.ok(excerpt.includes(secret.slice(0, 10)));
  const out = r.redact(`HTTP 500: ${excerpt}`);
  assert.ok(!out.includes(secret.slice(0, MIN_SECRET_LENGTH)), out);
  assert.match(out, /x\*\*\*\.\.\. \(260 chars in all\)$/);
  const tail = `...${secret.slice(5)} end`;
  assert.equal(r.redact(tail), "...*** end");
});

Deno.test("secrets shorter than the minimum are not scrubbed and are listed for a warning", () => {
  const r = new Redactor();
  assert.equal(r.add("abc", "PIN"), false);
  assert.equal(r.add("abcdef", "TOKEN"), true);
  assert.deepEqual(r.tooShort, [{ variable: "PIN", length: 3 }]);
  assert.equal(r.redact("abc abcdef"), "abc ***");
  const short = new Redactor();
  assert.equal(short.add("12", "PIN"), false);
  assert.deepEqual(short.tooShort, [{ variable: "PIN", length: 2 }]);
});

/** Standard base64 of UTF-8 text. */
function base64(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
}

Deno.test("a secret inside base64 or base64url text is scrubbed at every byte alignment, padded or not", () => {
  const secret = "s3cr3t-väl/ue+?>";
  const r = redactor(secret);
  for (const before of ["", "a", "ab", "abc", "abcd"]) {
    for (const after of ["", "x", "xy", "xyz"]) {
      const std = base64(`${before}${secret}${after}`);
      const url = std.replaceAll("+", "-").replaceAll("/", "_");
      for (const form of [std, std.replace(/=+$/, ""), url, url.replace(/=+$/, "")]) {
        const out = r.redact(`Authorization: Bearer ${form}.`);
        // What is left are the digits that carry only the neighbours' bits.
        const left = out.replace("Authorization: Bearer ", "").replace(/\.$/, "");
        const [head, tail] = left.replace(/=+$/, "").split("***");
        assert.ok(tail !== undefined, `${before}|${after}: ${form} -> ${out}`);
        assert.ok(head.length <= Math.floor(before.length * 8 / 6), `${form} -> ${out}`);
        assert.ok(tail.length <= Math.ceil(after.length * 8 / 6), `${form} -> ${out}`);
      }
      // JSON-escaped and percent-encoded base64 too.
      assert.ok(!r.redact(JSON.stringify(std)).includes(std.slice(8, 16)));
      assert.match(r.redact(encodeURIComponent(std)), /\*\*\*/);
    }
  }
});

Deno.test("an HTTP Basic header of a client secret is scrubbed (btoa's Latin-1 and the form-encoded pair)", () => {
  const secret = "clïent secret:+/=";
  const r = redactor(secret);
  const latin1 = `Basic ${btoa(`my-client:${secret}`)}`;
  const formEncoded = `Basic ${
    base64(`my-client:${new URLSearchParams({ s: secret }).toString().slice(2)}`)
  }`;
  const utf8 = `Basic ${base64(`my-client:${secret}`)}`;
  for (const header of [latin1, formEncoded, utf8]) {
    const out = r.redact(header);
    assert.match(out, /^Basic [A-Za-z0-9+/]{0,16}\*\*\*=*$/, `${header} -> ${out}`);
    assert.ok(out.length < header.length - 10, `${header} -> ${out}`);
  }
});

Deno.test("base64 forms are not found in unrelated base64 text", () => {
  const r = redactor("s3cr3t-value");
  const unrelated = base64("the quick brown fox jumps over the lazy dog, 0123456789");
  assert.equal(r.redact(unrelated), unrelated);
});

Deno.test("redactValue scrubs strings only and copies arrays and plain objects", () => {
  const r = redactor("s3cr3t-value");
  const date = new Date(0);
  const value = { "s3cr3t-value": 1, list: ["a s3cr3t-value b", 2, null], when: date };
  const out = r.redactValue(value);
  assert.deepEqual(out, { "s3cr3t-value": 1, list: ["a *** b", 2, null], when: date });
  assert.equal(out.when, date);
  assert.equal(value.list[0], "a s3cr3t-value b");
  assert.equal(new Redactor().redactValue(value), value);
});
