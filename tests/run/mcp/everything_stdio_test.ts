// server-everything over stdio, started and stopped by the runner itself.
import assert from "node:assert/strict";
import { mcpBackend, type Tool } from "../../../model/mod.ts";
import {
  type ElicitationRequest,
  ExecutionError,
  OutputValidationError,
  Runner,
  type StreamEvent,
  ToolResultError,
} from "../../../run/mod.ts";
import { childPids, EVERYTHING, everythingStdio, isAlive } from "../_mcp_servers.ts";

const PKG = `${EVERYTHING} stdio`;

async function serverPid(): Promise<number> {
  const pids = await childPids(PKG);
  assert.equal(pids.length, 1, `one server process, found ${pids.length}`);
  return pids[0];
}

Deno.test("mcp backend over stdio against server-everything", async (t) => {
  const runner = new Runner({ mcpServers: { everything: everythingStdio() } });
  try {
    await t.step("importMcpTools lists every tool as a namespaced model tool", async () => {
      const { imported, skipped } = await runner.importMcpTools("everything");
      assert.deepEqual(skipped, []);
      assert.equal(imported.length, 13);
      const echo = runner.registry.get("everything:echo")!;
      assert.deepEqual(echo.backends, [mcpBackend("everything")]);
      assert.equal(echo.tool.namespace, "everything");
      assert.equal(echo.tool.annotations?.readOnlyHint, true);
      assert.equal(echo.tool.inputSchema.$schema, "http://json-schema.org/draft-07/schema#");
      const structured = runner.registry.get("everything:get-structured-content")!.tool;
      assert.equal(structured.outputSchema?.type, "object");
    });

    await t.step("a call returns the normalized text and the raw MCP result", async () => {
      const result = await runner.run("everything:echo", { message: "hello" });
      assert.equal(result.structured, "Echo: hello");
      assert.deepEqual(result.mcpResult?.content, [{ type: "text", text: "Echo: hello" }]);
      assert.deepEqual(result.backend, mcpBackend("everything"));
    });

    await t.step("structuredContent is the result and passes our output-schema check", async () => {
      const result = await runner.run("everything:get-structured-content", {
        location: "Chicago",
      });
      const data = result.structured as Record<string, unknown>;
      assert.equal(typeof data.temperature, "number");
      assert.equal(typeof data.conditions, "string");
      assert.deepEqual(data, result.mcpResult?.structuredContent);
    });

    await t.step("a result breaking a stricter output schema keeps the whole result", async () => {
      const original = runner.registry.get("everything:get-structured-content")!.tool;
      const strict: Tool = {
        ...structuredClone(original),
        namespace: "strict",
        outputSchema: {
          type: "object",
          required: ["pressure"],
          properties: { temperature: { type: "string" } },
        },
      };
      runner.registry.add(strict, mcpBackend("everything"));
      const error = await runner.run("strict:get-structured-content", { location: "Chicago" })
        .catch((e) => e);
      assert.ok(error instanceof OutputValidationError);
      assert.deepEqual(
        error.failures.map((f) => f.keyword).sort(),
        ["required", "type"],
      );
      assert.ok(error.result.mcpResult?.structuredContent);
      assert.equal(error.result.structured, error.result.mcpResult?.structuredContent);
    });

    await t.step("invalid arguments are stopped by our validator before the server", async () => {
      const error = await runner.run("everything:get-sum", { a: 1, b: "2" }).catch((e) => e);
      assert.equal(error.code, "input_validation");
      assert.match(error.message, /\/b: must be number/);
    });

    await t.step(
      "the server's isError result becomes a tool_error carrying the content",
      async () => {
        const unchecked = new Runner({
          registry: runner.registry,
          validateInput: false,
          mcpServers: { everything: everythingStdio() },
        });
        try {
          const error = await unchecked.run("everything:get-sum", { a: 1 }).catch((e) => e);
          assert.ok(error instanceof ToolResultError);
          assert.equal(error.code, "tool_error");
          assert.equal(error.toolId, "everything:get-sum");
          assert.ok(error.content.length > 0);
          assert.equal((error.mcpResult as { isError: boolean }).isError, true);
        } finally {
          await unchecked.close();
        }
      },
    );

    await t.step("an unknown tool on the server is a tool_error", async () => {
      runner.registry.add(
        { name: "no-such-tool", namespace: "everything", inputSchema: { type: "object" } },
        mcpBackend("everything"),
      );
      const error = await runner.run("everything:no-such-tool", {}).catch((e) => e);
      assert.equal(error.code, "tool_error");
    });

    await t.step("images stay in the raw result and in the structured value", async () => {
      const result = await runner.run("everything:get-tiny-image", {});
      const kinds = result.mcpResult!.content.map((c) => c.type);
      assert.ok(kinds.includes("image"));
      const blocks = result.structured as { type: string; data?: string; mimeType?: string }[];
      assert.deepEqual(blocks.map((b) => b.type), kinds, "every block, in order");
      const image = blocks.find((b) => b.type === "image")!;
      assert.equal(image.mimeType, "image/png");
      assert.ok((image.data ?? "").length > 0);
    });

    await t.step("progress notifications become progress events before done", async () => {
      const events: StreamEvent[] = [];
      for await (
        const event of runner.runStream("everything:trigger-long-running-operation", {
          duration: 0.3,
          steps: 3,
        })
      ) events.push(event);
      const progress = events.filter((e) => e.kind === "progress");
      assert.ok(progress.length >= 2, `got ${progress.length} progress events`);
      assert.deepEqual(progress[0].data, { progress: 1, total: 3 });
      assert.equal(events.at(-1)!.kind, "done");
    });

    await t.step("aborting mid-call cancels promptly and keeps the connection", async () => {
      const pid = await serverPid();
      const controller = new AbortController();
      const started = performance.now();
      const error = await runner.run("everything:trigger-long-running-operation", {
        duration: 10,
        steps: 10,
      }, {
        signal: controller.signal,
        onProgress: () => controller.abort("enough"),
      }).catch((e) => e);
      assert.equal(error.code, "cancelled");
      assert.equal(error.cause, "enough");
      assert.ok(performance.now() - started < 3000);
      assert.equal(
        (await runner.run("everything:echo", { message: "still" })).structured,
        "Echo: still",
      );
      assert.equal(await serverPid(), pid, "the same server process is reused");
    });

    await t.step("a deadline during a call is a timeout", async () => {
      const error = await runner.run("everything:trigger-long-running-operation", {
        duration: 10,
        steps: 2,
      }, { timeoutMs: 200 }).catch((e) => e);
      assert.equal(error.code, "timeout");
      assert.equal(error.backend?.kind, "mcp");
    });

    await t.step(
      "a server killed mid-call gives an execution error, then a fresh connection",
      async () => {
        const pid = await serverPid();
        const started = performance.now();
        const pending = runner.run("everything:trigger-long-running-operation", {
          duration: 10,
          steps: 10,
        }, { onProgress: () => Deno.kill(pid, "SIGKILL") });
        const error = await pending.catch((e) => e);
        assert.ok(error instanceof ExecutionError, String(error));
        assert.match(error.message, /closed the connection during the call/);
        assert.ok(performance.now() - started < 5000);
        assert.equal(
          (await runner.run("everything:echo", { message: "back" })).structured,
          "Echo: back",
        );
        assert.notEqual(await serverPid(), pid);
      },
    );

    await t.step("close stops the server process", async () => {
      const pid = await serverPid();
      await runner.close();
      assert.equal(await isAlive(pid), false);
    });
  } finally {
    await runner.close();
  }
});

Deno.test("mcp backend reports a server that cannot start as an execution error with its stderr", async () => {
  const runner = new Runner({
    mcpServers: {
      broken: {
        transport: "stdio",
        command: Deno.execPath(),
        args: ["eval", "--no-config", "console.error('config missing: FOO'); Deno.exit(1)"],
      },
    },
  });
  runner.registry.add({ name: "x", inputSchema: { type: "object" } }, mcpBackend("broken"));
  const error = await runner.run("x", {}).catch((e) => e);
  assert.equal(error.code, "execution");
  assert.equal(error.toolId, "x");
  assert.match(error.message, /cannot connect to MCP server "broken".*config missing: FOO/);
  await runner.close();
});

Deno.test("mcp backend answers a server's elicitation with the runner's handler, defaults applied", async () => {
  const requests: ElicitationRequest[] = [];
  const runner = new Runner({
    mcpServers: { everything: everythingStdio() },
    onElicitation: (request) => {
      requests.push(request);
      return { action: "accept", content: { name: "Ada" } };
    },
  });
  try {
    const { imported } = await runner.importMcpTools("everything");
    assert.equal(imported.length, 14, "elicitation adds trigger-elicitation-request");
    const result = await runner.run("everything:trigger-elicitation-request", {});
    assert.equal(requests.length, 1);
    assert.equal(requests[0].server, "everything");
    assert.equal(typeof requests[0].requestedSchema, "object");
    const text = JSON.stringify(result.structured);
    assert.match(text, /Ada/);
    assert.match(text, /It was a dark and stormy night/, "the declared default was applied");
  } finally {
    await runner.close();
  }
});

Deno.test("mcp backend times out a server that never answers the handshake, and close stops it", async () => {
  const runner = new Runner({
    mcpServers: {
      mute: {
        transport: "stdio",
        command: Deno.execPath(),
        args: ["eval", "--no-config", "setInterval(() => {}, 1000)"],
      },
    },
  });
  runner.registry.add({ name: "x", inputSchema: { type: "object" } }, mcpBackend("mute"));
  const started = performance.now();
  const error = await runner.run("x", {}, { timeoutMs: 300 }).catch((e) => e);
  assert.equal(error.code, "timeout");
  assert.ok(performance.now() - started < 2000);
  const closing = performance.now();
  await runner.close();
  assert.ok(performance.now() - closing < 5000, "close does not wait for the handshake timeout");
});
