// A bare Streamable HTTP MCP client for bench/serve_load.ts: one session, a
// bearer token, every answer reduced to one outcome kind ("ok", "http 429",
// "jsonrpc -32600", "tool error", "timeout"...). Plain fetch rather than the
// SDK client, so that the load generator costs little and every status code
// the server sends is seen (the SDK retries and reconnects on its own).

/** How one request ended. */
export interface Outcome {
  /** "ok", or what went wrong: "http <status>", "jsonrpc <code>", "tool error", "timeout", "aborted", "network". */
  kind: string;
  /** The HTTP status (0 when there was no response). */
  status: number;
  /** Milliseconds from sending to the last byte of the answer. */
  ms: number;
  /** The JSON-RPC messages of the answer (a JSON body or the events of an SSE stream). */
  messages: JsonRpc[];
}

/** A JSON-RPC message as far as the bench reads it. */
export interface JsonRpc {
  id?: string | number | null;
  result?: { isError?: boolean };
  error?: { code: number; message: string };
}

/** The messages of an answer: a JSON body (one message or a batch) or the `data:` lines of SSE. */
function messagesOf(contentType: string, text: string): JsonRpc[] {
  try {
    if (contentType.includes("text/event-stream")) {
      return text.split("\n").filter((l) => l.startsWith("data:")).map((l) =>
        JSON.parse(l.slice(5))
      );
    }
    if (text.trim() === "") return [];
    const parsed = JSON.parse(text);
    return Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    return [];
  }
}

/** The first protocol version without `initialize` (a per-request envelope instead). */
const MODERN = "2026-07-28";

/** One client session with `serve --http`, under one bearer token and one protocol version. */
export class HttpSession {
  /** The session ID once initialized (undefined on a stateless server). */
  id: string | undefined;
  #nextId = 1;

  constructor(
    readonly url: string,
    readonly token: string,
    readonly version: string = "2025-06-18",
  ) {}

  #headers(initializing: boolean, body?: unknown): Record<string, string> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    if (!initializing) headers["mcp-protocol-version"] = this.version;
    if (this.id !== undefined) headers["mcp-session-id"] = this.id;
    // A 2026-07-28 request names its method (and tool) in headers too.
    const m = body as { method?: unknown; params?: { name?: unknown } } | undefined;
    if (this.version >= MODERN && typeof m?.method === "string") {
      headers["mcp-method"] = m.method;
      if (typeof m.params?.name === "string") headers["mcp-name"] = m.params.name;
    }
    return headers;
  }

  #envelope(): Record<string, unknown> {
    return {
      "io.modelcontextprotocol/protocolVersion": this.version,
      "io.modelcontextprotocol/clientInfo": { name: "serve-load-bench", version: "1.0.0" },
      "io.modelcontextprotocol/clientCapabilities": {},
    };
  }

  /** Posts one message or a batch and reads the whole answer. */
  async post(body: unknown, signal?: AbortSignal, initializing = false): Promise<Outcome> {
    const started = performance.now();
    try {
      const response = await fetch(this.url, {
        method: "POST",
        headers: this.#headers(initializing, body),
        body: JSON.stringify(body),
        signal,
      });
      const text = await response.text();
      const messages = messagesOf(response.headers.get("content-type") ?? "", text);
      const ms = performance.now() - started;
      if (initializing) this.id = response.headers.get("mcp-session-id") ?? undefined;
      if (response.status !== 200 && response.status !== 202) {
        return { kind: `http ${response.status}`, status: response.status, ms, messages };
      }
      const failed = messages.find((m) => m.error !== undefined);
      if (failed !== undefined) {
        return { kind: `jsonrpc ${failed.error!.code}`, status: response.status, ms, messages };
      }
      if (messages.some((m) => m.result?.isError === true)) {
        return { kind: "tool error", status: response.status, ms, messages };
      }
      return { kind: "ok", status: response.status, ms, messages };
    } catch (error) {
      const ms = performance.now() - started;
      const name = (error as Error).name;
      const kind = name === "TimeoutError"
        ? "timeout"
        : name === "AbortError"
        ? "aborted"
        : "network";
      return { kind, status: 0, ms, messages: [] };
    }
  }

  /** Opens a session: `initialize`, then `notifications/initialized` when the first succeeded. */
  async initialize(signal?: AbortSignal, notify = true): Promise<Outcome> {
    this.id = undefined;
    const outcome = await this.post(
      {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: this.version,
          capabilities: {},
          clientInfo: { name: "serve-load-bench", version: "1.0.0" },
        },
      },
      signal,
      true,
    );
    if (outcome.kind === "ok" && notify) {
      await this.post({ jsonrpc: "2.0", method: "notifications/initialized" }, signal);
    }
    return outcome;
  }

  /** Ends the session (`DELETE` with its ID), so the server frees it; nothing on a stateless one. */
  async close(): Promise<void> {
    if (this.id === undefined) return;
    const headers = this.#headers(false);
    this.id = undefined;
    try {
      await (await fetch(this.url, { method: "DELETE", headers })).body?.cancel();
    } catch {
      // The server is gone: nothing left to free.
    }
  }

  /** A `tools/call` request (to send alone or in a batch). */
  request(name: string, args: Record<string, unknown>): Record<string, unknown> {
    return {
      jsonrpc: "2.0",
      id: this.#nextId++,
      method: "tools/call",
      // 2026-07-28: no initialize; each request carries the client's envelope.
      params: this.version >= MODERN
        ? { name, arguments: args, _meta: this.#envelope() }
        : { name, arguments: args },
    };
  }

  /** Calls one tool. */
  call(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<Outcome> {
    return this.post(this.request(name, args), signal);
  }
}
