import assert from "node:assert/strict";
import {
  AuthError,
  browserCommand,
  browserOpener,
  startLoopbackReceiver,
} from "../../../run/auth/mod.ts";

async function get(url: string): Promise<number> {
  const response = await fetch(url);
  await response.body?.cancel();
  return response.status;
}

Deno.test("the loopback receiver listens on 127.0.0.1 and hands over code and iss", async () => {
  const receiver = await startLoopbackReceiver();
  try {
    assert.match(receiver.redirectUrl, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const waiting = receiver.wait("st-1", { timeoutMs: 10_000 });
    assert.equal(await get(`${receiver.redirectUrl}?code=c1&state=st-1&iss=https%3A%2F%2Fas`), 200);
    assert.deepEqual(await waiting, { code: "c1", iss: "https://as" });
  } finally {
    await receiver.close();
  }
});

Deno.test("the loopback receiver is one-shot: a second response finds nobody waiting", async () => {
  const receiver = await startLoopbackReceiver();
  try {
    const waiting = receiver.wait("st-1", { timeoutMs: 10_000 });
    await get(`${receiver.redirectUrl}?code=c1&state=st-1`);
    await waiting;
    assert.equal(await get(`${receiver.redirectUrl}?code=c2&state=st-1`), 409);
    assert.equal(await get(`${receiver.redirectUrl.replace("/callback", "/other")}?code=c`), 404);
  } finally {
    await receiver.close();
  }
});

Deno.test("a response with another state fails the wait", async () => {
  const receiver = await startLoopbackReceiver();
  try {
    const waiting = receiver.wait("st-1", { timeoutMs: 10_000 });
    const failed = assert.rejects(waiting, (e: unknown) => {
      assert.ok(e instanceof AuthError);
      assert.match(e.message, /state does not match/);
      assert.ok(!e.message.includes("c-secret-code"), "the code is not quoted");
      return true;
    });
    assert.equal(await get(`${receiver.redirectUrl}?code=c-secret-code&state=evil`), 400);
    await failed;
  } finally {
    await receiver.close();
  }
});

Deno.test("an error response from the authorization server fails the wait with its reason", async () => {
  const receiver = await startLoopbackReceiver();
  try {
    const waiting = receiver.wait("st-1", { timeoutMs: 10_000 });
    const failed = assert.rejects(waiting, /refused the login: access_denied \(user said no\)/);
    await get(
      `${receiver.redirectUrl}?error=access_denied&error_description=user+said+no&state=st-1`,
    );
    await failed;
  } finally {
    await receiver.close();
  }
});

Deno.test("the wait times out, and an abort ends it", async () => {
  const receiver = await startLoopbackReceiver();
  try {
    await assert.rejects(receiver.wait("st", { timeoutMs: 50 }), /no authorization response/);
    const controller = new AbortController();
    const waiting = receiver.wait("st", { timeoutMs: 10_000, signal: controller.signal });
    controller.abort(new Error("stop"));
    await assert.rejects(waiting, /stop/);
  } finally {
    await receiver.close();
  }
});

Deno.test("the browser command per OS, none without a display", () => {
  const none = () => undefined;
  assert.deepEqual(browserCommand("https://a/x?y=1&z=2", "darwin", none), ["open", [
    "https://a/x?y=1&z=2",
  ]]);
  assert.deepEqual(browserCommand("https://a/x?y=1&z=2", "windows", none), [
    "rundll32",
    ["url.dll,FileProtocolHandler", "https://a/x?y=1&z=2"],
  ]);
  assert.equal(browserCommand("https://a/", "linux", none), undefined);
  assert.deepEqual(
    browserCommand("https://a/", "linux", (n) => n === "DISPLAY" ? ":0" : undefined),
    ["xdg-open", ["https://a/"]],
  );
});

Deno.test("the opener starts the browser, and prints the URL with --no-browser or without a display", async () => {
  const started: string[][] = [];
  const printed: string[] = [];
  const spawn = (program: string, args: string[]) => {
    started.push([program, ...args]);
    return Promise.resolve(true);
  };
  const url = new URL("https://as.example/authorize?state=s");
  await browserOpener({ os: "darwin", env: () => undefined, spawn, print: (t) => printed.push(t) })(
    url,
  );
  assert.deepEqual(started, [["open", url.href]]);
  await browserOpener({ noBrowser: true, os: "darwin", spawn, print: (t) => printed.push(t) })(url);
  await browserOpener({ os: "linux", env: () => undefined, spawn, print: (t) => printed.push(t) })(
    url,
  );
  assert.equal(started.length, 1, "no browser with --no-browser or without a display");
  assert.equal(printed.filter((t) => t.includes(url.href)).length, 3);
  // A browser that fails to start: the URL is printed.
  const failing = () => Promise.resolve(false);
  const lines: string[] = [];
  await browserOpener({ os: "darwin", spawn: failing, print: (t) => lines.push(t) })(url);
  assert.match(lines.join(""), /Open this URL/);
});
