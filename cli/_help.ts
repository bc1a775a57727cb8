// Private: help texts (kept free of imports so `--help` starts fast).

export const USAGE =
  `toolfoundation - run and chain LLM tools defined in YAML, under explicit Deno permissions

Usage:
  toolfoundation <command> [options]

Commands:
  run <manifest> <toolId>        Run a tool; arguments from --args, --args-file or stdin
  chain <manifest> <chain>       Run a chain of tools
  list <manifest>                List the manifest's tools and chains (JSON)
  validate <manifest>            Check the manifest and its tool schemas [--target openai|anthropic|gemini]
  convert <manifest> --to <fmt>  Convert the tools to mcp|openai|openai-responses|anthropic|gemini
  permissions <manifest> [id]    Print the Deno flags a tool, a chain or the whole manifest needs
  serve <manifest> --stdio|--http HOST:PORT  Serve the manifest as one MCP server

Options:
  -h, --help       Show help (also: <command> --help, help <command>)
  -V, --version    Show the version

Exit codes:
  0 ok, 1 tool or validation failure, 2 usage or manifest error,
  3 missing permission, 130 interrupted

Results go to stdout as JSON; diagnostics, warnings and progress go to stderr.
Set NO_COLOR to turn colour off.
`;

export const HELP: ReadonlyMap<string, string> = new Map(Object.entries({
  serve: `Usage: toolfoundation serve <manifest> (--stdio | --http HOST:PORT) [options]

Serves the manifest's tools, chains and upstream servers as one MCP server.
Every call is checked: arguments against the input schema before anything
runs, results against the output schema, deadlines and output caps as in run.
HTTP (endpoint /mcp) is stateless unless --sessions; it binds 127.0.0.1 unless
told, and another interface needs --token-env or --oauth-issuer.

Options:
  --stdio                  Serve on stdin/stdout
  --http HOST:PORT         Serve Streamable HTTP at http://HOST:PORT/mcp
  --prefix SERVER=PREFIX   Prefix the tools of an MCP server (repeatable)
  --sessions               Keep sessions (resumable streams) for 2025-era clients
  --token-env NAME         Require "Authorization: Bearer $NAME" (repeatable)
  --oauth-issuer URL       OAuth resource-server mode: JWTs of this issuer
  --oauth-resource URL     This server's resource URL (the tokens' audience)
  --oauth-jwks URL         The issuer's JWKS (default: from its metadata)
  --oauth-scope TOOL=S     Scopes a tool needs (repeatable)
  --allow-host NAME        Accept this Host header (repeatable)
  --allow-origin ORIGIN    Accept this Origin (repeatable)
  --max-body-bytes N       Request body limit (default 4194304)
  --max-concurrent N       Requests in flight per client (default 16)
  --timeout MS             Deadline of every call (overrides the manifest)
  --log-args               Put the arguments into the access log
  --max-manifest-bytes N   Refuse larger manifests

One JSON access-log line per call goes to stderr.
`,
  run: `Usage: toolfoundation run <manifest> <toolId> [options]

Runs one tool and prints its structured result as JSON on stdout. An MCP
result with structuredContent and also non-text content (image, audio,
resource) prints as {"structured": ..., "content": [every block]}. A module
tool's own output goes to stderr (with --events: "log" events).

Options:
  --args <json>        The arguments, a JSON object
  --args-file <file>   Read the arguments from a JSON file
                       (without either, arguments are read from stdin when it is not a terminal;
                       otherwise they are {})
  --timeout <ms>       Deadline of the run, 1 to 2147483647; overrides the tool's
                       timeoutMs in the manifest (default: that, else 60000)
  --events             Write progress, chunk and done/error events to stderr as JSON Lines
  --max-manifest-bytes <n>  Largest manifest read (default 4194304)
  -h, --help           Show this help

Exit codes: 0 ok, 1 tool or validation failure (also a module tool refused by
its own permissions: grant), 2 usage or manifest error (also a tool schema no
validator can evaluate), 3 missing permission of the CLI (nothing is run),
130 interrupted (Ctrl-C cancels the tool)
`,
  chain: `Usage: toolfoundation chain <manifest> <chain> [options]

Runs the chain's steps in order; a step with usePrevious gets the previous
step's result as args.previous. Prints {chain, ok, steps, result} as JSON on
stdout; the chain stops at the first failing step and then also prints
failed {index, toolId, error} and notRun [{index, toolId}]. A chain with a
step certain to fail (arguments its tool's schema rejects) is refused before
anything runs (exit 2).

Options:
  --timeout <ms>   Deadline of each step, 1 to 2147483647; overrides the step's and
                   the tool's timeoutMs (default: those, else 60000)
  --events         Write step and run events to stderr as JSON Lines
  --max-manifest-bytes <n>  Largest manifest read (default 4194304)
  -h, --help       Show this help
`,
  list: `Usage: toolfoundation list <manifest>

Prints the manifest's tools (id, backend, description) and chains as JSON.
Connects to nothing.
`,
  validate: `Usage: toolfoundation validate <manifest> [--target openai|anthropic|gemini] [--strict]

Checks the manifest against its JSON Schema and for meaning, checks and
compiles every tool schema ($ref cycles, nesting, patterns that cannot run in
bounded time), loads every module tool in a sandbox without permissions (file
missing, does not parse, export missing; needs the flags \`permissions\`
prints, else a note says they were not checked), checks every chain step's
arguments against its tool's input schema (and that a usePrevious step can
accept previous), and with --target runs the provider's preflight on the
converted tools. Exit 0 when everything holds, 1 when the preflight fails, 2
when the manifest is invalid (located as file:line:column).
`,
  convert: `Usage: toolfoundation convert <manifest> --to <format> [--strict]

Converts every tool with a schema to mcp, openai, openai-responses, anthropic
or gemini. JSON on stdout; every feature-loss warning on stderr.
`,
  permissions: `Usage: toolfoundation permissions <manifest> [toolId|chain]

Prints the exact Deno permission flags that running the tool, the chain (or,
without a target, every tool) needs, as complete \`deno run ... cli.ts run|chain
<manifest> <target>\` and \`deno compile\` command lines (stdout), with the
reason for each permission (stderr).
`,
}));
