// `serve` and the cap of live module-tool processes: many concurrent calls of
// several module tools over HTTP never run more `deno` children than
// --max-module-processes (sampled from the OS while they run), and all
// succeed; a bad value is a usage error of every command that runs module tools.
import assert from "node:assert/strict";
import { CLI, ROOT, startHttp } from "./_helpers.ts";
import { sampleChildren } from "../_children.ts";

/** A manifest of three module tools that hold their process `ms` per call. */
function fixture(): string {
  const dir = Deno.makeTempDirSync({ prefix: "tf-procs-" });
  Deno.writeTextFileSync(
    `${dir}/hold.ts`,
    `const hold = (tool: string) => async (args: { ms?: number }) => {
  await new Promise((resolve) => setTimeout(resolve, args.ms ?? 0));
  return { tool, pid: Deno.pid };
};
export const a = hold("a");
export const b = hold("b");
export const c = hold("c");
`,
  );
  const tools = ["a", "b", "c"].map((name) =>
    `  - name: ${name}\n    module: hold.ts\n    export: ${name}\n    inputSchema: { type: object }\n`
  );
  Deno.writeTextFileSync(`${dir}/tools.yaml`, `version: 1\ntools:\n${tools.join("")}`);
  return `${dir}/tools.yaml`;
}

async function call(url: string, id: number, name: string, ms: number): Promise<unknown> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name, arguments: { ms } },
    }),
  });
  const text = await response.text();
  assert.equal(response.status, 200, text);
  // A JSON body, or one server-sent event carrying the answer.
  const json = text.startsWith("{") ? text : /^data: (.*)$/m.exec(text)?.[1] ?? text;
  return JSON.parse(json);
}

Deno.test("serve --http runs 30 concurrent module-tool calls with at most --max-module-processes 4 deno children", async () => {
  const served = await startHttp(
    ["--max-concurrent", "64", "--max-module-processes", "4"],
    { manifest: fixture() },
  );
  try {
    const os = sampleChildren(served.pid, 20);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => call(served.url, i + 1, "abc"[i % 3], 400)),
    );
    const seen = await os.stop();
    for (const [i, answer] of answers.entries()) {
      const result = (answer as { result?: { isError?: boolean; structuredContent?: unknown } })
        .result;
      assert.ok(result !== undefined && result.isError !== true, JSON.stringify(answer));
      assert.equal((result.structuredContent as { tool: string }).tool, "abc"[i % 3]);
    }
    assert.ok(seen.samples >= 5, `only ${seen.samples} samples`);
    assert.ok(seen.most <= 4, `serve had ${seen.most} deno children at once (cap 4)`);
    assert.ok(seen.most >= 2, `serve never ran calls side by side (${seen.most} children)`);
  } finally {
    await served.close();
  }
});

Deno.test("--max-module-processes takes a whole number from 1; anything else exits 2 saying so", async () => {
  const manifest = fixture();
  const commands = [
    ["run", manifest, "a"],
    ["chain", manifest, "x"],
    ["respond", manifest, "--format", "openai"],
    ["serve", manifest, "--stdio"],
  ];
  for (const command of commands) {
    for (const bad of ["0", "-3", "1.5", "many", "70000"]) {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", CLI, ...command, `--max-module-processes=${bad}`],
        cwd: ROOT,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
        env: { NO_COLOR: "1" },
      }).output();
      const stderr = new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 2, `${command[0]} ${bad}: ${stderr}`);
      assert.match(
        stderr,
        new RegExp(
          `--max-module-processes must be a whole number of processes from 1 to 65536 .*got "${
            bad.replace(".", "\\.")
          }"`,
        ),
        command[0],
      );
    }
  }
});
