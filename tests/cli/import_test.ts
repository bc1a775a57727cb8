// `import`: ${workspaceFolder} is the absolute workspace folder whatever the current
// directory and however the file is named; every flag the command needs is listed at once.
import assert from "node:assert/strict";
import { ROOT } from "./_cli.ts";

/** Runs the CLI from `cwd` (the helpers of _cli.ts run it from the repository root). */
async function cliIn(cwd: string, flags: string[], args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...flags, `${ROOT}cli.ts`, ...args],
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

const SERVER = {
  command: "node",
  args: ["${workspaceFolder}/server.js", "${workspaceFolderBasename}"],
  cwd: "${workspaceFolder}",
};

/** A project folder with the same server in each tool's configuration file. */
async function project(): Promise<string> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "tf-import-" }));
  const workspace = `${dir}/app`;
  await Deno.mkdir(`${workspace}/.vscode`, { recursive: true });
  await Deno.mkdir(`${workspace}/.cursor`);
  await Deno.writeTextFile(
    `${workspace}/.vscode/mcp.json`,
    JSON.stringify({ servers: { s: { type: "stdio", ...SERVER } } }),
  );
  await Deno.writeTextFile(
    `${workspace}/.cursor/mcp.json`,
    JSON.stringify({ mcpServers: { s: SERVER } }),
  );
  await Deno.writeTextFile(`${workspace}/.mcp.json`, JSON.stringify({ mcpServers: { s: SERVER } }));
  return workspace;
}

Deno.test("import: ${workspaceFolder} is the absolute folder holding .vscode / .cursor / .mcp.json, from any directory, relative or absolute path", async () => {
  const workspace = await project();
  const parent = workspace.slice(0, workspace.lastIndexOf("/"));
  const cases: Array<[cwd: string, path: string]> = [];
  for (const file of [".vscode/mcp.json", ".cursor/mcp.json", ".mcp.json"]) {
    cases.push(
      [workspace, file],
      [workspace, `./${file}`],
      [parent, `app/${file}`],
      [`${workspace}/.vscode`, `../${file}`],
      [ROOT, `${workspace}/${file}`],
    );
  }
  await Promise.all(cases.map(async ([cwd, path]) => {
    const abs = path.startsWith("/") ? path : `${cwd}/${path}`;
    const out = await cliIn(cwd, [`--allow-read=${abs}`], ["import", path]);
    assert.equal(out.code, 0, `${cwd} ${path}: ${out.stderr}`);
    assert.match(out.stdout, new RegExp(`- ${workspace}/server\\.js\n\\s+- app\n`), out.stdout);
    assert.match(out.stdout, new RegExp(`cwd: ${workspace}\n`), `${cwd} ${path}:\n${out.stdout}`);
    assert.match(out.stdout, new RegExp(`Note: \\$\\{workspaceFolder\\} is ${workspace}\n`));
  }));
});

Deno.test("a configuration file read as a manifest has the same absolute ${workspaceFolder} as import gives it", async () => {
  const workspace = await project();
  for (const file of [".vscode/mcp.json", ".cursor/mcp.json", ".mcp.json"]) {
    const config = JSON.parse(await Deno.readTextFile(`${workspace}/${file}`));
    const servers = config.servers ?? config.mcpServers;
    servers.s.command = "${workspaceFolder}/bin/server";
    await Deno.writeTextFile(`${workspace}/${file}`, JSON.stringify(config));
    // The program `permissions` names is the one `run` starts.
    const out = await cliIn(workspace, [`--allow-read=${file}`], ["permissions", file]);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, new RegExp(`--allow-run=${workspace}/bin/server,kill `), file);
  }
});

Deno.test("import: ${userHome} becomes ${env:HOME}, not a variable named userHome", async () => {
  const workspace = await project();
  await Deno.writeTextFile(
    `${workspace}/.cursor/mcp.json`,
    JSON.stringify({ mcpServers: { s: { command: "node", args: ["${userHome}/s.js"] } } }),
  );
  const out = await cliIn(workspace, ["--allow-read=.cursor/mcp.json"], [
    "import",
    ".cursor/mcp.json",
  ]);
  assert.equal(out.code, 0, out.stderr);
  assert.match(out.stdout, /- \$\{env:HOME\}\/s\.js\n/);
});

Deno.test("import --out without permissions lists every flag it needs at once; exactly those flags are enough", async () => {
  const workspace = await project();
  const args = ["import", ".vscode/mcp.json", "--out", "tools.yaml"];
  const none = await cliIn(workspace, [], args);
  assert.equal(none.code, 3, none.stderr);
  const all = /All the flags this needs: (.*)\n/.exec(none.stderr)?.[1];
  assert.equal(all, "--allow-read=.vscode/mcp.json,tools.yaml --allow-write=tools.yaml");
  assert.match(none.stderr, /--allow-read=\.vscode\/mcp\.json,tools\.yaml\s+\(the manifest;/);
  // Only the config file readable: the --out flags are still asked for before anything runs.
  const some = await cliIn(workspace, ["--allow-read=.vscode/mcp.json"], args);
  assert.equal(some.code, 3, some.stderr);
  assert.match(
    some.stderr,
    /All the flags this needs: --allow-read=\.vscode\/mcp\.json,tools\.yaml --allow-write=tools\.yaml\n/,
  );
  const ok = await cliIn(workspace, all!.split(" "), args);
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(await Deno.readTextFile(`${workspace}/tools.yaml`), new RegExp(`cwd: ${workspace}`));
});

Deno.test("problems in a configuration file are named by the file's own keys (/mcpServers/x, /mcp/servers/x), at their line", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "tf-import-" }));
  const files: Record<string, [string, RegExp]> = {
    ".mcp.json": [
      '{\n  "mcpServers": {\n    "x": { "command": 5 }\n  }\n}\n',
      /^\.mcp\.json:3:\d+: \/mcpServers\/x\/command: must be string/m,
    ],
    "settings.json": [
      '{\n  "mcp": {\n    "servers": {\n      "x": { "type": "stdio", "command": "echo", "env": { "A": 1 } }\n    }\n  }\n}\n',
      /^settings\.json:4:\d+: \/mcp\/servers\/x\/env\/A: must be string/m,
    ],
  };
  for (const [name, [text, expected]] of Object.entries(files)) {
    await Deno.writeTextFile(`${dir}/${name}`, text);
    const out = await cliIn(dir, [`--allow-read=${name}`], ["validate", name, "--offline"]);
    assert.equal(out.code, 2, out.stderr);
    assert.match(out.stderr, expected);
    assert.doesNotMatch(out.stderr, /(^|: )\/servers\//m, "the manifest's pointer leaked");
  }
});
