// Entry point for the official MCP conformance harness (client mode):
//   deno task conformance:mcp
// The harness starts a scripted Streamable HTTP server (and for auth scenarios an
// authorization server) per scenario, then runs this program with the server URL as
// the last argument, the scenario name in MCP_CONFORMANCE_SCENARIO and, for scenarios
// with credentials, MCP_CONFORMANCE_CONTEXT (JSON).
//
// A thin wrapper: the OAuth side is the library's (run/auth: StoreOAuthProvider,
// the loopback receiver, withAuthorization), exactly as `toolfoundation auth login`
// uses it. The only harness-specific parts are reading the context into
// OAuthClientSettings and a scripted "browser" that follows the authorization
// server's redirect (the harness's server approves at once).
// `connectAndRun` is the one place that speaks MCP: through the Runner, as the CLI does (an
// `authProvider` in the server config).

import { Runner } from "../../run/mod.ts";
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

/** The scenario's context (credentials), if the harness passed one. */
function context(): Record<string, string> {
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
    case "auth/cross-app-access-complete-flow":
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

/** Connects with the SDK client (the provider as `authProvider`) and does the scenario's actions. */
async function connectAndRun(serverUrl: string, provider: StoreOAuthProvider): Promise<void> {
  // The same Runner the CLI builds: Streamable HTTP with the OAuth provider, every form of
  // an elicitation accepted with the defaults the server declared (SEP-1034).
  const runner = new Runner({
    mcpServers: { server: { transport: "http", url: serverUrl, authProvider: provider } },
    onElicitation: () => ({ action: "accept", content: {} }),
  });
  try {
    const { imported } = await runner.importMcpTools("server");
    console.log(`[${scenario}] listed ${imported.length} tools`);
    if (scenario === "initialize") return;
    for (const entry of imported) {
      const name = entry.id.slice("server:".length);
      // A tool error (`isError`) rejects with ToolResultError, as in the CLI.
      const result = await runner.run(entry.id, ARGS[name] ?? {})
        .then(() => false, (e) => e?.code === "tool_error" ? true : `error ${e?.code ?? e}`);
      console.log(`[${scenario}] ${name} -> isError=${result}`);
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
