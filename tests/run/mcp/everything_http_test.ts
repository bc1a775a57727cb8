// server-everything over Streamable HTTP on a free 127.0.0.1 port.
import assert from "node:assert/strict";
import { mcpBackend } from "../../../model/mod.ts";
import { ExecutionError, Runner, type StreamEvent } from "../../../run/mod.ts";
import { startEverythingHttp } from "../_mcp_servers.ts";

Deno.test("mcp backend over Streamable HTTP against server-everything", async (t) => {
  const server = await startEverythingHttp();
  const runner = new Runner({ mcpServers: { web: { transport: "http", url: server.url } } });
  try {
    await t.step("importMcpTools with a custom namespace", async () => {
      const { imported } = await runner.importMcpTools("web", { namespace: "ev" });
      assert.equal(imported.length, 13);
      assert.deepEqual(runner.registry.get("ev:echo")?.backends, [mcpBackend("web")]);
    });

    await t.step("calls return normalized results over one reused session", async () => {
      assert.equal((await runner.run("ev:echo", { message: "a" })).structured, "Echo: a");
      const sum = await runner.run("ev:get-sum", { a: 2, b: 3 });
      assert.match(String(sum.structured), /5/);
      const weather = await runner.run("ev:get-structured-content", { location: "New York" });
      assert.equal(typeof (weather.structured as { humidity: unknown }).humidity, "number");
    });

    await t.step("invalid arguments and isError", async () => {
      const error = await runner.run("ev:echo", {}).catch((e) => e);
      assert.equal(error.code, "input_validation");
      runner.registry.add(
        { name: "missing-tool", namespace: "ev", inputSchema: { type: "object" } },
        mcpBackend("web"),
      );
      assert.equal((await runner.run("ev:missing-tool", {}).catch((e) => e)).code, "tool_error");
    });

    await t.step("progress notifications arrive as progress events", async () => {
      const events: StreamEvent[] = [];
      for await (
        const event of runner.runStream("ev:trigger-long-running-operation", {
          duration: 0.3,
          steps: 3,
        })
      ) events.push(event);
      assert.deepEqual(
        events.filter((e) => e.kind === "progress").map((e) => e.data),
        [1, 2, 3].map((progress) => ({ progress, total: 3 })),
      );
      assert.equal(events.at(-1)!.kind, "done");
    });

    await t.step(
      "breaking out of a stream cancels the call; the session keeps working",
      async () => {
        const started = performance.now();
        for await (
          const event of runner.runStream("ev:trigger-long-running-operation", {
            duration: 10,
            steps: 20,
          })
        ) {
          if (event.kind === "progress") break;
        }
        assert.ok(performance.now() - started < 3000);
        assert.equal((await runner.run("ev:echo", { message: "b" })).structured, "Echo: b");
      },
    );

    await t.step(
      "a message over maxOutputBytes is output_too_large; the session keeps working",
      async () => {
        const capped = new Runner({
          registry: runner.registry,
          mcpServers: { web: { transport: "http", url: server.url, maxOutputBytes: 4000 } },
        });
        try {
          const error = await capped.run("ev:echo", { message: "y".repeat(5000) }).catch((e) => e);
          assert.equal(error.code, "output_too_large", String(error));
          assert.equal(error.toolId, "ev:echo");
          assert.equal(error.limitBytes, 4000);
          assert.equal(
            (await capped.run("ev:echo", { message: "small" })).structured,
            "Echo: small",
          );
        } finally {
          await capped.close();
        }
        const tiny = new Runner({
          registry: runner.registry,
          mcpServers: { web: { transport: "http", url: server.url, maxOutputBytes: 500 } },
        });
        try {
          const started = performance.now();
          const error = await tiny.run("ev:echo", { message: "x" }).catch((e) => e);
          assert.equal(error.code, "output_too_large", "the initialize result is over the cap");
          assert.ok(performance.now() - started < 5000);
        } finally {
          await tiny.close();
        }
      },
    );

    await t.step("a server killed mid-call gives an execution error, not a hang", async () => {
      const started = performance.now();
      const error = await runner.run("ev:trigger-long-running-operation", {
        duration: 10,
        steps: 20,
      }, { onProgress: () => void server.stop() }).catch((e) => e);
      assert.ok(error instanceof ExecutionError, String(error));
      assert.ok(performance.now() - started < 8000);
      const next = await runner.run("ev:echo", { message: "c" }).catch((e) => e);
      assert.equal(next.code, "execution");
      assert.match(next.message, /cannot connect/);
    });
  } finally {
    await runner.close();
    await server.stop();
  }
});
