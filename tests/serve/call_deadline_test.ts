// The per-call pieces that replaced general-purpose ones on the forwarding
// path (serve/_call_deadline.ts, the path and Host checks of serve/_guard.ts,
// the shared keep-alive timer of serve/_keep_alive.ts) give what the
// general-purpose ones gave.

import assert from "node:assert/strict";
import { callDeadline, utf8LengthOver } from "../../serve/_call_deadline.ts";
import { hostAllowed, pathnameOf } from "../../serve/_guard.ts";
import { keepAlive } from "../../serve/_keep_alive.ts";
import { scrubValue } from "../../serve/_scrub.ts";

Deno.test("a call's deadline aborts with a TimeoutError, as AbortSignal.timeout does, and says it expired", async () => {
  const client = new AbortController();
  const deadline = callDeadline(10, client.signal);
  const joined = AbortSignal.any([new AbortController().signal, AbortSignal.timeout(10)]);
  deadline.signal.addEventListener("abort", () => {});
  joined.addEventListener("abort", () => {});
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.equal(deadline.expired, true);
  assert.equal(deadline.signal.aborted, true);
  const ours = deadline.signal.reason as DOMException;
  const theirs = joined.reason as DOMException;
  assert.equal(ours.name, theirs.name);
  assert.equal(ours.message, theirs.message);
  deadline.clear();
});

Deno.test("a call's deadline follows the client's abort with its reason, not as expired", () => {
  const client = new AbortController();
  const deadline = callDeadline(60_000, client.signal);
  assert.equal(deadline.signal.aborted, false);
  const reason = new Error("client went away");
  client.abort(reason);
  assert.equal(deadline.signal.aborted, true);
  assert.equal(deadline.signal.reason, reason);
  assert.equal(deadline.expired, false);
  deadline.clear();
});

Deno.test("a call's deadline is aborted at once when the client's signal already is", () => {
  const reason = new Error("gone");
  const deadline = callDeadline(60_000, AbortSignal.abort(reason));
  assert.equal(deadline.signal.reason, reason);
  deadline.clear();
});

Deno.test("a cleared deadline never fires and no longer follows the client", async () => {
  const client = new AbortController();
  const deadline = callDeadline(5, client.signal);
  deadline.clear();
  await new Promise((resolve) => setTimeout(resolve, 20));
  client.abort();
  assert.equal(deadline.signal.aborted, false);
  assert.equal(deadline.expired, false);
});

Deno.test("the UTF-8 size over a cap is the encoder's, for ASCII, multi-byte, surrogate pairs and lone surrogates", () => {
  const texts = ["", "abc", "é".repeat(40), "€".repeat(40), "😀".repeat(40), "\ud800".repeat(40)];
  for (const text of texts) {
    const size = new TextEncoder().encode(text).length;
    for (let max = 0; max <= size + 130; max++) {
      assert.equal(utf8LengthOver(text, max), size > max ? size : undefined, `${text} ${max}`);
    }
  }
});

Deno.test("the path read off a request URL is the URL parser's, odd URLs included", () => {
  const urls = [
    "http://localhost/mcp",
    "http://localhost:8080/mcp?x=1",
    "http://127.0.0.1:8080/mcp#f",
    "http://[::1]:8080/mcp",
    "http://example.com/",
    "http://example.com/a//b",
    "http://example.com/a/../mcp",
    "http://example.com/./mcp",
    "http://example.com/%2e%2e/mcp",
    "http://example.com/m%63p",
    "http://example.com/a\\mcp",
    "http://example.com/mcp/",
    "http://example.com/mc p",
    "http://example.com/é",
    "http://user:pw@example.com/mcp",
    "https://EXAMPLE.com:443/MCP",
    "http://example.com",
    "http://example.com?q",
  ];
  for (const url of urls) assert.equal(pathnameOf(url), new URL(url).pathname, url);
});

Deno.test("a loopback Host header is allowed as the URL parser would allow it, invalid ports refused", () => {
  const allowed = new Set(["localhost", "127.0.0.1", "[::1]"]);
  const hosts = [
    "localhost",
    "localhost:8080",
    "127.0.0.1:0",
    "[::1]:65535",
    "localhost:65536",
    "localhost:99999",
    "LOCALHOST:1",
    "127.0.0.1.:80",
    "0x7f.0.0.1:80",
    "localhost:",
    "evil.example",
  ];
  for (const host of hosts) {
    let expected: boolean;
    try {
      expected = allowed.has(new URL(`http://${host}`).hostname.toLowerCase());
    } catch {
      expected = false;
    }
    const request = new Request("http://localhost/mcp", { headers: { host } });
    assert.equal(hostAllowed(request, allowed), expected, host);
  }
});

Deno.test("keep-alive beats come for each waiting answer on one shared timer, and stop with it", async () => {
  const beats = [0, 0];
  const stopFirst = keepAlive(30, () => beats[0]++);
  const stopSecond = keepAlive(30, () => beats[1]++);
  await new Promise((resolve) => setTimeout(resolve, 200));
  stopFirst();
  const first = beats[0];
  assert.ok(first >= 2, `the first answer had ${first} beats in 200 ms`);
  assert.ok(beats[1] >= 2, `the second answer had ${beats[1]} beats in 200 ms`);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(beats[0], first, "a stopped answer got a beat");
  stopSecond();
  // The test's sanitizer fails it if the shared timer was left running.
});

Deno.test("an answer done before its interval gets no keep-alive beat", async () => {
  let beats = 0;
  const stop = keepAlive(1000, () => beats++);
  await new Promise((resolve) => setTimeout(resolve, 50));
  stop();
  stop();
  assert.equal(beats, 0);
});

Deno.test("the redactor's copy equals an Object.fromEntries copy, an own __proto__ key included", () => {
  const redact = (text: string) => text.replaceAll("s3cr3t", "***");
  const reference = (v: unknown): unknown => {
    if (typeof v === "string") return redact(v);
    if (Array.isArray(v)) return v.map(reference);
    if (typeof v === "object" && v !== null) {
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) return v;
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, reference(x)]));
    }
    return v;
  };
  const value = JSON.parse(
    '{"content":[{"type":"text","text":"a s3cr3t"}],"__proto__":{"polluted":"s3cr3t"},' +
      '"n":1,"b":null,"list":[1,"s3cr3t",[true]],"s3cr3t":"key kept"}',
  );
  const scrubbed = scrubValue(value, redact) as Record<string, unknown>;
  assert.deepEqual(scrubbed, reference(value));
  assert.equal(Object.getPrototypeOf(scrubbed), Object.prototype);
  assert.ok(Object.hasOwn(scrubbed, "__proto__"));
  assert.equal(JSON.stringify(scrubbed), JSON.stringify(reference(value)));
  const date = new Date(0);
  assert.equal(scrubValue({ date }, redact).date, date);
});
