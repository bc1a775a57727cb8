// RedisStateStore against a real redis-server (tests/serve/state/_redis_server.ts):
// the shared StateStore contract, two stores (as two serve instances) sharing
// one Redis, and Redis misbehaving: absent, killed mid-run, hung, holding
// keys that are not serve's.

import assert from "node:assert/strict";
import { RedisStateStore, type StateLimits, StateStoreError } from "../../../serve/mod.ts";
import { stateStoreContract } from "./_contract.ts";
import { type RedisServer, startRedis } from "./_redis_server.ts";

const INIT = { jsonrpc: "2.0", id: 0, method: "initialize", params: {} };
const record = (id: string, principal: string) => ({
  id,
  principal,
  initialize: INIT,
  createdAt: Date.now(),
});

// One redis-server per contract case: closing the store stops it.
stateStoreContract("redis", async (limits: StateLimits) => {
  const redis = await startRedis();
  const store = await RedisStateStore.open(redis.url, { limits });
  const close = store.close.bind(store);
  store.close = async () => {
    await close();
    await redis.stop();
  };
  return store;
}, { sanitize: false });

async function withRedis(fn: (redis: RedisServer) => Promise<void>): Promise<void> {
  const redis = await startRedis();
  try {
    await fn(redis);
  } finally {
    await redis.stop();
  }
}

async function rejection(promise: Promise<unknown>): Promise<StateStoreError> {
  const error = await promise.then(() => undefined, (e) => e);
  assert.ok(error instanceof StateStoreError, `expected a StateStoreError, got ${error}`);
  return error;
}

/** The keys Redis holds (redis-cli, as an operator would look). */
async function keys(redis: RedisServer): Promise<string[]> {
  const out = await new Deno.Command("redis-cli", {
    args: ["-p", String(redis.port), "--scan"],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).split("\n").filter((k) => k !== "").sort();
}

const test = (name: string, fn: () => Promise<void>) =>
  Deno.test({ name, sanitizeOps: false, sanitizeResources: false, fn });

test("two redis stores on one Redis share sessions, quotas, events and rates", async () => {
  await withRedis(async (redis) => {
    const limits = { sessionsPerPrincipal: 2 };
    const one = await RedisStateStore.open(redis.url, { limits });
    const two = await RedisStateStore.open(redis.url, { limits });
    try {
      assert.notEqual(await one.createSession(record("s1", "alice")), "quota");
      assert.equal((await two.touchSession("s1"))?.principal, "alice");
      assert.notEqual(await two.createSession(record("s2", "alice")), "quota");
      assert.equal(await one.createSession(record("s3", "alice")), "quota");
      const first = await one.appendEvent("s1", "st", { n: 1 });
      const second = await two.appendEvent("s1", "st", { n: 2 });
      assert.deepEqual(await two.eventsAfter(first), {
        sessionId: "s1",
        streamId: "st",
        events: [{ id: second, message: { n: 2 } }],
      });
      assert.equal(await one.hit("alice", 60_000), 1);
      assert.equal(await two.hit("alice", 60_000), 2);
      await two.deleteSession("s1");
      assert.equal(await one.touchSession("s1"), undefined);
      assert.equal(await one.eventsAfter(first), undefined);
      assert.equal(await one.countSessions("alice"), 1);
    } finally {
      await one.close();
      await two.close();
    }
  });
});

test("redis store: deleting a session leaves no key of it, and key prefixes separate stores", async () => {
  await withRedis(async (redis) => {
    const a = await RedisStateStore.open(redis.url, { keyPrefix: "a:" });
    const b = await RedisStateStore.open(redis.url, { keyPrefix: "b:" });
    try {
      await a.createSession(record("s1", "alice"));
      await a.appendEvent("s1", "st", { n: 1 });
      assert.equal(await b.touchSession("s1"), undefined);
      assert.equal(await b.countSessions("alice"), 0);
      assert.ok((await keys(redis)).every((k) => k.startsWith("a:")));
      assert.ok((await keys(redis)).includes("a:e:s1"));
      await a.deleteSession("s1");
      // Only the shared counters are left, holding nothing.
      assert.deepEqual(await keys(redis), ["a:g:bytes", "a:g:seq"]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

test("redis store with nothing listening: ping rejects unavailable, naming the address", async () => {
  const port = (() => {
    const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const p = (l.addr as Deno.NetAddr).port;
    l.close();
    return p;
  })();
  const store = await RedisStateStore.open(`redis://127.0.0.1:${port}`, { connectTimeoutMs: 300 });
  try {
    const started = Date.now();
    const error = await rejection(store.ping());
    assert.equal(error.code, "unavailable");
    assert.match(error.message, new RegExp(`Redis at 127\\.0\\.0\\.1:${port} is unreachable`));
    assert.match(error.message, /redis-server runs there/);
    assert.ok(error.cause !== undefined, "the connection error is kept as cause");
    assert.ok(Date.now() - started < 2000, `ping took ${Date.now() - started} ms`);
    // A call fails at once too, it does not wait for a connection.
    const t0 = Date.now();
    assert.equal((await rejection(store.hit("alice", 1000))).code, "unavailable");
    assert.ok(Date.now() - t0 < 500, `a call took ${Date.now() - t0} ms while Redis is down`);
  } finally {
    await store.close();
  }
});

test("redis store: Redis killed mid-run gives unavailable at once, and it recovers when Redis is back", async () => {
  await withRedis(async (redis) => {
    const store = await RedisStateStore.open(redis.url);
    try {
      await store.ping();
      assert.equal(await store.hit("alice", 60_000), 1);
      await redis.kill();
      const t0 = Date.now();
      for (let i = 0; i < 3; i++) {
        const error = await rejection(store.hit("alice", 60_000));
        assert.equal(error.code, "unavailable");
        assert.match(error.message, /is unreachable/);
      }
      assert.ok(Date.now() - t0 < 2000, `three calls took ${Date.now() - t0} ms`);
      await redis.restart();
      await store.ping(); // waits for the reconnection
      assert.equal(await store.hit("alice", 60_000), 1, "a fresh Redis counts from 1");
      await store.createSession(record("s1", "alice"));
      assert.equal((await store.touchSession("s1"))?.id, "s1");
    } finally {
      await store.close();
    }
  });
});

test("redis store: a hung Redis (SIGSTOP) fails a call after the command timeout, not never", async () => {
  await withRedis(async (redis) => {
    const store = await RedisStateStore.open(redis.url, { commandTimeoutMs: 300 });
    const pid = Number(
      new TextDecoder().decode(
        (await new Deno.Command("redis-cli", {
          args: ["-p", String(redis.port), "info", "server"],
          stdout: "piped",
        }).output()).stdout,
      ).match(/process_id:(\d+)/)?.[1],
    );
    try {
      await store.ping();
      Deno.kill(pid, "SIGSTOP");
      const t0 = Date.now();
      const error = await rejection(store.touchSession("s1"));
      assert.equal(error.code, "unavailable");
      assert.match(error.message, /no answer in 300 ms/);
      const took = Date.now() - t0;
      assert.ok(took >= 250 && took < 1500, `the call failed after ${took} ms`);
    } finally {
      Deno.kill(pid, "SIGCONT");
      await store.close();
    }
  });
});

test("redis store: keys under its prefix that are not serve's give bad_data", async () => {
  await withRedis(async (redis) => {
    const store = await RedisStateStore.open(redis.url, { keyPrefix: "x:" });
    try {
      await new Deno.Command("redis-cli", {
        args: ["-p", String(redis.port), "set", "x:s:s1", "not a hash"],
        stdout: "null",
      }).output();
      const error = await rejection(store.touchSession("s1"));
      assert.equal(error.code, "bad_data");
      assert.match(error.message, /prefix/);
    } finally {
      await store.close();
    }
  });
});

test("redis store refuses a malformed URL with bad_option, before loading anything", async () => {
  for (const url of ["redis://", "http://127.0.0.1:6379", "redis://:pw@h:1", "redis://h:1/2"]) {
    const error = await rejection(RedisStateStore.open(url));
    assert.equal(error.code, "bad_option", url);
    assert.match(error.message, /redis:\/\/HOST:PORT/);
  }
});

test("a closed redis store rejects with closed", async () => {
  await withRedis(async (redis) => {
    const store = await RedisStateStore.open(redis.url);
    await store.ping();
    await store.close();
    assert.equal((await rejection(store.countSessions("a"))).code, "closed");
  });
});

test("redis store: while Redis is down, each call's error gives the connection's failure as reason", async () => {
  await withRedis(async (redis) => {
    const store = await RedisStateStore.open(redis.url);
    try {
      await store.ping();
      await redis.kill();
      await rejection(store.hit("a", 1000)); // the call that meets the lost connection
      // Once a reconnection attempt has failed (soon; later on a loaded machine),
      // calls name that failure.
      const refused = /is unreachable \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)/;
      let error = await rejection(store.hit("a", 1000));
      for (let i = 0; i < 50 && !refused.test(error.message); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        error = await rejection(store.hit("a", 1000));
      }
      assert.match(error.message, refused);
    } finally {
      await store.close();
    }
  });
});
