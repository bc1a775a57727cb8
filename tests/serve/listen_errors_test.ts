import assert from "node:assert/strict";
import { Runner } from "../../run/mod.ts";
import { bearerAuth, Gateway, ServeError, serveHttp } from "../../serve/mod.ts";
import { caEnv, CLI, MANIFEST, ROOT } from "./_helpers.ts";

async function pingGateway(): Promise<Gateway> {
  const runner = new Runner();
  runner.addLocalTool({ name: "ping", inputSchema: { type: "object" } }, () => "pong");
  return await Gateway.create(runner);
}

Deno.test("serveHttp on a port another listener holds names the address and keeps Deno's error", async () => {
  const holder = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (holder.addr as Deno.NetAddr).port;
  const gateway = await pingGateway();
  try {
    const error = await serveHttp(gateway, { port }).then(
      () => assert.fail("listening on a held port succeeded"),
      (error: unknown) => error,
    );
    assert.ok(error instanceof ServeError);
    assert.equal(error.code, "listen_failed");
    assert.match(
      error.message,
      new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: the address is already in use`),
    );
    assert.match(error.message, /--http 127\.0\.0\.1:PORT/);
    assert.ok(error.cause instanceof Deno.errors.AddrInUse);
  } finally {
    holder.close();
    await gateway.close();
  }
});

Deno.test("serveHttp without the net permission for its address names the address and the flag", async () => {
  const gateway = await pingGateway();
  try {
    // These tests run with --allow-net=127.0.0.1 only.
    await assert.rejects(
      () =>
        serveHttp(gateway, {
          hostname: "192.0.2.7",
          port: 0,
          auth: bearerAuth({ T: "t0ken-for-the-test" }),
        }),
      (error: unknown) => {
        assert.ok(error instanceof ServeError, String(error));
        assert.equal(error.code, "listen_failed");
        assert.match(error.message, /^cannot listen on 192\.0\.2\.7:0: .*--allow-net/);
        assert.ok(
          error.cause instanceof Deno.errors.NotCapable ||
            error.cause instanceof Deno.errors.PermissionDenied,
        );
        return true;
      },
    );
  } finally {
    await gateway.close();
  }
});

Deno.test("serve --http on a held port exits 1 and names the address on stderr", async () => {
  const holder = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (holder.addr as Deno.NetAddr).port;
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", CLI, "serve", MANIFEST, "--http", `127.0.0.1:${port}`],
      cwd: ROOT,
      stdin: "null",
      env: caEnv(),
      clearEnv: true,
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 1, stderr);
    assert.match(
      stderr,
      new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: the address is already in use`),
    );
    assert.doesNotMatch(stderr, /os error 98\)$/m);
  } finally {
    holder.close();
  }
});

Deno.test("serve --http on an address no interface has exits 1 and says so", async () => {
  // 192.0.2.0/24 is TEST-NET-1: never assigned to a machine.
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      CLI,
      "serve",
      MANIFEST,
      "--http",
      "192.0.2.7:0",
      "--token-env",
      "LISTEN_TEST_TOKEN",
    ],
    cwd: ROOT,
    stdin: "null",
    env: { ...caEnv(), LISTEN_TEST_TOKEN: "t0ken-for-the-listen-test" },
    clearEnv: true,
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 1, stderr);
  assert.match(
    stderr,
    /cannot listen on 192\.0\.2\.7:0: no interface of this machine has the address 192\.0\.2\.7/,
  );
});
