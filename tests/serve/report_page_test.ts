// serve --http --report: the schema-loss page at /report, behind the same
// authentication as /mcp (401 without the token), self-contained (a CSP that
// lets nothing load), with the served tools (the upstream's included).
import assert from "node:assert/strict";
import { startHttp } from "./_helpers.ts";

Deno.test("serve --report: /report needs the token (401 without), then answers the page with every served tool", async () => {
  const token = "report-token-0123456789abcdef";
  const served = await startHttp(["--report", "--token-env", "SERVE_TOKEN"], {
    env: { SERVE_TOKEN: token, SOURCE_DATE_EPOCH: "1767225600" },
  });
  try {
    const page = new URL("/report", served.url);
    const denied = await fetch(page);
    assert.equal(denied.status, 401);
    await denied.body?.cancel();
    const wrong = await fetch(page, { headers: { authorization: "Bearer not-it" } });
    assert.equal(wrong.status, 401);
    await wrong.body?.cancel();
    const ok = await fetch(page, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get("content-type"), "text/html; charset=utf-8");
    assert.match(ok.headers.get("content-security-policy") ?? "", /default-src 'none'/);
    const html = await ok.text();
    assert.match(html, /^<!DOCTYPE html>/);
    assert.match(html, /Schema loss report: <span id="manifest-name">manifest\.yaml<\/span>/);
    assert.match(html, /datetime="2026-01-01T00:00:00.000Z"/);
    for (const id of ['"id":"add"', '"id":"greet"', '"id":"up:echo"']) {
      assert.ok(html.includes(id), id);
    }
    assert.doesNotMatch(html, /hidden_admin/, "a tool serve does not serve is not in its report");
    const post = await fetch(page, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get("allow"), "GET, HEAD");
    await post.body?.cancel();
    assert.match(served.stderr(), /schema-loss report at http:\/\/127\.0\.0\.1:\d+\/report/);
  } finally {
    await served.close();
  }
});

Deno.test("serve without --report: /report is not found", async () => {
  const served = await startHttp();
  try {
    const response = await fetch(new URL("/report", served.url));
    assert.equal(response.status, 404);
    await response.body?.cancel();
  } finally {
    await served.close();
  }
});
