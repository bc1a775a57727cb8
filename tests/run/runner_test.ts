import assert from "node:assert/strict";
import {
  localBackend,
  mcpBackend,
  providerBackend,
  SchemaValidationError,
  type SchemaValidator,
  type Tool,
} from "../../model/mod.ts";
import {
  ExecutionError,
  InputValidationError,
  type LocalHandler,
  NoBackendError,
  OutputValidationError,
  PermissionDeniedError,
  type ProgressUpdate,
  RunCancelledError,
  type RunError,
  Runner,
  RunTimeoutError,
  ToolIdError,
  ToolNotFoundError,
  ToolResultError,
} from "../../run/mod.ts";
import { serializeError } from "../../run/stream.ts";

const addTool: Tool = {
  name: "add",
  namespace: "math",
  inputSchema: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: { sum: { type: "number" } },
    required: ["sum"],
  },
};

function addRunner(options: ConstructorParameters<typeof Runner>[0] = {}) {
  const runner = new Runner(options);
  const calls: unknown[] = [];
  runner.addLocalTool(addTool, (args) => {
    calls.push(args);
    return { sum: (args.a as number) + (args.b as number) };
  });
  return { runner, calls };
}

Deno.test("run on a local tool returns tool, backend, structured result and duration", async () => {
  const { runner } = addRunner();
  const result = await runner.run("math:add", { a: 2, b: 3 });
  assert.deepEqual(result.structured, { sum: 5 });
  assert.equal(result.tool.name, "add");
  assert.deepEqual(result.backend, localBackend("math:add"));
  assert.equal(result.mcpResult, undefined);
  assert.ok(result.durationMs >= 0);
});

Deno.test("run with invalid arguments rejects with input_validation and never calls the handler", async () => {
  const { runner, calls } = addRunner();
  const error = await runner.run("math:add", { a: "2" }).catch((e) => e);
  assert.ok(error instanceof InputValidationError);
  assert.equal(error.code, "input_validation");
  assert.equal(error.toolId, "math:add");
  assert.equal(error.backend?.kind, "local");
  assert.deepEqual(error.args, { a: "2" });
  assert.ok(error.cause instanceof SchemaValidationError);
  assert.ok(error.failures.length >= 2, "type and required failures are both reported");
  assert.match(error.message, /must have required property 'b'/);
  assert.equal(calls.length, 0);
});

Deno.test("run with validateInput off passes invalid arguments through", async () => {
  const { runner, calls } = addRunner({ validateInput: false, validateOutput: false });
  await runner.run("math:add", { a: 1, b: "x" });
  assert.equal(calls.length, 1);
});

Deno.test("run whose result breaks the output schema rejects with output_validation carrying the result", async () => {
  const runner = new Runner();
  runner.addLocalTool(addTool, () => ({ total: 1 }));
  const error = await runner.run("math:add", { a: 1, b: 2 }).catch((e) => e);
  assert.ok(error instanceof OutputValidationError);
  assert.equal(error.code, "output_validation");
  assert.deepEqual(error.result.structured, { total: 1 });
  assert.equal(error.result.backend.kind, "local");
  assert.equal(error.backend?.kind, "local");
  assert.equal(error.failures[0].keyword, "required");
});

Deno.test("run in warn mode returns the result with the output-validation warning", async () => {
  const seen: OutputValidationError[] = [];
  const runner = new Runner({ outputValidation: "warn", onWarning: (w) => seen.push(w) });
  runner.addLocalTool(addTool, () => ({ total: 1 }));
  const result = await runner.run("math:add", { a: 1, b: 2 });
  assert.deepEqual(result.structured, { total: 1 });
  assert.equal(result.warnings?.length, 1);
  assert.equal(seen.length, 1);
  assert.equal(seen[0].code, "output_validation");
});

Deno.test("run of an unknown ID is tool_not_found, of a malformed ID invalid_tool_id", async () => {
  const runner = new Runner();
  const missing = await runner.run("math:sub", {}).catch((e) => e);
  assert.ok(missing instanceof ToolNotFoundError);
  assert.equal(missing.code, "tool_not_found");
  assert.equal(missing.toolId, "math:sub");
  const malformed = await runner.run("a:b:c", {}).catch((e) => e);
  assert.ok(malformed instanceof ToolIdError);
  assert.equal(malformed.code, "invalid_tool_id");
  assert.equal((malformed.cause as RunError).code, "invalid_tool_id");
});

Deno.test("run without a configured backend is no_backend naming what is missing", async () => {
  const runner = new Runner();
  runner.registry.add(addTool, [localBackend("nothing"), providerBackend("ghost", "add")]);
  const error = await runner.run("math:add", { a: 1, b: 2 }).catch((e) => e);
  assert.ok(error instanceof NoBackendError);
  assert.match(error.message, /no local handler "nothing"; no provider "ghost"/);
});

Deno.test("run prefers local over provider unless the backend order says otherwise", async () => {
  const provider = { id: "p", call: () => ({ sum: -1 }) };
  const tool = { ...addTool };
  for (
    const [order, expected] of [[undefined, "local"], [["provider", "local"], "provider"]] as const
  ) {
    const runner = new Runner({
      providers: [provider],
      handlers: { add: () => ({ sum: 1 }) },
      backendOrder: order,
    });
    runner.registry.add(tool, [providerBackend("p", "add"), localBackend("add")]);
    const result = await runner.run("math:add", { a: 1, b: 2 });
    assert.equal(result.backend.kind, expected);
  }
  const onlyMcp = new Runner({ handlers: { add: () => ({ sum: 1 }) }, backendOrder: ["mcp"] });
  onlyMcp.registry.add(tool, localBackend("add"));
  const error = await onlyMcp.run("math:add", { a: 1, b: 2 }).catch((e) => e);
  assert.equal(error.code, "no_backend");
});

Deno.test("run of a throwing handler is an execution error keeping the cause, tool ID and backend", async () => {
  const runner = new Runner();
  const boom = new TypeError("boom");
  runner.addLocalTool({ name: "sync", inputSchema: { type: "object" } }, () => {
    throw boom;
  });
  runner.addLocalTool(
    { name: "async", inputSchema: { type: "object" } },
    () => Promise.reject(boom),
  );
  for (const id of ["sync", "async"]) {
    const error = await runner.run(id, {}).catch((e) => e);
    assert.ok(error instanceof ExecutionError);
    assert.equal(error.code, "execution");
    assert.equal(error.cause, boom);
    assert.equal(error.toolId, id);
    assert.deepEqual(error.backend, localBackend(id));
  }
});

Deno.test("run passes a RunError thrown by a handler through, filling in tool ID and backend", async () => {
  const runner = new Runner();
  runner.addLocalTool({ name: "t", inputSchema: { type: "object" } }, () => {
    throw new ToolResultError([{ type: "text", text: "nope" }]);
  });
  const error = await runner.run("t", {}).catch((e) => e);
  assert.ok(error instanceof ToolResultError);
  assert.equal(error.code, "tool_error");
  assert.equal(error.toolId, "t");
  assert.equal(error.backend?.kind, "local");
});

Deno.test("run of a handler hitting a Deno permission is permission_denied", async () => {
  const runner = new Runner();
  runner.addLocalTool({ name: "t", inputSchema: { type: "object" } }, () => {
    throw new Deno.errors.NotCapable('Requires read access to "/etc"');
  });
  const error = await runner.run("t", {}).catch((e) => e);
  assert.ok(error instanceof PermissionDeniedError);
  assert.equal(error.code, "permission_denied");
});

function hangingRunner() {
  const runner = new Runner();
  const reasons: unknown[] = [];
  runner.addLocalTool(
    { name: "hang", inputSchema: { type: "object" } },
    (_args, ctx) =>
      new Promise((_resolve, reject) => {
        ctx.signal.addEventListener("abort", () => {
          reasons.push(ctx.signal.reason);
          reject(new Error("stopped"));
        });
      }),
  );
  runner.addLocalTool(
    { name: "deaf", inputSchema: { type: "object" } },
    () => new Promise((resolve) => setTimeout(resolve, 300)),
  );
  return { runner, reasons };
}

Deno.test("run past its deadline is a timeout and the handler's signal is aborted with it", async () => {
  const { runner, reasons } = hangingRunner();
  const started = performance.now();
  const error = await runner.run("hang", {}, { timeoutMs: 30 }).catch((e) => e);
  assert.ok(error instanceof RunTimeoutError);
  assert.equal(error.code, "timeout");
  assert.equal(error.timeoutMs, 30);
  assert.equal(error.backend?.kind, "local");
  assert.ok(performance.now() - started < 1000);
  assert.equal(reasons[0], error);
  await runner.close();
});

Deno.test("run of a handler that ignores its signal still times out promptly", async () => {
  const { runner } = hangingRunner();
  const started = performance.now();
  const error = await runner.run("deaf", {}, { timeoutMs: 20 }).catch((e) => e);
  assert.equal(error.code, "timeout");
  assert.ok(performance.now() - started < 250);
  await runner.close(); // waits for the abandoned handler to settle
});

Deno.test("run aborted mid-call is cancelled with the abort reason as cause", async () => {
  const { runner, reasons } = hangingRunner();
  const controller = new AbortController();
  const pending = runner.run("hang", {}, { signal: controller.signal });
  setTimeout(() => controller.abort("user pressed stop"), 10);
  const error = await pending.catch((e) => e);
  assert.ok(error instanceof RunCancelledError);
  assert.equal(error.code, "cancelled");
  assert.equal(error.cause, "user pressed stop");
  assert.equal(reasons[0], error);
  await runner.close();
});

Deno.test("run with an already aborted signal is cancelled before anything runs", async () => {
  const { runner, calls } = addRunner();
  const error = await runner.run("math:add", { a: 1, b: 2 }, { signal: AbortSignal.abort() })
    .catch((e) => e);
  assert.equal(error.code, "cancelled");
  assert.equal(calls.length, 0);
});

Deno.test("run of an async generator returns its return value, or the chunks when it returns nothing", async () => {
  const runner = new Runner();
  const progress: ProgressUpdate[] = [];
  runner.addLocalTool({ name: "gen", inputSchema: { type: "object" } }, async function* (_a, ctx) {
    ctx.progress(1);
    ctx.progress({ progress: NaN });
    ctx.progress({ progress: 2, total: 2, message: "done", extra: 1 } as ProgressUpdate);
    yield "a";
    yield "b";
    return { n: 2 };
  });
  runner.addLocalTool({ name: "chunks", inputSchema: { type: "object" } }, async function* () {
    yield 1;
    yield 2;
  });
  const result = await runner.run("gen", {}, { onProgress: (p) => progress.push(p) });
  assert.deepEqual(result.structured, { n: 2 });
  assert.deepEqual(progress, [{ progress: 1 }, { progress: 2, total: 2, message: "done" }]);
  assert.deepEqual((await runner.run("chunks", {})).structured, [1, 2]);
});

Deno.test("run with a validator without compile uses validateInput and validateOutput", async () => {
  const seen: string[] = [];
  const validator: SchemaValidator = {
    validate: () => Promise.resolve(),
    validateInput: (_tool, args) => {
      seen.push("input");
      return (args as { ok?: boolean }).ok ? Promise.resolve() : Promise.reject(
        new SchemaValidationError([{
          instanceLocation: "/ok",
          keywordLocation: "/required",
          absoluteKeywordLocation: "#/required",
          keyword: "required",
          message: "must be ok",
        }]),
      );
    },
    validateOutput: () => {
      seen.push("output");
      return Promise.resolve();
    },
  };
  const runner = new Runner({ validator });
  runner.addLocalTool({ ...addTool }, () => ({ sum: 0 }));
  await runner.run("math:add", { ok: true });
  const error = await runner.run("math:add", {}).catch((e) => e);
  assert.equal(error.code, "input_validation");
  assert.match(error.message, /\/ok: must be ok/);
  assert.deepEqual(seen, ["input", "output", "input"]);
});

Deno.test("run validates draft-07 schemas with draft-07 semantics (array-form items)", async () => {
  const runner = new Runner();
  runner.addLocalTool({
    name: "pair",
    inputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { p: { type: "array", items: [{ type: "string" }, { type: "number" }] } },
    },
  }, () => "ok");
  assert.equal((await runner.run("pair", { p: ["a", 1] })).structured, "ok");
  const error = await runner.run("pair", { p: [1, "a"] }).catch((e) => e);
  assert.equal(error.code, "input_validation");
});

Deno.test("run with an uncompilable input schema is input_validation with the schema error as cause", async () => {
  const runner = new Runner();
  runner.addLocalTool({
    name: "ext",
    inputSchema: { type: "object", properties: { a: { $ref: "https://example.com/s.json" } } },
  }, () => "never");
  const error = await runner.run("ext", {}).catch((e) => e);
  assert.equal(error.code, "input_validation");
  assert.equal(error.cause.code, "external_ref");
});

Deno.test("run defaults missing arguments to an empty object and never mutates the caller's", async () => {
  const runner = new Runner();
  const seen: unknown[] = [];
  runner.addLocalTool({ name: "t", inputSchema: { type: "object" } }, (args) => {
    seen.push(args);
    return null;
  });
  await runner.run("t");
  assert.deepEqual(seen[0], {});
});

Deno.test("tools, handlers, providers and MCP servers named like __proto__ or toString are not found until registered", async () => {
  const names = ["__proto__", "constructor", "toString", "hasOwnProperty"];
  const runner = new Runner();
  try {
    for (const name of names) {
      assert.equal((await runner.run(name, {}).catch((e) => e)).code, "tool_not_found");
      runner.registry.add({ name: `via_${name}`, inputSchema: { type: "object" } }, [
        localBackend(name),
        providerBackend(name, name),
        mcpBackend(name),
      ]);
      const error = await runner.run(`via_${name}`, {}).catch((e) => e);
      assert.equal(error.code, "no_backend", name);
      const listing = await runner.importMcpTools(name).catch((e) => e);
      assert.match(listing.message, /no MCP server named/);
    }
    // Registered under those names, they work like any other.
    const handlers: Record<string, LocalHandler> = {};
    for (const name of names) {
      Object.defineProperty(handlers, name, { value: () => `handler ${name}`, enumerable: true });
    }
    const named = new Runner({
      handlers,
      providers: names.map((name) => ({ id: name, call: () => `provider ${name}` })),
    });
    for (const name of names) {
      named.registry.add(
        { name: `h_${name}`, inputSchema: { type: "object" } },
        localBackend(name),
      );
      named.registry.add(
        { name: `p_${name}`, inputSchema: { type: "object" } },
        providerBackend(name, "x"),
      );
      assert.equal((await named.run(`h_${name}`, {})).structured, `handler ${name}`);
      assert.equal((await named.run(`p_${name}`, {})).structured, `provider ${name}`);
      named.addLocalTool({ name, inputSchema: { type: "object" } }, () => `tool ${name}`);
      assert.equal((await named.run(name, {})).structured, `tool ${name}`);
    }
    await named.close();
  } finally {
    await runner.close();
  }
});

Deno.test("serializeError keeps a __proto__ key in data as an ordinary key", () => {
  const content = JSON.parse('[{"type":"text","text":"x","__proto__":{"polluted":true}}]');
  const data = serializeError(new ToolResultError(content, { toolId: "t" }));
  const block = (data.content as Record<string, unknown>[])[0];
  assert.ok(Object.hasOwn(block, "__proto__"));
  assert.equal((block as { polluted?: unknown }).polluted, undefined);
  assert.deepEqual(JSON.parse(JSON.stringify(data)).content[0].__proto__, { polluted: true });
});
