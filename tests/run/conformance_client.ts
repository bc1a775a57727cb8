// Entry point for the official MCP conformance harness (client mode):
//   deno task conformance:mcp        (0.1.16, the 2025 scenarios)
//   deno task conformance:mcp:next   (0.2.0-alpha.12, the 2026-07-28 ones too)
// The harness starts a scripted Streamable HTTP server (and for auth scenarios an
// authorization server) per scenario, then runs this program with the server URL as
// the last argument, the scenario name in MCP_CONFORMANCE_SCENARIO, for scenarios
// with credentials or calls to make MCP_CONFORMANCE_CONTEXT (JSON), and (0.2 only)
// the protocol revision the scenario is scored against in
// MCP_CONFORMANCE_PROTOCOL_VERSION: 2026-07-28 pins the 2026 era; a 2025 revision (the
// harness's default for every older scenario) or none (0.1.16) leaves the client's default,
// `auto`, which speaks 2025 to the harness's 2025 servers after their answer to the probe.
//
// A thin wrapper: the OAuth side is the library's (run/auth: StoreOAuthProvider,
// the loopback receiver, withAuthorization), exactly as `toolfoundation auth login`
// uses it. The only harness-specific parts are reading the context into
// OAuthClientSettings and a scripted "browser" that follows the authorization
// server's redirect (the harness's server approves at once).
// `connectAndRun` is the one place that speaks MCP: through the Runner, as the CLI does (an
// `authProvider` in the server config).

import { type McpProtocol, Runner } from "../../run/mod.ts";
import {
  loopbackAuthorization,
  MemoryTokenStore,
  type OAuthClientSettings,
  startLoopbackReceiver,
  StoreOAuthProvider,
  withAuthorization,
} from "../../run/auth/mod.ts";

const url = Deno.args.at(-1);
const scenario = Deno.env.get("MCP_CONFORMANCE_SCENARIO") ?? "";
// Read only where the task allows it (0.1.16 sets no revision; its task does not allow it).
const REVISION_VARIABLE = "MCP_CONFORMANCE_PROTOCOL_VERSION";
const revision = Deno.permissions.querySync({ name: "env", variable: REVISION_VARIABLE })
    .state === "granted"
  ? Deno.env.get(REVISION_VARIABLE)
  : undefined;
if (url === undefined) {
  console.error("usage: conformance_client.ts <server-url>");
  Deno.exit(2);
}

/** The client ID metadata document URL the harness's authorization servers accept (SEP-991). */
const CIMD_URL = "https://conformance-test.local/client-metadata.json";

/** Arguments for the tools the scenarios offer; other tools get `{}`. */
const ARGS: Record<string, Record<string, unknown>> = {
  add_numbers: { a: 5, b: 3 },
};

/** The protocol setting for the revision the harness scores the scenario against. */
function protocolFor(revision: string | undefined): McpProtocol {
  return revision === "2026-07-28" ? "2026-07-28" : "auto";
}

/** Arguments that satisfy a schema's required primitive properties (for tools the scenario names no arguments for). */
function sampleArgs(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  for (const name of (schema.required ?? []) as string[]) {
    const type = properties[name]?.type;
    out[name] = type === "integer" || type === "number" ? 1 : type === "boolean" ? true : "x";
  }
  return out;
}

/** The scenario's context (credentials, calls to make), if the harness passed one. */
// deno-lint-ignore no-explicit-any
function context(): Record<string, any> {
  const text = Deno.env.get("MCP_CONFORMANCE_CONTEXT");
  return text ? JSON.parse(text) : {};
}

/** The manifest `auth:` block a user would write for the scenario, secrets resolved. */
function settingsFor(ctx: Record<string, string>): OAuthClientSettings {
  switch (ctx.name) {
    case "auth/client-credentials-basic":
      return {
        grant: "client_credentials",
        clientId: ctx.client_id,
        clientSecret: ctx.client_secret,
        tokenEndpointAuthMethod: "client_secret_basic",
      };
    case "auth/client-credentials-jwt":
      return {
        grant: "client_credentials",
        clientId: ctx.client_id,
        privateKey: ctx.private_key_pem,
        signingAlgorithm: ctx.signing_algorithm ?? "ES256",
        tokenEndpointAuthMethod: "private_key_jwt",
      };
    case "auth/wif-jwt-bearer":
      // Workload identity: the platform's JWT, exchanged as is (RFC 7523).
      return {
        grant: "jwt_bearer",
        clientId: ctx.client_id,
        assertion: () => ctx.valid_jwt,
        tokenEndpointAuthMethod: "none",
      };
    case "auth/cross-app-access-complete-flow": // 0.1.16's name
    case "auth/enterprise-managed-authorization":
      return {
        grant: "cross_app_access",
        clientId: ctx.client_id,
        clientSecret: ctx.client_secret,
        tokenEndpointAuthMethod: "client_secret_basic",
        crossApp: {
          idpTokenEndpoint: ctx.idp_token_endpoint,
          idpClientId: ctx.idp_client_id,
          idToken: ctx.idp_id_token,
        },
      };
    default:
      // Interactive (authorization code): pre-registered when the context has a
      // client, else CIMD when the server supports it, else dynamic registration.
      return ctx.client_id
        ? { clientId: ctx.client_id, clientSecret: ctx.client_secret }
        : { clientMetadataUrl: CIMD_URL };
  }
}

/** Plays the user's browser: follows the authorization server's redirect to our loopback URI. */
async function scriptedBrowser(authorizationUrl: URL): Promise<void> {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  await response.body?.cancel();
  const location = response.headers.get("location");
  if (location === null) {
    throw new Error(`the authorization endpoint answered ${response.status}, not a redirect`);
  }
  const back = await fetch(new URL(location, authorizationUrl));
  await back.body?.cancel();
}

/** The tool a scenario's focal schema is echoed back through, and the focal tool. */
const ECHO_TOOL = "json_schema_echo";
const FOCAL_TOOL = "json_schema_2020_12_tool";

/** Connects with the SDK client (the provider as `authProvider`) and does the scenario's actions. */
async function connectAndRun(serverUrl: string, provider: StoreOAuthProvider): Promise<void> {
  const calls = context().toolCalls as
    | { name: string; arguments?: Record<string, unknown> }[]
    | undefined;
  // The same Runner the CLI builds: Streamable HTTP with the OAuth provider, every form of
  // an elicitation accepted with the defaults the server declared (SEP-1034). Calls the
  // scenario scripts are sent as given: their arguments are wire test data (e.g. `null`
  // where the schema says boolean, to see the header omitted), which the runner's input
  // validation would refuse before anything is sent.
  const runner = new Runner({
    validateInput: calls === undefined,
    mcpServers: {
      server: {
        transport: "http",
        url: serverUrl,
        authProvider: provider,
        protocol: protocolFor(revision),
      },
    },
    onElicitation: () => ({ action: "accept", content: {} }),
  });
  const run = async (id: string, args: Record<string, unknown>) => {
    // A tool error (`isError`) rejects with ToolResultError, as in the CLI.
    const result = await runner.run(id, args)
      .then(() => false, (e) => e?.code === "tool_error" ? true : `error ${e?.code ?? e}`);
    console.log(`[${scenario}] ${id.slice("server:".length)} -> isError=${result}`);
  };
  try {
    const { imported, skipped } = await runner.importMcpTools("server");
    console.log(`[${scenario}] listed ${imported.length} tools`);
    // Left out (e.g. an invalid x-mcp-header declaration): said, as `list` says it.
    for (const s of skipped) console.log(`[${scenario}] left out ${s.name}: ${s.error.message}`);
    if (scenario === "initialize") return;
    if (calls !== undefined) {
      // The scenario names the calls to make, with their arguments.
      for (const call of calls) await run(`server:${call.name}`, call.arguments ?? {});
      return;
    }
    if (scenario === "json-schema-2020-12-preservation") {
      // Round-trip the focal tool's inputSchema as the runner holds it.
      const focal = imported.find((e) => e.id === `server:${FOCAL_TOOL}`);
      if (focal === undefined) throw new Error(`the server lists no ${FOCAL_TOOL}`);
      await run(`server:${ECHO_TOOL}`, { schema: focal.tool.inputSchema });
      return;
    }
    for (const entry of imported) {
      const name = entry.id.slice("server:".length);
      await run(entry.id, ARGS[name] ?? sampleArgs(entry.tool.inputSchema));
    }
  } finally {
    await runner.close().catch(() => {});
  }
}

/**
 * Scheduling, not protocol: `sse-retry` times our reconnection (the server's `retry: 500`,
 * accepted up to 700 ms) while the harness starts all 26 clients at once on this machine. So
 * that the check measures the client and not the CPU queue, that scenario first waits (at
 * most 60 s) until twenty 100 ms timers in a row (2 s) fire on time.
 */
async function untilTimersAreOnTime(): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (let onTime = 0; onTime < 20 && Date.now() < deadline;) {
    const start = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 100));
    onTime = performance.now() - start < 125 ? onTime + 1 : 0;
  }
}

if (scenario === "sse-retry") await untilTimersAreOnTime();
const receiver = await startLoopbackReceiver();
let failed = false;
try {
  const provider = new StoreOAuthProvider(url, {
    store: new MemoryTokenStore(),
    settings: settingsFor(context()),
    authorize: loopbackAuthorization(receiver, scriptedBrowser, { timeoutMs: 15_000 }),
    loginCommand: "(conformance: none)",
  });
  await withAuthorization(url, provider, () => connectAndRun(url, provider));
} catch (error) {
  failed = true;
  console.error(`[${scenario}] ${(error as Error).name}: ${(error as Error).message}`);
} finally {
  await receiver.close();
}
Deno.exit(failed ? 1 : 0);
