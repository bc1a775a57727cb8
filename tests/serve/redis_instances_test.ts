// Two `serve --http --sessions --state redis://...` processes sharing one real
// redis-server (as two instances behind a load balancer): a session and its
// stream events continue from one to the other, a principal's session quota
// and DELETE hold on both; Redis killed mid-run gives clear 503s (no hang)
// and serve recovers once Redis is back, without a restart. At start, a
// Redis that does not answer or a missing --allow-net stops serve.

import assert from "node:assert/strict";
import { join } from "node:path";
import { parse, parseAllDocuments } from "yaml";
import { cli } from "../cli/_cli.ts";
import { type Served, startHttp } from "./_helpers.ts";
import { mustOpen, openSession, post, sessionRequest } from "./_session_helpers.ts";
import { type RedisServer, startRedis } from "./state/_redis_server.ts";

const TOKEN_A = "token-of-a-0123456789abcdef";
const TOKEN_B = "token-of-b-0123456789abcdef";
const TOKENS = ["--token-env", "TOKEN_A", "--token-env", "TOKEN_B"];

/** A manifest with `add` and `steps` (a module tool that reports progress three times). */
async function manifest(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "tf-redis-serve-" });
  await Deno.writeTextFile(
    join(dir, "steps.ts"),
    `export default function (_args: unknown, ctx: { progress(u: unknown): void }) {
  for (let i = 1; i <= 3; i++) ctx.progress({ progress: i, total: 3 });
  return { done: true };
}
`,
  );
  const path = join(dir, "tools.yaml");
  await Deno.writeTextFile(
    path,
    `version: 1
tools:
  - { name: add, builtin: calculate }
  - { name: steps, module: steps.ts, inputSchema: { type: object } }
`,
  );
  return path;
}

let nextId = 100;
const call = (name: string, args: Record<string, unknown>, progress = false) => ({
  jsonrpc: "2.0",
  id: nextId++,
  method: "tools/call",
  params: { name, arguments: args, ...(progress ? { _meta: { progressToken: "p" } } : {}) },
});
const ADD = { operation: "add", a: 2, b: 3 };

async function twoInstances(
  redis: RedisServer,
  extra: string[],
): Promise<{ one: Served; two: Served; close(): Promise<void> }> {
  const path = await manifest();
  const args = ["--sessions", ...TOKENS, "--state", redis.url, ...extra];
  const options = { manifest: path, env: { TOKEN_A, TOKEN_B } };
  const [one, two] = await Promise.all([startHttp(args, options), startHttp(args, options)]);
  return {
    one,
    two,
    async close() {
      await Promise.all([one.close(), two.close()]);
      await Deno.remove(join(path, ".."), { recursive: true });
    },
  };
}

Deno.test("serve --state redis: a session, its stream events, its owner's quota and its DELETE hold across two instances", async () => {
  await using redis = await startRedis();
  const { one, two, close } = await twoInstances(redis, ["--max-sessions-per-principal", "2"]);
  try {
    // Opened on one, used on the other with the same Mcp-Session-Id.
    const id = await mustOpen(one.url, TOKEN_A);
    const there = await post(two.url, call("add", ADD), TOKEN_A, id);
    assert.equal(there.status, 200, there.text);
    assert.match(there.text, /\\"result\\":5/);
    // Another principal still gets 404 on the other instance.
    assert.equal((await post(two.url, call("add", ADD), TOKEN_B, id)).status, 404);

    // Stream events stored by one are replayed by the other after a Last-Event-ID.
    const stream = await post(one.url, call("steps", {}, true), TOKEN_A, id);
    assert.equal(stream.status, 200, stream.text);
    const ids = [...stream.text.matchAll(/^id: ?(.+)$/gm)].map((m) => m[1]);
    assert.ok(ids.length >= 4, `three progress events and the result, got:\n${stream.text}`);
    const replay = await sessionRequest(two.url, "GET", TOKEN_A, id, { "last-event-id": ids[0] });
    assert.equal(replay.status, 200, replay.text);
    const replayed = [...replay.text.matchAll(/^id: ?(.+)$/gm)].map((m) => m[1]);
    assert.deepEqual(replayed, ids.slice(1));
    assert.match(replay.text, /"progress":3/);
    assert.match(replay.text, /\\"done\\":true/);

    // The quota of 2 counts sessions opened on either instance.
    await mustOpen(two.url, TOKEN_A);
    const third = await openSession(one.url, TOKEN_A);
    assert.ok(!("id" in third), "a third session of A was opened");
    assert.equal(third.status, 429, third.text);
    assert.ok("id" in await openSession(one.url, TOKEN_B), "B has its own quota");

    // DELETE on one instance ends the session on the other.
    assert.equal((await sessionRequest(one.url, "DELETE", TOKEN_A, id)).status, 200);
    assert.equal((await post(two.url, call("add", ADD), TOKEN_A, id)).status, 404);
    assert.ok("id" in await openSession(two.url, TOKEN_A), "the DELETE freed a slot of A");
  } finally {
    await close();
  }
});

Deno.test("serve --state redis: Redis killed mid-run answers 503 naming it, at once; serve recovers when it is back", async () => {
  await using redis = await startRedis();
  const { one, two, close } = await twoInstances(redis, []);
  try {
    const id = await mustOpen(one.url, TOKEN_A);
    await redis.kill();
    for (const served of [one, two]) {
      const t0 = Date.now();
      const failed = await post(served.url, call("add", ADD), TOKEN_A, id);
      const took = Date.now() - t0;
      assert.equal(failed.status, 503, failed.text);
      assert.match(failed.text, /"jsonrpc":"2.0"/);
      assert.match(
        failed.text,
        new RegExp(`Redis at 127\\.0\\.0\\.1:${redis.port} is unreachable`),
      );
      assert.ok(took < 3000, `the 503 took ${took} ms`);
      // Opening a session fails the same way (it needs the store too).
      assert.equal((await openSession(served.url, TOKEN_B) as { status: number }).status, 503);
    }
    await redis.restart(); // empty: the old session is gone, serve is not restarted
    let reopened: string | undefined;
    const deadline = Date.now() + 10_000;
    while (reopened === undefined && Date.now() < deadline) {
      const opened = await openSession(two.url, TOKEN_A);
      if ("id" in opened) reopened = opened.id;
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.ok(reopened !== undefined, "no session could be opened after Redis came back");
    const after = await post(one.url, call("add", ADD), TOKEN_A, reopened);
    assert.equal(after.status, 200, after.text);
    assert.equal((await post(one.url, call("add", ADD), TOKEN_A, id)).status, 404);
  } finally {
    await close();
  }
});

Deno.test("serve --state redis with no Redis there exits 1 at start, naming the address and what to check", async () => {
  const port = (() => {
    const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const p = (l.addr as Deno.NetAddr).port;
    l.close();
    return p;
  })();
  const path = await manifest();
  try {
    const t0 = Date.now();
    const out = await cli(
      [
        "serve",
        path,
        "--http",
        "127.0.0.1:0",
        "--sessions",
        "--state",
        `redis://127.0.0.1:${port}`,
      ],
      { flags: ["-A"] },
    );
    assert.equal(out.code, 1, out.stderr);
    assert.match(out.stderr, new RegExp(`--state redis://127\\.0\\.0\\.1:${port}: Redis at`));
    assert.match(out.stderr, /is unreachable .*check that redis-server runs there/);
    assert.match(out.stderr, /serve did not start/);
    assert.ok(Date.now() - t0 < 15_000, `serve took ${Date.now() - t0} ms to give up`);
  } finally {
    await Deno.remove(join(path, ".."), { recursive: true });
  }
});

Deno.test("serve --state redis without --allow-net for it exits 3 naming the flag; --state misused exits 2", async () => {
  const path = await manifest();
  try {
    const missing = await cli(
      ["serve", path, "--http", "127.0.0.1:0", "--state", "redis://127.0.0.1:6399"],
      { flags: [`--allow-read=${join(path, "..")}`, "--allow-net=127.0.0.1:0"] },
    );
    assert.equal(missing.code, 3, missing.stderr);
    assert.match(
      missing.stderr,
      /--allow-net=127\.0\.0\.1:6399 +\(the state store \(serve --state\)\)/,
    );
    for (
      const [args, message] of [
        [["--http", "127.0.0.1:0", "--state", "redis://u:p@h:1"], /--state: .*redis:\/\/HOST:PORT/],
        [["--http", "127.0.0.1:0", "--state", "postgres://h:1"], /memory \(the default\) or redis/],
        [["--stdio", "--state", "redis://h:1"], /--state applies to --http only/],
        [["--http", "127.0.0.1:0", "--state-prefix", "x:"], /--state redis:\/\/ only/],
      ] as const
    ) {
      const out = await cli(["serve", path, ...args], { flags: ["-A"] });
      assert.equal(out.code, 2, `${args.join(" ")}: ${out.stderr}`);
      assert.match(out.stderr, message);
    }
  } finally {
    await Deno.remove(join(path, ".."), { recursive: true });
  }
});

Deno.test("the deploy files run serve with Redis under exactly the flags permissions prints for it", async () => {
  const printed = await cli([
    "permissions",
    "examples/tools.yaml",
    "--serve",
    "--http",
    "0.0.0.0:8080",
    "--token-env",
    "MCP_TOKEN",
    "--state",
    "redis://redis:6379",
  ], { flags: ["--allow-read"] });
  assert.equal(printed.code, 0, printed.stderr);
  const want = printed.stdout.split("\n")[0].split(" ").filter((f) => f.startsWith("--allow-"));
  assert.ok(want.includes("--allow-net=0.0.0.0:8080,redis:6379"), printed.stdout);
  const without = await cli(
    ["permissions", "examples/tools.yaml", "--state", "redis://redis:6379"],
    {
      flags: ["--allow-read"],
    },
  );
  assert.equal(without.code, 2, without.stderr);
  assert.match(without.stderr, /--state plans for serve: add --serve/);
  const root = new URL("../../docs/deploy/", import.meta.url);
  const compose = parse(await Deno.readTextFile(new URL("compose.yaml", root))) as {
    services: Record<string, { entrypoint?: string[] }>;
  };
  const k8s = parseAllDocuments(await Deno.readTextFile(new URL("kubernetes.yaml", root)))
    .map((d) => d.toJS())
    .find((d) => d.metadata?.name === "toolfoundation" && d.kind === "Deployment");
  const lines = [
    compose.services["serve-a"].entrypoint!,
    compose.services["serve-b"].entrypoint!,
    k8s.spec.template.spec.containers[0].command as string[],
  ];
  assert.ok(k8s.spec.replicas > 1, "several replicas");
  for (const line of lines) {
    assert.deepEqual(line.filter((f) => f.startsWith("--allow-") && f !== "--allow-host"), want);
    const at = line.indexOf("--state");
    assert.equal(line[at + 1], "redis://redis:6379");
    assert.ok(line.includes("--sessions"));
  }
});
