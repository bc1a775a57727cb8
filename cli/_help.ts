// Private: help texts. This module imports nothing, so that `--help` starts
// fast.

/**
 * The formats of `defaultRegistry().list()` (adapter/), written out so that
 * help does not load the adapters; tests/cli/startup_graph_test.ts checks that
 * they are the same.
 */
export const FORMATS: readonly string[] = [
  "anthropic",
  "gemini",
  "mcp",
  "openai",
  "openai-responses",
];

export const USAGE =
  `toolfoundation - run and chain LLM tools defined in YAML, under explicit Deno permissions

Usage:
  toolfoundation <command> [options]

Commands:
  run <manifest> <toolId>        Run a tool; arguments from --args, --args-file or stdin
  chain <manifest> <chain>       Run a chain of tools
  list <manifest>                List the manifest's tools and chains (JSON)
  validate <manifest>            Check the manifest and its tool schemas [--target <fmt>]
  convert <manifest> --to <fmt>  Convert the tools to ${FORMATS.join("|")}
  report <manifest> --html FILE  What each provider loses from each tool (HTML page; --json)
  permissions <manifest> [id]    Print the Deno flags a tool, a chain or the whole manifest needs
  respond <manifest> --format f  Run a model response's tool calls (stdin); print the answer messages
  auth login|status|logout       OAuth for HTTP servers: log in (browser), show or delete stored tokens
  import <file> [--out f.yaml]   Turn a Claude/Cursor/VS Code MCP config into a YAML manifest
  lock <manifest>                Pin the servers' tool definitions in <manifest>.lock
  mcp <manifest> <server> <what> ping, resources, read <uri>, prompts, prompt <name> (JSON)
  serve <manifest> --stdio|--http HOST:PORT  Serve the manifest as one MCP server
  completions bash|zsh|fish      Print a shell completion script (completions --help)

Options:
  -h, --help       Show help (also: <command> --help, help <command>)
  -V, --version    Show the version

Options of every command:
  -q, --quiet      Print results and errors only: no notes, warnings, progress or ok lines
  -v, --verbose    Print every warning (one line each), progress off a terminal too, and details
  --warnings text|json
                   text (default): warnings summarised by kind with counts ("38 warnings:
                   11 × required rewritten, ..."), in full when there are 3 or fewer;
                   json: one JSON line per warning on stderr (also under --quiet)

Exit codes (the same for every command, serve at start included):
  0 ok, 1 tool or validation failure, 2 usage or manifest error,
  3 missing permission, 4 a server needs a login (auth login),
  5 a server tool changed since it was locked, 130 interrupted

A manifest may also be a Claude Desktop / Claude Code (.mcp.json), Cursor or
VS Code MCP configuration file, as it is.

Results go to stdout as JSON; diagnostics, warnings and progress go to stderr.
While list, validate, convert, respond and lock connect to the manifest's
servers (all at once, each within its deadline), a live progress line is
shown on a terminal; off a terminal nothing is, unless --verbose (one line
per server started, listed or failed).
Set NO_COLOR to turn colour off.
`;

export const HELP: ReadonlyMap<string, string> = new Map(Object.entries({
  auth: `Usage: toolfoundation auth login <manifest> <server> [--no-browser] [--timeout <ms>]
       toolfoundation auth status [<manifest>]
       toolfoundation auth logout <manifest> <server>

OAuth for Streamable HTTP servers (the server's auth: block in the manifest).
login opens the system browser at the authorization server (or prints the URL
with --no-browser or when there is no display) and receives the answer on
http://127.0.0.1:<random port>/callback (state checked, --timeout ms, default
300000); client_credentials and cross_app_access log in without a browser.
Tokens go to $TOOLFOUNDATION_TOKEN_STORE, else $XDG_CONFIG_HOME/toolfoundation/
tokens.json, else ~/.config/toolfoundation/tokens.json (mode 0600). run and
chain use and refresh them and never open a browser: when a login is needed
they exit with code 4 and name the command. status prints what is stored (no
token values); logout deletes a server's entries. --max-manifest-bytes <n>:
the largest manifest read.
`,
  serve: `Usage: toolfoundation serve <manifest> (--stdio | --http HOST:PORT) [options]

Serves the manifest's tools, chains and upstream servers as one MCP server.
Every call is checked: arguments against the input schema before anything
runs, results against the output schema, deadlines and output caps as in run.
HTTP (endpoint /mcp) is stateless unless --sessions; it binds 127.0.0.1 unless
told, and another interface needs --token-env or --oauth-issuer.

Options:
  --stdio                  Serve on stdin/stdout
  --http HOST:PORT         Serve Streamable HTTP at http://HOST:PORT/mcp
  --prefix SERVER=PREFIX   Prefix the tools of an MCP server (repeatable); "_" is added
                           unless PREFIX ends in _ - or .
  --sessions               Keep sessions (resumable streams) for 2025-era clients
  --token-env NAME         Require "Authorization: Bearer $NAME" (repeatable);
                           the caller's principal is NAME (never the token)
  --oauth-issuer URL       OAuth resource-server mode: JWTs of this issuer
  --oauth-resource URL     This server's resource URL (the tokens' audience)
  --oauth-jwks URL         The issuer's JWKS (default: from its metadata)
  --oauth-scope TOOL=S     Scopes a tool needs (repeatable)
  --allow-host NAME        Accept this Host header (repeatable)
  --allow-origin ORIGIN    Accept this Origin (repeatable)
  --max-body-bytes N       Request body / stdin line limit (default 4194304)
  --max-concurrent N       Requests in flight per principal (default 16)
  --max-rate N/WINDOW      Requests per principal per window (default 6000/60s)
  --max-sessions-per-principal N
                           Sessions one principal may hold (default 100)
  --session-idle DURATION  A session unused this long ends (default 15m)
  --max-event-bytes N      Bytes of stream events kept per session, for
                           resuming (default 16777216; oldest dropped first)
  --max-event-bytes-total N
                           The same over all sessions (default 268435456)
  --upstream-connections N Connections per upstream server (default 4 for a
                           stdio server, 16 for HTTP; one client holds at
                           most 3/4 of them while others wait)
  --upstream-calls-per-process N
                           Calls one stdio server process carries side by
                           side, for clients that offer no sampling,
                           elicitation or roots (default 16; 1: a process
                           per call in flight; a server's callsPerProcess
                           in the manifest wins)
  --max-module-processes N Module-tool processes alive at once, all clients
                           together (default 16; beyond it an idle one is
                           stopped, or the call waits within its deadline)
  --state STORE            Where sessions, their events, quotas and rates
                           live: memory (default, this process) or
                           redis://HOST:PORT, shared by every instance
                           started with the same one (needs --allow-net
                           for HOST:PORT)
  --state-prefix PREFIX    Prefix of serve's Redis keys (default
                           toolfoundation:); instances sharing state use one
  --timeout MS             Deadline of every call (overrides the manifest)
  --request-state-key-env NAME
                           Seal the requestState of input-required results
                           (MCP 2026-07-28) with $NAME (32 bytes or more;
                           default: a random key of this process); instances
                           behind one address need the same
  --log-args               Put the arguments into the access log
  --report                 Serve the schema-loss report page (the page the
                           report command writes) at /report, behind the same auth
  --max-manifest-bytes N   Refuse larger manifests

The principal of a request is its token's --token-env NAME, its OAuth
token's subject (else client id), or without auth the remote address. A
session belongs to the principal that opened it: any other gets 404.
Over a limit a request gets 429 (with retry-after for the rate and the
concurrency). DURATION is 500ms, 60s, 15m, 1h (bare numbers: ms).

With --state redis://HOST:PORT serve exits 1 at start when that Redis does
not answer; while it is down later, requests that need it get 503 (a
JSON-RPC error naming it) and serve reconnects by itself when it is back.

One JSON access-log line per call goes to stderr. SIGINT or SIGTERM (and the
end of stdin with --stdio) stop serving and every server process it started;
stopped while its servers still start, serve exits with 130. At start it exits
as every command does: 2 usage or manifest error, 3 missing permission, 4 a
server needs a login, 5 a server tool changed since it was locked.
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
  --max-module-processes <n>  Module-tool processes alive at once (default 16)
  -h, --help           Show this help

Exit codes: 0 ok, 1 tool or validation failure (also a module tool refused by
its own permissions: grant), 2 usage or manifest error (also a tool schema no
validator can evaluate), 3 missing permission of the CLI (nothing is run),
4 a server needs a login, 5 a server tool changed since it was locked,
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
  --args <json>    The chain's input (checked against its inputSchema); steps take
                   values from it with {$from: input/<pointer>}
  --args-file <f>  Read the chain's input from a JSON file
  --timeout <ms>   Deadline of each step, 1 to 2147483647; overrides the step's and
                   the tool's timeoutMs (default: those, else 60000)
  --events         Write step and run events to stderr as JSON Lines
  --max-manifest-bytes <n>  Largest manifest read (default 4194304)
  --max-module-processes <n>  Module-tool processes alive at once (default 16)
  -h, --help       Show this help
`,
  list: `Usage: toolfoundation list <manifest>

Prints the manifest's tools (id, backend, description) and chains as JSON,
with every tool of its servers (server:tool; connecting under the same
permissions and deadline as run), and a line per server.

Options:
  --offline        Contact no server: only the tools the manifest lists
  --keep-going     A server that cannot be used is a warning, not an error
  --timeout <ms>   Deadline of connecting to and listing one server (default 60000);
                   the servers connect at the same time, so list takes about as
                   long as the slowest
  --max-manifest-bytes <n>  Largest manifest read (default 4194304)
`,
  validate: `Usage: toolfoundation validate <manifest> [--target ${
    FORMATS.join("|")
  }] [--strict] [--json]

Checks the manifest against its JSON Schema and for meaning, checks and
compiles every tool schema ($ref cycles, nesting, patterns that cannot run in
bounded time), loads every module tool in a sandbox without permissions (file
missing, does not parse, export missing; needs the flags \`permissions\`
prints, else a note says they were not checked), checks every chain step's
arguments against its tool's input schema (and that a usePrevious step can
accept previous), and with --target runs the provider's preflight on the
converted tools. Exit 0 when everything holds, 1 when the preflight fails, 2
when the manifest is invalid (located as file:line:column).

Options:
  --target <format>  Run the provider's preflight on the converted tools
  --strict           Convert in strict mode (openai) for the preflight
  --json             Print the verdict on stdout as JSON: {"valid", "manifest",
                     "tools", "chains", "target", "problems": [{"tool",
                     "message", "pointer"}]}; an invalid manifest's problems
                     carry "file", "line", "column" (exit codes unchanged)
  --offline, --keep-going, --timeout <ms>  As for list
  --max-manifest-bytes <n>  Largest manifest read (default 4194304)
`,
  convert: `Usage: toolfoundation convert <manifest> --to <format> [--strict]

Converts every tool with a schema to ${FORMATS.slice(0, -1).join(", ")}
or ${FORMATS.at(-1)}, the servers' tools included (--offline, --keep-going,
--timeout as for list; --max-manifest-bytes). JSON on stdout; the
feature-loss warnings on stderr, summarised by kind with counts (--verbose
lists each, --warnings json writes each as a JSON line with its tool, path,
feature, action and effect).
`,
  report: `Usage: toolfoundation report <manifest> (--html FILE | --json) [options]

What each provider loses from each tool: every tool of the manifest (its
servers' tools included; --offline, --keep-going, --timeout as for list)
converted for openai, openai in strict mode, openai-responses, anthropic, gemini and
mcp. Each cell is exact (nothing changed), lossy (keywords dropped, rewritten
or moved into descriptions: each warning located by its JSON Pointer) or
refused (the conversion fails, or the provider's preflight rules reject the
result: the reason and what would make it pass).

Options:
  --html FILE         Write one self-contained page (no network; opens from
                      file:// as well): the matrix, a detail per cell (the
                      canonical and converted schemas side by side, losses
                      marked), filters, a stable #cell/<target>/<tool> link
  --json              Print the same data: one entry per tool × target
  --fail-on lossy|refused
                      Exit 1 when a cell is lossy or refused (lossy: either)
  --target ID         Only this target (repeatable): openai, openai-strict,
                      openai-responses, anthropic, gemini, mcp
  --now TIME          The report's time (ISO 8601 or seconds since 1970;
                      default: SOURCE_DATE_EPOCH when set, else now): the
                      same manifest and time give the same bytes
  --max-manifest-bytes <n>  Largest manifest read (default 4194304)

Exit codes: 0 written, 1 --fail-on found a cell, 2 usage or manifest error,
3 missing permission (writing FILE needs --allow-write=FILE).
`,
  import: `Usage: toolfoundation import <file> [--out manifest.yaml] [--force]

Reads a Claude Desktop / Claude Code (.mcp.json), Cursor or VS Code MCP
configuration file and prints (or writes to --out; --force replaces a file)
the equivalent YAML manifest, with comments. Variables become \${env:NAME},
\${env:NAME:-default} and \${input:ID}.
`,
  lock: `Usage: toolfoundation lock <manifest> [--timeout <ms>]

Connects to every server of the manifest and writes <manifest>.lock: each
tool's definition (name, description, schemas, annotations) and its sha-256.
From then on run, chain, list, validate and convert refuse a tool whose
definition changed (exit 5, showing what changed) and do not expose new tools
until lock runs again. The servers connect at the same time, each within
--timeout (default 60000); the first that fails stops the others.
--max-manifest-bytes <n>: the largest manifest read.
`,
  mcp: `Usage: toolfoundation mcp <manifest> <server> <action> [uri|name] [options]

Actions: ping; resources (resources and resource templates); read <uri>;
prompts; prompt <name> [--args '{"arg":"value"}']. Prints the server's answer
as JSON, content whole (text, blobs, embedded resources). ping sends ping to a
2025-era server and server/discover to a 2026-07-28 one (that era has no ping);
it prints {server, ok, ms, method}.

Options:
  --args <json>    Prompt arguments (strings)
  --timeout <ms>   Deadline of connecting and of each request (default 60000)
  --max-manifest-bytes <n>  Largest manifest read (default 4194304)
`,
  permissions: `Usage: toolfoundation permissions <manifest> [toolId|chain]

Prints the exact Deno permission flags that running the tool, the chain (or,
without a target, every tool) needs, as complete \`deno run ... cli.ts run|chain
<manifest> <target>\` and \`deno compile\` command lines (stdout), with the
reason for each permission (stderr; not with --quiet), naming every server and
tool behind it. --serve plans for serve instead (with --http HOST:PORT,
--token-env NAME, --request-state-key-env NAME and --state redis://HOST:PORT
as serve would be given them). --max-manifest-bytes <n>: the largest manifest
read.

Variables child processes may inherit but the manifest did not ask for (HOME,
proxies, CA certificates, npm_config_*, ...) are optional: the printed lines
grant them, a line without them runs too (each one not granted is skipped,
never prompted for). PATH is required for servers and providers that start a
program; --allow-run=kill stops their process groups.
`,
  respond: `Usage: toolfoundation respond <manifest> --format <format> [options]

The tool step of an agent loop. Reads a model's response on stdin (the whole
response JSON, or with --stream its server-sent events), runs every tool call
in it with the manifest's tools, and prints the messages to send back, as a
JSON array on stdout: openai (Chat Completions): one {"role":"tool",
"tool_call_id",...} per call; openai-responses: one {"type":
"function_call_output","call_id",...} per call; anthropic: one {"role":"user"}
message of tool_result blocks; gemini: one {"role":"user"} content of
functionResponse parts. A call that fails (unknown tool, invalid arguments,
a tool error, a timeout) is answered with what went wrong, so the model can
repair it; each failure is also noted on stderr.

Options:
  --format <f>        openai | openai-responses | anthropic | gemini (required)
  --stream            stdin is the provider's event stream (text/event-stream)
  --strict            the request's tools were converted with --strict
                      (the model's nulls for optional arguments are dropped)
  --timeout <ms>      Deadline of each call (default: the tool's timeoutMs, else 60000)
  --concurrency <n>   Calls running at once (default 4)
  --media-as-text     Send images and documents as text, with a warning
  --max-manifest-bytes <n>  Largest manifest read (default 4194304)
  --max-module-processes <n>  Module-tool processes alive at once (default 16;
                      beyond it calls wait for one within their deadline)
  -h, --help          Show this help

Offers the same tools as list, convert and serve: the manifest's tools and
its servers' (contacted to list them: filters, overrides and the lock file
apply). Needs the permissions \`permissions <manifest>\` prints (the servers'
to list their tools; those of the called tools are checked before anything
runs).

Exit codes: 0 every call succeeded, 1 the answer was printed and at least one
call failed or was refused (its answer says why), 2 usage or manifest error, or
stdin is not a response of the format (one of another format, a provider's
error body, no provider response at all: the message says which, and what to
run instead), 3 missing permission (nothing is run), 4 a server needs a login,
5 a server tool changed since it was locked,
130 interrupted
`,
  completions: `Usage: toolfoundation completions bash|zsh|fish

Prints a completion script for the shell: commands, their flags and the
values of flags that take one of a few (formats, text|json). Load it with
  bash: source <(toolfoundation completions bash)   (e.g. in ~/.bashrc)
  zsh:  source <(toolfoundation completions zsh)    (after compinit), or save
        it as _toolfoundation in a folder of $fpath
  fish: toolfoundation completions fish | source, or save it as
        ~/.config/fish/completions/toolfoundation.fish
It completes the command toolfoundation (the compiled binary, or an alias of
deno run ... cli.ts).
`,
}));
