import assert from "node:assert/strict";
import {
  InvalidBackendError,
  localBackend,
  mcpBackend,
  providerBackend,
  validateBackend,
} from "../../model/mod.ts";

Deno.test("backend constructors give the { kind, <kind>: {...} } JSON shape", () => {
  assert.equal(
    JSON.stringify(mcpBackend("filesystem-server")),
    '{"kind":"mcp","mcp":{"serverName":"filesystem-server"}}',
  );
  assert.equal(
    JSON.stringify(providerBackend("openai", "gpt-4-vision")),
    '{"kind":"provider","provider":{"providerId":"openai","toolId":"gpt-4-vision"}}',
  );
  assert.equal(JSON.stringify(localBackend("h")), '{"kind":"local","local":{"name":"h"}}');
});

Deno.test("validateBackend accepts each well-formed kind", () => {
  validateBackend(mcpBackend("s"));
  validateBackend(providerBackend("p", "t"));
  validateBackend(localBackend("l"));
});

Deno.test("validateBackend requires the field that matches the kind", () => {
  const cases: [unknown, RegExp][] = [
    [{ kind: "mcp" }, /kind `mcp` requires an `mcp` object/],
    [{ kind: "mcp", local: { name: "x" } }, /requires an `mcp` object/],
    [{ kind: "mcp", mcp: { serverName: "" } }, /mcp.serverName/],
    [{ kind: "provider", provider: { providerId: "p" } }, /provider.toolId/],
    [{ kind: "local", local: {} }, /local.name/],
    [{ kind: "remote" }, /unknown kind "remote"; expected one of mcp, provider, local/],
    [null, /must be an object/],
  ];
  for (const [value, pattern] of cases) {
    assert.throws(() => validateBackend(value), (e) => {
      assert.ok(e instanceof InvalidBackendError);
      assert.equal(e.code, "invalid_backend");
      assert.match(e.message, pattern);
      return true;
    });
  }
});

Deno.test("validateBackend reads only own fields: inherited names and inherited bindings are refused", () => {
  const inherited = Object.create({ mcp: { serverName: "from-the-prototype" } });
  inherited.kind = "mcp";
  const cases: [unknown, RegExp][] = [
    [inherited, /kind `mcp` requires an `mcp` object/],
    [{ kind: "constructor" }, /unknown kind "constructor"/],
    [{ kind: "toString", toString: { name: "x" } }, /unknown kind "toString"/],
    [JSON.parse('{"kind":"__proto__","__proto__":{"name":"x"}}'), /unknown kind "__proto__"/],
  ];
  for (const [value, pattern] of cases) {
    assert.throws(() => validateBackend(value), (e) => {
      assert.ok(e instanceof InvalidBackendError);
      assert.match((e as Error).message, pattern);
      return true;
    });
  }
});
