// Module tools import code only from the lockfile and the cache: with no
// `net` grant nothing is downloaded (npm, jsr, https), with a `net` grant
// remote modules come only from the hosts it names. A refused import is
// `permission_denied` naming the rule and the grant that allows it.
import assert from "node:assert/strict";
import {
  checkModuleTool,
  moduleHandler,
  type ModuleHandlerOptions,
} from "../../../run/module/module_tool.ts";
import { type RunError, Runner } from "../../../run/mod.ts";

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

/** Runs `body` with DENO_DIR (which the tool's process inherits) set to a new, empty cache. */
async function withEmptyCache<T>(body: () => Promise<T>): Promise<T> {
  const before = Deno.env.get("DENO_DIR");
  const cache = await Deno.makeTempDir({ prefix: "tf-deno-dir-" });
  Deno.env.set("DENO_DIR", cache);
  try {
    return await body();
  } finally {
    if (before === undefined) Deno.env.delete("DENO_DIR");
    else Deno.env.set("DENO_DIR", before);
    await Deno.remove(cache, { recursive: true }).catch(() => {});
  }
}

async function withImporter<T>(
  options: ModuleHandlerOptions,
  body: (runner: Runner) => Promise<T>,
  source = IMPORTER,
): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "tf-mod-imports-" });
  await Deno.writeTextFile(`${dir}/importer.js`, source);
  const handler = moduleHandler(new URL(`file://${dir}/importer.js`), {
    onLog: () => {},
    dir,
    ...options,
  });
  const runner = new Runner({ timeoutMs: 60_000 });
  runner.addLocalTool({ name: "t", inputSchema: { type: "object" } }, handler);
  try {
    return await body(runner);
  } finally {
    await handler.close();
    await runner.close();
  }
}

async function failure(promise: Promise<unknown>): Promise<RunError> {
  try {
    await promise;
  } catch (error) {
    return error as RunError;
  }
  assert.fail("expected the run to fail");
}

Deno.test("a module tool without a net grant imports no http module, even from loopback", async () => {
  await using server = moduleServer();
  const url = `http://127.0.0.1:${server.addr.port}/x.js`;
  await withEmptyCache(() =>
    withImporter({}, async (runner) => {
      const error = await failure(runner.run("t", { spec: url }));
      assert.equal(error.code, "permission_denied", error.message);
      assert.match(
        error.message,
        /cannot import http:\/\/127\.0\.0\.1:\d+\/x\.js: it is not in the cache/,
      );
      assert.match(error.message, /a module tool without a network grant downloads nothing/);
      assert.match(
        error.message,
        new RegExp(`add "127\\.0\\.0\\.1:${server.addr.port}" to permissions\\.net of tool "t"`),
      );
    })
  );
});

Deno.test("a module tool without a net grant downloads no npm package and no esm.sh module", async () => {
  await withEmptyCache(() =>
    withImporter({}, async (runner) => {
      const npm = await failure(runner.run("t", { spec: "npm:left-pad@1.3.0" }));
      assert.equal(npm.code, "permission_denied", npm.message);
      assert.match(npm.message, /cannot import npm:left-pad: it is not in the cache/);
      assert.match(npm.message, /add "registry\.npmjs\.org" to permissions\.net of tool "t"/);
      // esm.sh is on Deno's default import list: refused all the same.
      const esm = await failure(runner.run("t", { spec: "https://esm.sh/left-pad@1.3.0" }));
      assert.equal(esm.code, "permission_denied", esm.message);
      assert.match(esm.message, /add "esm\.sh" to permissions\.net of tool "t"/);
    })
  );
});

Deno.test("a module tool whose net grant names a host imports from it, and only from it", async () => {
  await using server = moduleServer();
  await using other = moduleServer();
  const host = `127.0.0.1:${server.addr.port}`;
  await withEmptyCache(() =>
    withImporter({ permissions: { net: [host] } }, async (runner) => {
      const ok = await runner.run("t", { spec: `http://${host}/x.js` });
      assert.deepEqual(ok.structured, { keys: ["x"], x: 42 });
      const elsewhere = `127.0.0.1:${other.addr.port}`;
      const error = await failure(runner.run("t", { spec: `http://${elsewhere}/x.js` }));
      assert.equal(error.code, "permission_denied", error.message);
      assert.match(error.message, new RegExp(`cannot import remote code from ${elsewhere}`));
      assert.match(
        error.message,
        /imports remote modules only from the hosts its permissions\.net grants/,
      );
      assert.match(
        error.message,
        new RegExp(`add "${elsewhere}" to permissions\\.net of tool "t"`),
      );
    })
  );
});

Deno.test("a module tool granted the npm registry downloads an npm package (its process keeps the CA and cache variables)", async () => {
  await withEmptyCache(() =>
    withImporter({ permissions: { net: ["registry.npmjs.org"] } }, async (runner) => {
      const ok = await runner.run("t", { spec: "npm:left-pad@1.3.0" });
      assert.ok((ok.structured as { keys: string[] }).keys.includes("default"));
    })
  );
});

Deno.test("a module tool whose static import is not cached fails to load with the rule, not a stack", async () => {
  const source = `import pad from "npm:left-pad@1.3.0";\nexport default () => pad("a", 3);\n`;
  await withEmptyCache(() =>
    withImporter({}, async (runner) => {
      const error = await failure(runner.run("t", {}));
      assert.equal(error.code, "permission_denied", error.message);
      assert.match(error.message, /cannot import npm:left-pad: it is not in the cache/);
    }, source)
  );
});

Deno.test("checkModuleTool downloads no more than the tool could: an uncached static import is unresolvable", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tf-mod-imports-" });
  await Deno.writeTextFile(
    `${dir}/pad.js`,
    `import pad from "npm:left-pad@1.3.0";\nexport default () => pad("a", 3);\n`,
  );
  await withEmptyCache(async () => {
    const problem = await checkModuleTool(`${dir}/pad.js`, { toolId: "pad" });
    assert.equal(problem?.reason, "unresolvable");
    assert.match(problem!.message, /cannot import npm:left-pad: it is not in the cache/);
    assert.match(problem!.message, /add "registry\.npmjs\.org" to permissions\.net of tool "pad"/);
    // Granted the registry, it loads (and the check passes).
    assert.equal(
      await checkModuleTool(`${dir}/pad.js`, { net: ["registry.npmjs.org"] }),
      undefined,
    );
  });
});

Deno.test("a tool that throws a look-alike of an import refusal fails as itself, not permission_denied", async () => {
  const source = `export default () => {
  throw new TypeError('Requires import access to "example.com:443", run again with the --allow-import flag');
};
`;
  const atLoad = `throw new TypeError('Requires import access to "example.com:443"');\n`;
  for (const code of [source, atLoad]) {
    for (const permissions of [{}, { net: ["example.com:443"] }]) {
      await withImporter({ permissions }, async (runner) => {
        const error = await failure(runner.run("t", {}));
        assert.equal(error.code, "execution", `${JSON.stringify(permissions)}: ${error.message}`);
      }, code);
    }
  }
});
