// Private: the transport of one MCP connection. Stdio servers run over our own
// transport (`_stdio.ts`: own process group, the environment policy of
// `run/process/child_env.ts`), so the SDK's stdio module is never loaded; Streamable HTTP
// and the legacy HTTP+SSE transport are the SDK's, over our capped fetch
// (`_http.ts`), with the caller's headers and auth provider. The SDK's
// own redirect policy is off (`follow`): our fetch follows redirects itself,
// with the rule of `run/http/redirect.ts` for every request, the OAuth ones included.
// With an OAuth provider, a refused access token is handled by `_credentials.ts`
// (re-discovery of the authorization server, no second re-authorization).

import type { AuthProvider, OAuthClientProvider, Transport } from "@modelcontextprotocol/client";
import { childEnv } from "../process/child_env.ts";
import { ExecutionError } from "../errors.ts";
import type { McpServerConfig } from "./config.ts";
import { DEFAULT_MAX_OUTPUT_BYTES } from "../provider.ts";
import { HttpBodies } from "./_http.ts";
import { watchCredentials } from "./_credentials.ts";
import type { ConfiguredHeaders } from "../http/redirect.ts";
import type { Sdk } from "./_sdk.ts";
import { StdioTransport } from "./_stdio.ts";

/** A transport with our handles on it: the stdio process, or the HTTP bodies. */
export interface Transports {
  transport: Transport;
  stdio: StdioTransport | undefined;
  bodies: HttpBodies | undefined;
}

/** The configured headers and the origin they are for. */
function configuredHeaders(
  url: string | URL,
  headers: Readonly<Record<string, string>> | undefined,
): ConfiguredHeaders {
  return { headers: headers ?? {}, origin: new URL(url).origin };
}

/** Creates (does not start) the transport a server's config names. */
export function createTransport(sdk: Sdk, name: string, config: McpServerConfig): Transports {
  const max = config.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  switch (config.transport) {
    case "stdio": {
      const stdio = new StdioTransport({
        command: config.command,
        args: config.args ?? [],
        env: childEnv({ env: config.env, inheritEnv: config.inheritEnv }),
        cwd: config.cwd,
        maxMessageBytes: max,
        redact: config.redact,
      });
      return { transport: stdio, stdio, bodies: undefined };
    }
    case "http": {
      const bodies = new HttpBodies(max, configuredHeaders(config.url, config.headers));
      const transport = new sdk.StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: config.headers === undefined ? undefined : { headers: config.headers },
        authProvider: config.authProvider as AuthProvider | OAuthClientProvider | undefined,
        fetch: watchCredentials(bodies.fetch, config.authProvider, String(config.url)),
        redirectPolicy: "follow",
      });
      return { transport, stdio: undefined, bodies };
    }
    case "sse": {
      const bodies = new HttpBodies(max, configuredHeaders(config.url, config.headers));
      // requestInit's headers go on the stream's GET too; `fetch` caps both.
      const transport = new sdk.SSEClientTransport(new URL(config.url), {
        requestInit: config.headers === undefined ? undefined : { headers: config.headers },
        authProvider: config.authProvider as AuthProvider | OAuthClientProvider | undefined,
        fetch: watchCredentials(bodies.fetch, config.authProvider, String(config.url)),
        redirectPolicy: "follow",
      });
      return { transport, stdio: undefined, bodies };
    }
    default:
      throw new ExecutionError(
        `MCP server ${JSON.stringify(name)}: unknown transport ${
          JSON.stringify((config as { transport?: unknown }).transport)
        } (use "stdio", "http" or "sse")`,
      );
  }
}
