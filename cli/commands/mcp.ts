// The `mcp` command: a server's resources and prompts, and ping, as JSON.
//   mcp <manifest> <server> ping | resources | read <uri> | prompts | prompt <name> [--args JSON]

import { parseArgs } from "../_args.ts";
import { McpSession } from "../../run/mcp/session.ts";
import { type CliIo, EXIT, printJson } from "../_io.ts";
import { UsageError } from "../../workspace/errors.ts";
import { Redactor } from "../../workspace/secrets.ts";
import { scrubConsole } from "../_console_scrub.ts";
import { serverConfig, withServerAuth } from "../../workspace/runner_setup.ts";
import { MANIFEST_OPTIONS, openWorkspace, parseTimeout, report, withInterrupt } from "./_shared.ts";
import { noteSkipped } from "./_permission_lines.ts";

const ACTIONS = ["ping", "resources", "read", "prompts", "prompt"];

function parseObject(text: string): Record<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new UsageError(`--args is not valid JSON: ${(cause as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError("--args must be a JSON object (prompt arguments are strings)");
  }
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== "string") {
      throw new UsageError(`--args: prompt argument ${JSON.stringify(k)} must be a string`);
    }
  }
  return value as Record<string, string>;
}

/** `mcp <manifest> <server> <action> [...]` */
export async function mcpCommand(argv: string[], io: CliIo): Promise<number> {
  const redactor = new Redactor();
  using _console = scrubConsole(redactor);
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { args: { type: "string" }, timeout: { type: "string" }, ...MANIFEST_OPTIONS },
    });
    const [path, server, action, target, ...extra] = positionals;
    if (action === undefined || !ACTIONS.includes(action)) {
      throw new UsageError(
        `usage: mcp <manifest> <server> ${ACTIONS.join("|")} [uri|name]; see mcp --help`,
      );
    }
    const needsTarget = action === "read" || action === "prompt";
    if (needsTarget && target === undefined) {
      throw new UsageError(
        `mcp ${action} needs ${action === "read" ? "a resource URI" : "a prompt name"}`,
      );
    }
    if ((!needsTarget && target !== undefined) || extra.length > 0) {
      throw new UsageError(`unexpected argument ${JSON.stringify(target ?? extra[0])}`);
    }
    if (values.args !== undefined && action !== "prompt") {
      throw new UsageError("--args is for mcp ... prompt <name>");
    }
    const timeoutMs = parseTimeout(values.timeout) ?? 60_000;
    const workspace = await openWorkspace(path, values, redactor);
    const manifest = workspace.manifest;
    if (!Object.hasOwn(manifest.servers, server!)) throw workspace.unknownServer(server!);
    const promptArgs = values.args === undefined ? {} : parseObject(values.args);
    noteSkipped(io, workspace.requirePermissions({ tools: [`${server}:\u0000`] }));
    const config = await withServerAuth(
      manifest,
      server!,
      serverConfig(manifest, workspace.server(server!), {
        redact: (t) => redactor.redact(t),
      }),
      { env: (n) => Deno.env.get(n), redactor },
    );
    const result = await withInterrupt(async (signal) => {
      const session = await McpSession.open(server!, config, { signal, timeoutMs });
      try {
        const options = { signal, timeoutMs };
        switch (action) {
          case "ping": {
            // `ping` in the 2025 era; `server/discover` in 2026-07-28, which has no `ping`.
            const started = performance.now();
            const method = await session.ping(options);
            return { server, ok: true, ms: Math.round(performance.now() - started), method };
          }
          case "resources":
            return {
              resources: await session.list("resources/list", "resources", options),
              resourceTemplates: await session.list(
                "resources/templates/list",
                "resourceTemplates",
                options,
              ),
            };
          case "read":
            return await session.request("resources/read", { uri: target }, options);
          case "prompts":
            return { prompts: await session.list("prompts/list", "prompts", options) };
          default:
            return await session.request(
              "prompts/get",
              { name: target, arguments: promptArgs },
              options,
            );
        }
      } finally {
        await Promise.race([
          session.close().catch(() => {}),
          new Promise((r) => setTimeout(r, 2000)),
        ]);
      }
    });
    printJson(io, redactor, result);
    return EXIT.ok;
  } catch (error) {
    return report(io, redactor, error);
  }
}
