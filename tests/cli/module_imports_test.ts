// Module tools import code only from the lockfile and the cache, through the
// CLI: with no `net` grant a loopback module is refused, with it it loads (the
// library side is tested in tests/run/module/module_imports_test.ts).
import assert from "node:assert/strict";
import { cli, flagsFor, tempManifest } from "./_cli.ts";

/** A tool that imports `args.spec` and returns the export names (and `x`). */
const IMPORTER = `export default async (args) => {
  const m = await import(args.spec);
  return { keys: Object.keys(m).sort(), x: m.x ?? null };
};
`;

/** A loopback server answering every path with a JS module exporting `x = 42`. */
function moduleServer(): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () =>
      new Response("export const x = 42;\n", {
        headers: { "content-type": "application/javascript" },
      }),
  );
}

/** A new empty directory, removed on dispose. */
async function emptyDir(): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.makeTempDir({ prefix: "tf-deno-dir-" });
  return {
    path,
    [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }).catch(() => {}),
  };
}

Deno.test("CLI: a module tool with no net grant cannot import from a loopback server; with it, it can", async () => {
  await using server = moduleServer();
  const host = `127.0.0.1:${server.addr.port}`;
  const manifest = await tempManifest(
    [
      "version: 1",
      "tools:",
      "  - { name: closed, module: ./importer.js, inputSchema: { type: object } }",
      `  - { name: open, module: ./importer.js, inputSchema: { type: object }, permissions: { net: ['${host}'] } }`,
    ].join("\n"),
    { "importer.js": IMPORTER },
  );
  const flags = await flagsFor(manifest);
  await using cache = await emptyDir();
  const env = { DENO_DIR: cache.path };
  const args = JSON.stringify({ spec: `http://${host}/x.js` });
  const closed = await cli(["run", manifest, "closed", "--args", args], { flags, env });
  assert.equal(closed.code, 1, closed.stderr);
  assert.match(
    closed.stderr,
    /tool "closed".*cannot import http:\/\/127\.0\.0\.1:\d+\/x\.js: it is not in the cache/,
  );
  assert.match(closed.stderr, new RegExp(`add "${host}" to permissions\\.net of tool "closed"`));
  const open = await cli(["run", manifest, "open", "--args", args], { flags, env });
  assert.equal(open.code, 0, open.stderr);
  assert.deepEqual(JSON.parse(open.stdout), { keys: ["x"], x: 42 });
});
