// Test helper: a scripted Streamable HTTP MCP server on 127.0.0.1 that speaks
// the 2026-07-28 era (`server/discover`, stateless JSON answers) and the 2025
// one (`initialize`), lists the tools it is given and records every request
// with its headers, so tests can check exactly what the client sent.

/** One request the server received. */
export interface Received {
  /** The JSON-RPC method. */
  method: string;
  /** The params, as sent. */
  params: Record<string, unknown>;
  /** Every header, names in lower case. */
  headers: Record<string, string>;
}

/** A running scripted server. */
export interface ScriptedServer {
  /** The MCP endpoint. */
  url: string;
  /** Every request so far (notifications included). */
  received: Received[];
  /** The `tools/call` requests so far. */
  calls(): Received[];
  /** Stops it. */
  close(): Promise<void>;
}

const MODERN = "2026-07-28";

/**
 * Answers a request instead of the script, or returns `undefined` to let the
 * script answer; `nth` counts the requests of that method from 1.
 */
export type Override = (request: Received, id: unknown, nth: number) => Response | undefined;

/**
 * Starts a server listing `tools` (and declaring `capabilities` besides tools);
 * `tools/call` answers with the arguments it got as text; `override`
 * answers first. The array is read on every `tools/list`: change it to change the
 * listing.
 */
export function startScriptedServer(
  tools: Record<string, unknown>[],
  capabilities: Record<string, unknown> = {},
  override?: Override,
): ScriptedServer {
  const received: Received[] = [];
  const answer = (id: unknown, result: Record<string, unknown>, modern: boolean) =>
    Response.json({
      jsonrpc: "2.0",
      id,
      result: modern ? { resultType: "complete", ...result } : result,
    });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    if (req.method !== "POST") return new Response(null, { status: 405 });
    const message = await req.json();
    const headers: Record<string, string> = {};
    req.headers.forEach((value, name) => (headers[name] = value));
    const request = { method: message.method, params: message.params ?? {}, headers };
    received.push(request);
    if (message.id === undefined) return new Response(null, { status: 202 });
    const nth = received.filter((r) => r.method === message.method).length;
    const custom = override?.(request, message.id, nth);
    if (custom !== undefined) return custom;
    const modern = message.method === "server/discover" ||
      headers["mcp-protocol-version"] === MODERN;
    switch (message.method) {
      case "server/discover":
        return answer(message.id, {
          supportedVersions: [MODERN],
          capabilities: { tools: {}, ...capabilities },
          serverInfo: { name: "scripted", version: "1.0.0" },
        }, true);
      case "initialize":
        return answer(message.id, {
          protocolVersion: "2025-11-25",
          capabilities: { tools: {}, ...capabilities },
          serverInfo: { name: "scripted", version: "1.0.0" },
        }, false);
      case "tools/list":
        // The 2026 era's lists carry caching hints.
        return answer(
          message.id,
          modern ? { tools, ttlMs: 0, cacheScope: "private" } : { tools },
          modern,
        );
      case "tools/call":
        return answer(message.id, {
          content: [{ type: "text", text: JSON.stringify(message.params.arguments ?? {}) }],
        }, modern);
      default:
        return answer(message.id, {}, modern);
    }
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/mcp`,
    received,
    calls: () => received.filter((r) => r.method === "tools/call"),
    close: () => server.shutdown(),
  };
}

/** The `mcp-param-*` headers of a request, names in lower case. */
export function paramHeadersOf(request: Received): Record<string, string> {
  return Object.fromEntries(
    Object.entries(request.headers).filter(([name]) => name.startsWith("mcp-param-")),
  );
}
