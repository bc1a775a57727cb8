import assert from "node:assert/strict";
import {
  type AuthEntry,
  AuthError,
  defaultTokenStorePath,
  FileTokenStore,
  MemoryTokenStore,
  type TokenStore,
} from "../../../run/auth/mod.ts";

const S1 = "https://one.example/mcp";
const S2 = "https://two.example/mcp";

function entry(server: string, issuer: string, updatedAt: number, token = "tok"): AuthEntry {
  return {
    server,
    issuer,
    tokens: { access_token: `${token}-${issuer}`, token_type: "Bearer" },
    updatedAt,
  };
}

async function contract(store: TokenStore): Promise<void> {
  assert.equal(await store.get(S1), undefined);
  await store.set(entry(S1, "https://as-a.example", 1));
  await store.set(entry(S1, "https://as-b.example", 2));
  await store.set(entry(S2, "https://as-a.example", 3));
  // One entry per server and issuer; without an issuer, the newest of the server.
  assert.equal((await store.get(S1, "https://as-a.example"))?.issuer, "https://as-a.example");
  assert.equal((await store.get(S1))?.issuer, "https://as-b.example");
  assert.equal((await store.list()).length, 3);
  // Replacing keeps one entry.
  await store.set(entry(S1, "https://as-a.example", 4, "new"));
  assert.equal((await store.list()).length, 3);
  assert.equal(
    (await store.get(S1, "https://as-a.example"))?.tokens?.access_token,
    "new-https://as-a.example",
  );
  assert.equal(await store.delete(S1, "https://as-b.example"), 1);
  assert.equal(await store.delete(S1), 1);
  assert.equal(await store.delete(S1), 0);
  assert.deepEqual((await store.list()).map((e) => e.server), [S2]);
}

Deno.test("the memory store keeps one entry per server and issuer", async () => {
  await contract(new MemoryTokenStore());
});

Deno.test("the file store keeps one entry per server and issuer across instances", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await contract(new FileTokenStore(`${dir}/a/tokens.json`));
    // A second instance reads what the first wrote.
    assert.deepEqual(
      (await new FileTokenStore(`${dir}/a/tokens.json`).list()).map((e) => e.server),
      [S2],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "the token file is mode 0600 in a 0700 directory, even when it was wider before",
  ignore: Deno.build.os === "windows",
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const path = `${dir}/cfg/toolfoundation/tokens.json`;
      const store = new FileTokenStore(path);
      await store.set(entry(S1, "https://as.example", 1));
      assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
      assert.equal((await Deno.stat(`${dir}/cfg/toolfoundation`)).mode! & 0o777, 0o700);
      await Deno.chmod(path, 0o644);
      await store.set(entry(S1, "https://as.example", 2));
      assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
      // No temporary file is left behind (atomic replace); the lock file stays, mode 0600.
      const names = [...Deno.readDirSync(`${dir}/cfg/toolfoundation`)].map((e) => e.name);
      assert.deepEqual(names.sort(), ["tokens.json", "tokens.json.lock"]);
      assert.equal((await Deno.stat(`${path}.lock`)).mode! & 0o777, 0o600);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("concurrent writes of one file store all land", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const store = new FileTokenStore(`${dir}/tokens.json`);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.set(entry(`https://s${i}.example/mcp`, "i", i))),
    );
    assert.equal((await store.list()).length, 20);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a corrupt token file is an AuthError that quotes none of its content", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/tokens.json`;
    await Deno.writeTextFile(path, '{"version":1,"entries":[{"access_token":"secret-abc-123"');
    await assert.rejects(new FileTokenStore(path).list(), (e: unknown) => {
      assert.ok(e instanceof AuthError);
      assert.equal(e.code, "auth_failed");
      assert.ok(!e.message.includes("secret-abc-123"));
      assert.match(e.message, /delete it and log in again/);
      return true;
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the default token path follows TOOLFOUNDATION_TOKEN_STORE, XDG_CONFIG_HOME, HOME", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assert.equal(
    defaultTokenStorePath({
      env: env({ TOOLFOUNDATION_TOKEN_STORE: "/t/x.json", HOME: "/h" }),
      os: "linux",
    }),
    "/t/x.json",
  );
  assert.equal(
    defaultTokenStorePath({ env: env({ XDG_CONFIG_HOME: "/x", HOME: "/h" }), os: "linux" }),
    "/x/toolfoundation/tokens.json",
  );
  assert.equal(
    defaultTokenStorePath({ env: env({ HOME: "/h" }), os: "darwin" }),
    "/h/.config/toolfoundation/tokens.json",
  );
  assert.equal(
    defaultTokenStorePath({ env: env({ APPDATA: "C:\\U\\AppData\\Roaming" }), os: "windows" }),
    "C:\\U\\AppData\\Roaming\\toolfoundation\\tokens.json",
  );
  assert.throws(() => defaultTokenStorePath({ env: env({}), os: "linux" }), AuthError);
});

const WRITER = new URL("../../fixtures/auth/token_store_writer.ts", import.meta.url).pathname;

function writer(args: string[], stdout: "piped" | "null" = "null"): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--allow-read", "--allow-write", WRITER, ...args],
    stdin: "null",
    stdout,
    stderr: "piped",
  }).spawn();
}

Deno.test("eight processes writing one file store at once keep every entry (five rounds)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (let round = 0; round < 5; round++) {
      const path = `${dir}/r${round}/tokens.json`;
      const children = Array.from({ length: 8 }, (_, n) => writer(["set", path, String(n), "3"]));
      const outputs = await Promise.all(children.map((c) => c.output()));
      for (const out of outputs) {
        assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
      }
      const entries = await new FileTokenStore(path).list();
      const keys = entries.map((e) => `${e.server} ${e.issuer}`).sort();
      const expected = Array.from(
        { length: 8 },
        (_, n) => [0, 1, 2].map((i) => `https://s${n}.example/mcp https://as${i}.example`),
      ).flat().sort();
      assert.deepEqual(keys, expected, `round ${round}`);
      const names = [...Deno.readDirSync(`${dir}/r${round}`)].map((e) => e.name).sort();
      assert.deepEqual(names, ["tokens.json", "tokens.json.lock"], `round ${round}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

async function holdLock(path: string): Promise<Deno.ChildProcess> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  const child = writer(["hold", path], "piped");
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("locked")) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the lock holder exited before locking: ${text}`);
    text += value;
  }
  reader.releaseLock();
  return child;
}

Deno.test("a write waits for another process's lock, then fails loudly past its deadline", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/tokens.json`;
  const holder = await holdLock(path);
  try {
    const store = new FileTokenStore(path, { lockTimeoutMs: 300 });
    const started = Date.now();
    await assert.rejects(store.set(entry(S1, "https://as.example", 1)), (e: unknown) => {
      assert.ok(e instanceof AuthError);
      assert.equal(e.code, "auth_failed");
      assert.match(e.message, /tokens\.json\.lock is held by another process/);
      return true;
    });
    assert.ok(Date.now() - started >= 250, "it waited for the lock");
    // Nothing was written while another process held the lock.
    assert.deepEqual(await store.list(), []);
  } finally {
    holder.kill("SIGKILL");
    await holder.status;
    await holder.stdout.cancel().catch(() => {});
    await holder.stderr.cancel();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a lock left by a killed process does not block the next write", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/tokens.json`;
  try {
    const holder = await holdLock(path);
    holder.kill("SIGKILL");
    await holder.status;
    await holder.stdout.cancel().catch(() => {});
    await holder.stderr.cancel();
    const store = new FileTokenStore(path, { lockTimeoutMs: 2_000 });
    await store.set(entry(S1, "https://as.example", 1));
    assert.equal((await store.list()).length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
