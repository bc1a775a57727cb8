// The `import` command: a Claude, Cursor or VS Code MCP configuration file
// written out as an equivalent YAML manifest, with comments.

import { parseArgs } from "../_args.ts";
import { Document } from "../../workspace/_generated/yaml.js";
import { type CliIo, EXIT } from "../_io.ts";
import { UsageError } from "../../workspace/errors.ts";
import {
  configWorkspace,
  isConfigFile,
  stripJsonComments,
  translateConfig,
} from "../../workspace/config_import.ts";
import { loadManifest } from "../../workspace/manifest.ts";
import { manifestNeeds } from "../../workspace/permissions.ts";
import { report, requirePermissions } from "./_shared.ts";

const FLAVOURS = { claude: "Claude Desktop / Claude Code / Cursor", vscode: "VS Code" } as const;

/** `import <file> [--out manifest.yaml] [--force]` */
export async function importCommand(argv: string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { out: { type: "string" }, force: { type: "boolean" } },
    });
    const [path, ...extra] = positionals;
    if (path === undefined) throw new UsageError("usage: import <file> [--out manifest.yaml]");
    if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`);
    // Every flag the whole command needs, checked (and listed) at once.
    const out = values.out === undefined ? [] : [
      { name: "write" as const, value: values.out, reason: "the --out file" },
      { name: "read" as const, value: values.out, reason: "the --out file (is it there?)" },
    ];
    requirePermissions({ needs: [...manifestNeeds(path), ...out], workers: false, modules: [] });
    // Checked as a manifest first: every problem located in the file.
    const manifest = await loadManifest(path);
    if (manifest.config === undefined) {
      throw new UsageError(`${path} is already a manifest (it has version: 1); nothing to import`);
    }
    const value = JSON.parse(stripJsonComments(await Deno.readTextFile(path)));
    if (!isConfigFile(value)) throw new UsageError(`${path} is not an MCP configuration file`);
    // The same workspace folder the file has when it is read as a manifest.
    const translated = translateConfig(value, configWorkspace(manifest.dir));
    const doc = new Document(translated.manifest);
    doc.commentBefore = [
      ` yaml-language-server: $schema=https://toolfoundation.dev/schemas/manifest-v1.json`,
      ``,
      ` Imported from ${path} (${FLAVOURS[translated.flavour]} format).`,
      ` Every tool of each server is imported as <server>:<tool>; narrow that with`,
      ` include / exclude (name globs) and annotations (e.g. readOnlyHint: true),`,
      ` and rename or describe a tool under tools: <name>: {name, description, timeoutMs}.`,
      ` Variables: \${env:NAME}, \${env:NAME:-default}, \${input:ID} (asked for on a`,
      ` terminal, or set TOOLFOUNDATION_INPUT_<ID>). Pin the tools with: lock <this file>.`,
      ...translated.notes.map((n) => ` Note: ${n}`),
    ].join("\n");
    const servers = doc.get("servers") as {
      items?: { key: { commentBefore?: string }; value: unknown }[];
    };
    for (const pair of servers?.items ?? []) {
      const v = (pair.value as { toJSON?: () => unknown })?.toJSON?.() as Record<string, unknown>;
      const kind = v?.type === "sse"
        ? "legacy HTTP+SSE transport"
        : v?.url !== undefined
        ? "Streamable HTTP"
        : "stdio: a process started with exactly the default child environment plus env";
      pair.key.commentBefore = ` ${kind}`;
    }
    const text = doc.toString({ lineWidth: 100 });
    if (values.out === undefined) {
      io.stdout(text);
      return EXIT.ok;
    }
    const exists = await Deno.lstat(values.out).then(() => true, () => false);
    if (exists && !values.force) {
      throw new UsageError(`${values.out} exists; give --force to replace it`);
    }
    await Deno.writeTextFile(values.out, text);
    if (io.verbosity !== "quiet") io.stderr(`wrote ${values.out}\n`);
    return EXIT.ok;
  } catch (error) {
    return report(io, undefined, error);
  }
}
