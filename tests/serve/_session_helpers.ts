// Helpers of the session tests: raw Streamable HTTP requests (2025-06-18) to a
// running `serve --http --sessions`, so a test controls every header (the
// token, the session id, Last-Event-ID) and sees every status.

export const VERSION = "2025-06-18";

/** The headers of a request to the endpoint, with a token and a session when given. */
export function headersOf(
  token?: string,
  session?: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": VERSION,
    ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    ...(session === undefined ? {} : { "mcp-session-id": session }),
    ...extra,
  };
}

/** A response read whole: status, headers, body text, the SSE events' ids and messages. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  events: Array<{ id?: string; message: Record<string, unknown> }>;
}

/** Reads a response whole, parsing SSE events when it is a stream. */
export async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  const events: Answer["events"] = [];
  if (response.headers.get("content-type")?.includes("text/event-stream")) {
    for (const block of text.split("\n\n")) {
      const id = /^id: ?(.*)$/m.exec(block)?.[1];
      const data = /^data: ?(.+)$/m.exec(block)?.[1];
      if (data !== undefined) events.push({ id, message: JSON.parse(data) });
    }
  }
  return { status: response.status, headers: response.headers, text, events };
}

/** POSTs one JSON-RPC message. */
export async function post(
  url: string,
  message: unknown,
  token?: string,
  session?: string,
): Promise<Answer> {
  return await answer(
    await fetch(url, {
      method: "POST",
      headers: headersOf(token, session),
      body: JSON.stringify(message),
    }),
  );
}

/** Opens a session (initialize, then notifications/initialized); its id, or the refusal. */
export async function openSession(
  url: string,
  token?: string,
): Promise<{ id: string } | Answer> {
  const init = await post(url, {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: VERSION,
      capabilities: {},
      clientInfo: { name: "session-test", version: "1.0.0" },
    },
  }, token);
  const id = init.headers.get("mcp-session-id");
  if (init.status !== 200 || id === null) return init;
  const ack = await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, token, id);
  if (ack.status !== 202) {
    throw new Error(`notifications/initialized got ${ack.status}: ${ack.text}`);
  }
  return { id };
}

/** Opens a session and fails when it cannot. */
export async function mustOpen(url: string, token?: string): Promise<string> {
  const opened = await openSession(url, token);
  if (!("id" in opened)) throw new Error(`initialize got ${opened.status}: ${opened.text}`);
  return opened.id;
}

let next = 1;

/** Calls a tool in a session. */
export async function callTool(
  url: string,
  name: string,
  args: Record<string, unknown>,
  token?: string,
  session?: string,
): Promise<Answer> {
  return await post(
    url,
    {
      jsonrpc: "2.0",
      id: next++,
      method: "tools/call",
      params: { name, arguments: args },
    },
    token,
    session,
  );
}

/** The text of a tools/call result among an answer's events (or its JSON body). */
export function resultText(a: Answer): string | undefined {
  const messages = a.events.length > 0 ? a.events.map((e) => e.message) : (() => {
    try {
      return [JSON.parse(a.text)];
    } catch {
      return [];
    }
  })();
  for (const m of messages) {
    const content = (m.result as { content?: Array<{ text?: string }> } | undefined)?.content;
    if (content !== undefined) return content.map((c) => c.text ?? "").join("");
  }
  return undefined;
}

/** Sends a GET or DELETE for a session. */
export async function sessionRequest(
  url: string,
  method: "GET" | "DELETE",
  token: string | undefined,
  session: string,
  extra: Record<string, string> = {},
): Promise<Answer> {
  const controller = new AbortController();
  const response = await fetch(url, {
    method,
    headers: headersOf(token, session, { accept: "text/event-stream", ...extra }),
    signal: controller.signal,
  });
  if (method === "GET" && response.status === 200 && !("last-event-id" in extra)) {
    // A standalone stream stays open: take its headers and hang up.
    controller.abort();
    await response.body?.cancel().catch(() => {});
    return { status: 200, headers: response.headers, text: "", events: [] };
  }
  return await answer(response);
}

/** The resident memory (VmRSS) of a process, in MiB, as `ps` reports it. */
export async function rssMiB(pid: number): Promise<number> {
  const { stdout } = await new Deno.Command("ps", { args: ["-o", "rss=", "-p", String(pid)] })
    .output();
  const kb = Number(new TextDecoder().decode(stdout).trim());
  if (!Number.isFinite(kb) || kb <= 0) throw new Error(`no RSS for process ${pid}`);
  return Math.round(kb / 1024);
}
