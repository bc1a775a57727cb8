// `mcp <manifest> <server> ping|resources|read|prompts|prompt`: a server's
// resources and prompts as JSON, content kept whole (text, blobs, embedded
// resources), with errors that name the server.
import assert from "node:assert/strict";
import { cli, flagsFor } from "./_cli.ts";
import { EVERYTHING } from "../run/_mcp_servers.ts";

async function config(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "tf-mcp-" });
  const path = `${dir}/.mcp.json`;
  await Deno.writeTextFile(
    path,
    JSON.stringify({
      mcpServers: {
        everything: {
          command: Deno.execPath(),
          args: ["run", "-A", "--no-config", EVERYTHING, "stdio"],
        },
      },
    }),
  );
  return path;
}

Deno.test("ping, resources, read, prompts and prompt with arguments print the server's answers whole", async () => {
  const path = await config();
  const flags = await flagsFor(path);
  const ping = await cli(["mcp", path, "everything", "ping"], { flags });
  assert.equal(ping.code, 0, ping.stderr);
  assert.equal(JSON.parse(ping.stdout).ok, true);
  assert.equal(JSON.parse(ping.stdout).method, "ping", "a 2025-era server is sent ping");
  const resources = await cli(["mcp", path, "everything", "resources"], { flags });
  assert.equal(resources.code, 0, resources.stderr);
  const listed = JSON.parse(resources.stdout);
  assert.ok(listed.resources.length > 0);
  assert.ok(
    listed.resourceTemplates.some((t: { uriTemplate: string }) => t.uriTemplate.includes("blob")),
  );
  const blob = await cli(["mcp", path, "everything", "read", "demo://resource/dynamic/blob/1"], {
    flags,
  });
  assert.equal(blob.code, 0, blob.stderr);
  const content = JSON.parse(blob.stdout).contents[0];
  assert.equal(content.uri, "demo://resource/dynamic/blob/1");
  assert.match(atob(content.blob), /Resource 1/);
  const prompts = await cli(["mcp", path, "everything", "prompts"], { flags });
  assert.equal(prompts.code, 0, prompts.stderr);
  assert.ok(
    JSON.parse(prompts.stdout).prompts.some((p: { name: string }) => p.name === "args-prompt"),
  );
  const prompt = await cli([
    "mcp",
    path,
    "everything",
    "prompt",
    "resource-prompt",
    "--args",
    '{"resourceType":"Text","resourceId":"2"}',
  ], { flags });
  assert.equal(prompt.code, 0, prompt.stderr);
  const messages = JSON.parse(prompt.stdout).messages;
  const embedded = messages.find((m: { content: { type: string } }) =>
    m.content.type === "resource"
  );
  assert.equal(embedded.content.resource.uri, "demo://resource/dynamic/text/2");
  assert.match(embedded.content.resource.text, /Resource 2/);
});

Deno.test("mcp: unknown server, bad arguments and a server error are reported", async () => {
  const path = await config();
  const flags = await flagsFor(path);
  const unknown = await cli(["mcp", path, "nope", "ping"], { flags });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /no server named "nope" in .*; servers: everything/);
  const noAction = await cli(["mcp", path, "everything", "list"], { flags });
  assert.equal(noAction.code, 2);
  const badArgs = await cli([
    "mcp",
    path,
    "everything",
    "prompt",
    "args-prompt",
    "--args",
    '{"city":1}',
  ], {
    flags,
  });
  assert.equal(badArgs.code, 2);
  assert.match(badArgs.stderr, /prompt argument "city" must be a string/);
  const missing = await cli(["mcp", path, "everything", "prompt", "no-such-prompt"], { flags });
  assert.equal(missing.code, 1, missing.stderr);
  assert.match(missing.stderr, /MCP server "everything": prompts\/get/);
  assert.equal(missing.stdout, "");
});

Deno.test("ping of a 2026-07-28 server sends server/discover (that era has no ping)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tf-mcp-" });
  const path = `${dir}/.mcp.json`;
  const script = new URL("../fixtures/run/mcp_modern_server.ts", import.meta.url).pathname;
  await Deno.writeTextFile(
    path,
    JSON.stringify({
      mcpServers: {
        modern: {
          command: Deno.execPath(),
          args: ["run", "-A", script, "stdio", "modern-only"],
        },
      },
    }),
  );
  const ping = await cli(["mcp", path, "modern", "ping"], { flags: await flagsFor(path) });
  assert.equal(ping.code, 0, ping.stderr);
  const answer = JSON.parse(ping.stdout);
  assert.equal(answer.ok, true);
  assert.equal(answer.method, "server/discover");
  assert.doesNotMatch(ping.stderr, /not supported/);
});
