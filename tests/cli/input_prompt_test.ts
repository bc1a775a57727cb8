// `${input:ID}` on a terminal: the CLI asks for the value (the input's
// description as the prompt), reads it without echo, and uses it. Run under a
// pseudo-terminal made by util-linux `script` (skipped where it is missing).
import assert from "node:assert/strict";
import { ROOT } from "./_cli.ts";

const SCRIPT = ["/usr/bin/script", "/bin/script"].find((p) => {
  try {
    return Deno.statSync(p).isFile;
  } catch {
    return false;
  }
});

Deno.test({
  name: "an ${input:ID} is asked for on a terminal, not echoed, and used",
  ignore: SCRIPT === undefined,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "tf-input-" });
    await Deno.mkdir(`${dir}/.vscode`);
    const file = `${dir}/.vscode/mcp.json`;
    await Deno.writeTextFile(
      file,
      JSON.stringify({
        inputs: [{ id: "tok", type: "promptString", description: "API token", password: true }],
        servers: {
          web: {
            type: "http",
            url: "http://127.0.0.1:9/mcp",
            headers: { Authorization: "Bearer ${input:tok}" },
          },
        },
      }),
    );
    const command = [
      Deno.execPath(),
      "run",
      "-A",
      `${ROOT}cli.ts`,
      "list",
      file,
      "--timeout",
      "5000",
    ]
      .map((w) => `'${w}'`).join(" ");
    const child = new Deno.Command(SCRIPT!, {
      args: ["-qec", command, "/dev/null"],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).spawn();
    const decoder = new TextDecoder();
    const reader = child.stdout.getReader();
    let seen = "";
    // Type only once the prompt is shown (typing ahead would be echoed by the terminal).
    while (!seen.includes("API token: ")) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += decoder.decode(value, { stream: true });
    }
    assert.match(seen, /API token: /);
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode("sekrit-value-123\r"));
    await writer.close();
    let rest = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      rest += decoder.decode(value, { stream: true });
    }
    await child.stderr.cancel();
    await child.status;
    assert.ok(!(seen + rest).includes("sekrit-value-123"), `the value was echoed: ${seen + rest}`);
    // The value was taken: the CLI went on to the server (which is not there).
    assert.match(rest, /server "web" cannot be used/);
    await Deno.remove(dir, { recursive: true });
  },
});
