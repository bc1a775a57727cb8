// Private: every command with its arguments and flags, as data. Shell
// completions are generated from it (cli/commands/completions.ts), and
// tests/cli/completions_test.ts checks it against each command's --help and
// its parser, so that completions, help and parsing cannot drift apart.

import { FORMATS } from "./_help.ts";

/** One flag of a command. */
export interface FlagSpec {
  /** The long name, without `--`. */
  name: string;
  /** A few words on what it does (completion menus show them). */
  about: string;
  /** What its value is (absent: a flag without a value). */
  value?: string;
  /** The values it takes, when they are a fixed few. */
  choices?: readonly string[];
  /** Its value is a file. */
  file?: boolean;
}

/** One command. */
export interface CommandSpec {
  /** Its name. */
  name: string;
  /** A few words on what it does. */
  about: string;
  /** Words that may come first after it (subcommands, shells). */
  words?: readonly string[];
  /** Whether its arguments are files (a manifest, a configuration file). */
  files: boolean;
  /** Its own flags. */
  flags: readonly FlagSpec[];
}

/** The formats `respond` reads. */
const LOOP_FORMATS = ["openai", "openai-responses", "anthropic", "gemini"] as const;

/** Flags every command takes (read before the command's own). */
export const GLOBAL_FLAGS: readonly FlagSpec[] = [
  { name: "quiet", about: "Print results and errors only" },
  { name: "verbose", about: "Print every warning, progress and details" },
  {
    name: "warnings",
    about: "Warnings as a summary (text) or as JSON lines (json)",
    value: "format",
    choices: ["text", "json"],
  },
  { name: "help", about: "Show the command's help" },
];

const MANIFEST_BYTES: FlagSpec = {
  name: "max-manifest-bytes",
  about: "Largest manifest read",
  value: "bytes",
};
const MODULE_PROCESSES: FlagSpec = {
  name: "max-module-processes",
  about: "Module-tool processes alive at once",
  value: "n",
};
const TIMEOUT: FlagSpec = { name: "timeout", about: "Deadline in milliseconds", value: "ms" };
const SERVERS: readonly FlagSpec[] = [
  { name: "offline", about: "Contact no server" },
  { name: "keep-going", about: "A server that cannot be used is a warning" },
  { ...TIMEOUT, about: "Deadline of connecting to and listing one server (ms)" },
];
const ARGS: readonly FlagSpec[] = [
  { name: "args", about: "The arguments, a JSON object", value: "json" },
  { name: "args-file", about: "Read the arguments from a JSON file", value: "file", file: true },
];

/** Every command, in the order of the usage text. */
export const COMMAND_SPECS: readonly CommandSpec[] = [
  {
    name: "run",
    about: "Run a tool",
    files: true,
    flags: [
      ...ARGS,
      TIMEOUT,
      { name: "events", about: "Write events to stderr as JSON Lines" },
      MANIFEST_BYTES,
      MODULE_PROCESSES,
    ],
  },
  {
    name: "chain",
    about: "Run a chain of tools",
    files: true,
    flags: [
      ...ARGS,
      TIMEOUT,
      { name: "events", about: "Write events to stderr as JSON Lines" },
      MANIFEST_BYTES,
      MODULE_PROCESSES,
    ],
  },
  {
    name: "list",
    about: "List the tools and chains",
    files: true,
    flags: [...SERVERS, MANIFEST_BYTES],
  },
  {
    name: "validate",
    about: "Check the manifest and its tool schemas",
    files: true,
    flags: [
      { name: "target", about: "Run a provider's preflight", value: "format", choices: FORMATS },
      { name: "strict", about: "Convert in strict mode for the preflight" },
      { name: "json", about: "Print the verdict on stdout as JSON" },
      ...SERVERS,
      MANIFEST_BYTES,
    ],
  },
  {
    name: "convert",
    about: "Convert the tools to a provider's format",
    files: true,
    flags: [
      { name: "to", about: "The format", value: "format", choices: FORMATS },
      { name: "strict", about: "Strict mode (openai)" },
      ...SERVERS,
      MANIFEST_BYTES,
    ],
  },
  {
    name: "report",
    about: "What each provider loses from each tool, as a page or JSON",
    files: true,
    flags: [
      { name: "html", about: "Write the page to this file", value: "file", file: true },
      { name: "json", about: "Print the report as JSON" },
      {
        name: "fail-on",
        about: "Exit 1 when a cell is lossy or refused",
        value: "status",
        choices: ["lossy", "refused"],
      },
      { name: "target", about: "Only this target (repeatable)", value: "target" },
      { name: "now", about: "The report's time (ISO 8601 or seconds)", value: "time" },
      ...SERVERS,
      MANIFEST_BYTES,
    ],
  },
  {
    name: "permissions",
    about: "Print the Deno flags a tool, chain or manifest needs",
    files: true,
    flags: [
      { name: "serve", about: "Plan for serve" },
      { name: "http", about: "serve's address", value: "host:port" },
      { name: "token-env", about: "serve's token variable", value: "name" },
      { name: "request-state-key-env", about: "serve's requestState key variable", value: "name" },
      { name: "state", about: "serve's state store", value: "memory|redis://host:port" },
      MANIFEST_BYTES,
    ],
  },
  {
    name: "respond",
    about: "Run a model response's tool calls",
    files: true,
    flags: [
      { name: "format", about: "The response's format", value: "format", choices: LOOP_FORMATS },
      { name: "stream", about: "stdin is an event stream" },
      { name: "strict", about: "The tools were converted with --strict" },
      { ...TIMEOUT, about: "Deadline of each call (ms)" },
      { name: "concurrency", about: "Calls running at once", value: "n" },
      { name: "media-as-text", about: "Send images and documents as text" },
      MANIFEST_BYTES,
      MODULE_PROCESSES,
    ],
  },
  {
    name: "auth",
    about: "OAuth for HTTP servers",
    words: ["login", "status", "logout"],
    files: true,
    flags: [
      { name: "no-browser", about: "Print the login URL instead of opening a browser" },
      { ...TIMEOUT, about: "Deadline of the login (ms)" },
      MANIFEST_BYTES,
    ],
  },
  {
    name: "import",
    about: "Turn an MCP client configuration into a manifest",
    files: true,
    flags: [
      { name: "out", about: "Write the manifest to this file", value: "file", file: true },
      { name: "force", about: "Replace the --out file" },
    ],
  },
  {
    name: "lock",
    about: "Pin the servers' tool definitions",
    files: true,
    flags: [
      { ...TIMEOUT, about: "Deadline of connecting to and listing one server (ms)" },
      MANIFEST_BYTES,
    ],
  },
  {
    name: "mcp",
    about: "Ping a server, read its resources and prompts",
    files: true,
    flags: [
      { name: "args", about: "Prompt arguments, a JSON object", value: "json" },
      { ...TIMEOUT, about: "Deadline of connecting and of each request (ms)" },
      MANIFEST_BYTES,
    ],
  },
  {
    name: "serve",
    about: "Serve the manifest as one MCP server",
    files: true,
    flags: [
      { name: "stdio", about: "Serve on stdin/stdout" },
      { name: "http", about: "Serve Streamable HTTP", value: "host:port" },
      { name: "prefix", about: "Prefix a server's tools", value: "server=prefix" },
      { name: "sessions", about: "Keep sessions for 2025-era clients" },
      { name: "token-env", about: "Require this bearer token variable", value: "name" },
      { name: "request-state-key-env", about: "Key that seals requestState", value: "name" },
      { name: "oauth-issuer", about: "Accept JWTs of this issuer", value: "url" },
      { name: "oauth-resource", about: "This server's resource URL", value: "url" },
      { name: "oauth-jwks", about: "The issuer's JWKS", value: "url" },
      { name: "oauth-scope", about: "Scopes a tool needs", value: "tool=scope" },
      { name: "allow-host", about: "Accept this Host header", value: "name" },
      { name: "allow-origin", about: "Accept this Origin", value: "origin" },
      { name: "max-body-bytes", about: "Request body limit", value: "bytes" },
      { name: "max-concurrent", about: "Requests in flight per principal", value: "n" },
      { name: "max-rate", about: "Requests per principal per window", value: "n/window" },
      { name: "max-sessions-per-principal", about: "Sessions one principal may hold", value: "n" },
      { name: "session-idle", about: "A session unused this long ends", value: "duration" },
      { name: "max-event-bytes", about: "Stream event bytes kept per session", value: "bytes" },
      { name: "max-event-bytes-total", about: "Stream event bytes kept in all", value: "bytes" },
      { name: "upstream-connections", about: "Connections per upstream server", value: "n" },
      {
        name: "upstream-calls-per-process",
        about: "Calls one stdio upstream process carries at once",
        value: "n",
      },
      { name: "state", about: "Where state lives", value: "memory|redis://host:port" },
      { name: "state-prefix", about: "Prefix of serve's Redis keys", value: "prefix" },
      { ...TIMEOUT, about: "Deadline of every call (ms)" },
      { name: "log-args", about: "Put the arguments into the access log" },
      { name: "report", about: "Serve the schema-loss report at /report" },
      MANIFEST_BYTES,
      MODULE_PROCESSES,
    ],
  },
  {
    name: "completions",
    about: "Print a shell completion script",
    words: ["bash", "zsh", "fish"],
    files: false,
    flags: [],
  },
];
