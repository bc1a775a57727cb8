// `serve --stdio` with a misbehaving client: a line over the message cap is
// answered at once with a JSON-RPC error and skipped up to its newline, however
// its bytes arrive (one write, many small writes, merged with a valid message);
// lines that are not JSON-RPC are answered too; the next valid line is served.
import assert from "node:assert/strict";
import { caEnv, CLI, ROOT } from "./_helpers.ts";

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "stdio-limits", version: "1.0.0" },
  },
});
const INITIALIZED = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
const LIST = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });

/** A `serve --stdio` child with raw access to its stdin and the lines of its stdout. */
class RawStdio {
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #lines: string[] = [];
  readonly #waiters: (() => void)[] = [];
  readonly #pump: Promise<void>;

  constructor(extra: string[] = []) {
    const dir = Deno.makeTempDirSync();
    Deno.writeTextFileSync(
      `${dir}/tools.yaml`,
      "version: 1\ntools:\n  - { name: add, builtin: calculate }\n",
    );
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", CLI, "serve", `${dir}/tools.yaml`, "--stdio", ...extra],
      cwd: ROOT,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
      env: caEnv(),
      clearEnv: true,
    }).spawn();
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    this.#pump = (async () => {
      let buffer = "";
      const decoder = new TextDecoder();
      for await (const chunk of child.stdout) {
        buffer += decoder.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = buffer.indexOf("\n")) !== -1) {
          this.#lines.push(buffer.slice(0, nl));
          buffer = buffer.slice(nl + 1);
          for (const wake of this.#waiters.splice(0)) wake();
        }
      }
      for (const wake of this.#waiters.splice(0)) wake();
    })();
  }

  async write(data: string | Uint8Array): Promise<void> {
    await this.#writer.write(typeof data === "string" ? new TextEncoder().encode(data) : data);
  }

  /** The next line of stdout as JSON, within `ms`. */
  async next(ms: number): Promise<Record<string, unknown>> {
    const deadline = Date.now() + ms;
    while (this.#lines.length === 0) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no answer within ${ms} ms`);
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        timer = setTimeout(resolve, left);
      });
      clearTimeout(timer);
    }
    return JSON.parse(this.#lines.shift()!);
  }

  async close(): Promise<void> {
    await this.#writer.close().catch(() => {});
    // A server that hangs (stops reading) must not hang the test too.
    const timer = setTimeout(() => {
      try {
        this.#child.kill("SIGKILL");
      } catch { /* gone */ }
    }, 10_000);
    await this.#child.status;
    clearTimeout(timer);
    await this.#pump;
  }
}

/** Opens a session: initialize and initialized, asserting the answer. */
async function open(io: RawStdio): Promise<void> {
  await io.write(`${INIT}\n`);
  const answer = await io.next(60_000);
  assert.equal(answer.id, 1, JSON.stringify(answer));
  assert.ok(answer.result, JSON.stringify(answer));
  await io.write(`${INITIALIZED}\n`);
}

function assertTooLarge(answer: Record<string, unknown>, limit: number): void {
  assert.equal(answer.id, null, JSON.stringify(answer).slice(0, 500));
  const error = answer.error as { code: number; message: string; data?: { limit?: number } };
  assert.equal(error.code, -32600);
  assert.match(error.message, new RegExp(`over the limit of ${limit} bytes`));
  assert.match(error.message, /--max-body-bytes/);
  assert.equal(error.data?.limit, limit);
}

async function assertListWorks(io: RawStdio): Promise<void> {
  await io.write(`${LIST}\n`);
  const answer = await io.next(10_000);
  assert.equal(answer.id, 2, JSON.stringify(answer));
  const tools = (answer.result as { tools: { name: string }[] }).tools.map((t) => t.name);
  assert.deepEqual(tools, ["add"]);
}

const BIG = 12 * 1024 * 1024;
const LIMIT = 4 * 1024 * 1024;

function bigLine(): Uint8Array {
  // A JSON-RPC request whose string argument makes the line 12 MB long.
  const head = new TextEncoder().encode(
    '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"add","arguments":{"x":"',
  );
  const out = new Uint8Array(BIG + 1).fill(0x61);
  out.set(head, 0);
  out.set(new TextEncoder().encode('"}}}\n'), BIG - 4);
  return out;
}

Deno.test("serve --stdio answers a 12 MB line at once with a too-large error and serves the next line", async () => {
  const io = new RawStdio();
  try {
    await open(io);
    const started = performance.now();
    const writing = io.write(bigLine());
    assertTooLarge(await io.next(5_000), LIMIT);
    const elapsed = performance.now() - started;
    assert.ok(elapsed < 5_000, `answered after ${elapsed} ms`);
    await writing;
    await assertListWorks(io);
  } finally {
    await io.close();
  }
});

Deno.test("serve --stdio refuses a line over the cap split across many small writes", async () => {
  const io = new RawStdio(["--max-body-bytes", "100000"]);
  try {
    await open(io);
    const line = bigLine().subarray(BIG - 300_000);
    line[0] = 0x7b; // still one line, no newline before the end
    const started = performance.now();
    for (let at = 0; at < line.length; at += 997) await io.write(line.slice(at, at + 997));
    assertTooLarge(await io.next(5_000), 100_000);
    assert.ok(performance.now() - started < 5_000);
    await assertListWorks(io);
  } finally {
    await io.close();
  }
});

Deno.test("serve --stdio refuses a long line merged with valid messages in one write and serves them", async () => {
  const io = new RawStdio(["--max-body-bytes", "100000"]);
  try {
    await open(io);
    const long = `{"jsonrpc":"2.0","id":7,"method":"tools/list","x":"${"b".repeat(200_000)}"}`;
    await io.write(`${LIST.replace('"id":2', '"id":3')}\n${long}\n${LIST}\n`);
    // The refusal is written as soon as the cap is passed; the answers of the
    // two valid messages may come before or after it.
    const answers = [await io.next(5_000), await io.next(5_000), await io.next(5_000)];
    const byId = new Map(answers.map((a) => [a.id, a]));
    assertTooLarge(byId.get(null)!, 100_000);
    assert.ok(byId.get(3)?.result, JSON.stringify(answers).slice(0, 500));
    assert.ok(byId.get(2)?.result, JSON.stringify(answers).slice(0, 500));
  } finally {
    await io.close();
  }
});

Deno.test("serve --stdio serves a line just under the cap", async () => {
  const io = new RawStdio(["--max-body-bytes", "100000"]);
  try {
    await open(io);
    const base = '{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"_meta":{"x":""}}}';
    const pad = 100_000 - base.length;
    const line = base.replace('"x":""', `"x":"${"c".repeat(pad)}"`);
    assert.equal(new TextEncoder().encode(line).length, 100_000);
    await io.write(`${line}\n`);
    const answer = await io.next(5_000);
    assert.equal(answer.id, 5, JSON.stringify(answer).slice(0, 300));
    assert.ok(answer.result);
  } finally {
    await io.close();
  }
});

Deno.test("serve --stdio answers a line that is not JSON or not JSON-RPC with an error, then goes on", async () => {
  const io = new RawStdio();
  try {
    await open(io);
    await io.write("this is not json\n");
    const parse = await io.next(5_000);
    assert.equal(parse.id, null);
    assert.equal((parse.error as { code: number }).code, -32700);
    await io.write('{"hello":"world"}\n');
    const invalid = await io.next(5_000);
    assert.equal(invalid.id, null);
    assert.equal((invalid.error as { code: number }).code, -32600);
    assert.match((invalid.error as { message: string }).message, /not a JSON-RPC 2\.0 message/);
    await assertListWorks(io);
  } finally {
    await io.close();
  }
});
