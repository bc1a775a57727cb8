import assert from "node:assert/strict";
import { httpClient, startHttp, stdioClient } from "./_helpers.ts";

Deno.test("serve --http lists local, chain and upstream tools with their schemas exactly as defined", async () => {
  const served = await startHttp();
  try {
    const client = await httpClient(served.url);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (
      const name of [
        "add",
        "greet",
        "add-twice",
        "test_simple_text",
        "json_schema_2020_12_tool",
        "echo",
      ]
    ) {
      assert.ok(names.includes(name), `${name} in ${names}`);
    }
    const schema = tools.find((t) => t.name === "json_schema_2020_12_tool")!.inputSchema;
    assert.equal(schema.$schema, "https://json-schema.org/draft/2020-12/schema");
    assert.deepEqual(Object.keys(schema.$defs as object), ["address"]);
    assert.equal(schema.additionalProperties, false);
    await client.close();
  } finally {
    await served.close();
  }
});

Deno.test("serve --http runs a local tool, a module tool, a chain and an upstream tool", async () => {
  const served = await startHttp();
  try {
    const client = await httpClient(served.url);
    const add = await client.callTool({ name: "add", arguments: { operation: "add", a: 2, b: 3 } });
    assert.deepEqual(add.structuredContent, { result: 5 });
    const greet = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
    assert.deepEqual(greet.structuredContent, { greeting: "hello Ada" });
    const chain = await client.callTool({ name: "add-twice", arguments: {} });
    assert.deepEqual(chain.structuredContent, { result: 3 });
    const echo = await client.callTool({ name: "echo", arguments: { text: "hi" } });
    assert.deepEqual(echo.structuredContent, { echoed: "hi" });
    const image = await client.callTool({ name: "test_image_content", arguments: {} });
    assert.equal((image.content as { type: string }[])[0].type, "image");
    await client.close();
    const logged =
      /"event":"tool_call","time":"[^"]+","tool":"add","durationMs":[0-9.]+,"outcome":"ok","caller":"127\.0\.0\.1"/;
    assert.match(await served.logged(logged), logged);
  } finally {
    await served.close();
  }
});

Deno.test("serve --http answers invalid arguments with isError and our repair message, running nothing", async () => {
  const served = await startHttp();
  try {
    const client = await httpClient(served.url);
    const local = await client.callTool({ name: "greet", arguments: { name: "" } });
    assert.equal(local.isError, true);
    assert.match(
      (local.content as { text: string }[])[0].text,
      /invalid arguments for tool "greet": \/name/,
    );
    const upstream = await client.callTool({ name: "echo", arguments: { text: 5 } });
    assert.equal(upstream.isError, true);
    assert.match(
      (upstream.content as { text: string }[])[0].text,
      /invalid arguments for tool "up:echo": \/text/,
    );
    await client.close();
    const logged = /"tool":"echo","durationMs":[0-9.]+,"outcome":"invalid_arguments"/;
    assert.match(await served.logged(logged), logged);
  } finally {
    await served.close();
  }
});

Deno.test("serve --http speaks the 2026-07-28 era too (server/discover, then calls with progress)", async () => {
  const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
  const served = await startHttp();
  try {
    const client = new Client({ name: "modern", version: "1" }, {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
    assert.equal(client.getProtocolEra(), "modern");
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === "json_schema_2020_12_tool"));
    const progress: number[] = [];
    const result = await client.callTool({ name: "test_tool_with_progress", arguments: {} }, {
      onprogress: (p) => progress.push(p.progress),
    });
    assert.equal(result.isError, undefined);
    const add = await client.callTool({
      name: "add",
      arguments: { operation: "multiply", a: 6, b: 7 },
    });
    // The 2026-07-28 era keeps structuredContent only for tools with an output schema.
    assert.deepEqual(add.content, [{ type: "text", text: '{"result":42}' }]);
    const echo = await client.callTool({ name: "echo", arguments: { text: "modern" } });
    assert.deepEqual(echo.structuredContent, { echoed: "modern" });
    await client.close();
  } finally {
    await served.close();
  }
});

Deno.test("serve --stdio serves the same tools to an SDK client", async () => {
  const client = await stdioClient();
  try {
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === "greet"));
    const echo = await client.callTool({ name: "echo", arguments: { text: "pipe" } });
    assert.deepEqual(echo.structuredContent, { echoed: "pipe" });
  } finally {
    await client.close();
  }
});

Deno.test("serve --http --sessions passes an upstream's sampling request to the client and back", async () => {
  const served = await startHttp(["--sessions"]);
  try {
    const client = await httpClient(served.url, {}, { sampling: {} });
    client.setRequestHandler("sampling/createMessage", (request) => {
      const text = (request.params.messages[0].content as { text: string }).text;
      return Promise.resolve({
        role: "assistant",
        model: "test-model",
        content: { type: "text", text: `echo of ${text}` },
      });
    });
    const result = await client.callTool({ name: "test_sampling", arguments: { prompt: "hi" } });
    assert.deepEqual(result.content, [{ type: "text", text: "LLM response: echo of hi" }]);
    await client.close();
  } finally {
    await served.close();
  }
});

Deno.test("serve --token-env: the access log names the caller by the variable's name, never the token; --log-args adds arguments", async () => {
  const token = "tok-0123456789abcdef-secret";
  const served = await startHttp(["--token-env", "SERVE_TOKEN", "--log-args"], {
    env: { SERVE_TOKEN: token },
  });
  try {
    const denied = await fetch(served.url, { method: "POST", body: "{}" });
    assert.equal(denied.status, 401);
    await denied.body?.cancel();
    const client = await httpClient(served.url, { authorization: `Bearer ${token}` });
    await client.callTool({ name: "add", arguments: { operation: "add", a: 4, b: 5 } });
    await client.close();
    const pattern =
      /"tool":"add".*"outcome":"ok","caller":"SERVE_TOKEN","args":\{"operation":"add","a":4,"b":5\}/;
    const log = await served.logged(pattern);
    assert.match(log, pattern);
    assert.doesNotMatch(log, /tok-0123456789abcdef-secret/);
  } finally {
    await served.close();
  }
});

Deno.test("serve --http: a tool the manifest does not serve is unknown, even when the upstream has it", async () => {
  const served = await startHttp();
  try {
    const client = await httpClient(served.url);
    const { tools } = await client.listTools();
    assert.ok(!tools.some((t) => t.name === "hidden_admin"));
    await assert.rejects(
      () => client.callTool({ name: "hidden_admin", arguments: {} }),
      /Unknown tool: hidden_admin/,
    );
    await client.close();
    const logged = /"tool":"hidden_admin","durationMs":[0-9.]+,"outcome":"unknown_tool"/;
    assert.match(await served.logged(logged), logged);
  } finally {
    await served.close();
  }
});

Deno.test("serve --http runs module tools in the same sandbox as run: no read outside their permissions", async () => {
  const served = await startHttp();
  try {
    const client = await httpClient(served.url);
    const denied = await client.callTool({
      name: "read_file",
      arguments: { path: "/etc/hostname" },
    });
    assert.equal(denied.isError, true);
    assert.match((denied.content as { text: string }[])[0].text, /permission|NotCapable|denied/i);
    await client.close();
  } finally {
    await served.close();
  }
});
