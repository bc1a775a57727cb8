// Test helper: a Streamable HTTP MCP server on raw TCP that fails tool calls on
// purpose (HTTP 429 with Retry-After, 502, 503, a connection closed without an
// answer, a tool error), as a plan per tool; `calls` counts the calls.

export type Fault = "429" | "429-wait" | "503" | "502" | "reset" | "tool-error" | "ok";

/** A Streamable HTTP MCP server on raw TCP, so it can reset connections; faults per tool call. */
export function flakyServer(plan: Record<string, Fault[]>): {
  url: string;
  calls: Record<string, number>;
  close: () => void;
} {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const calls: Record<string, number> = {};
  const encoder = new TextEncoder();
  const reply = async (conn: Deno.Conn, status: number, body: string, extra = "") => {
    const bytes = encoder.encode(body);
    await conn.write(encoder.encode(
      `HTTP/1.1 ${status} X\r\nContent-Type: application/json\r\nContent-Length: ${bytes.length}\r\n${extra}Connection: close\r\n\r\n`,
    ));
    await conn.write(bytes);
  };
  const serve = async (conn: Deno.Conn) => {
    try {
      let text = "";
      const buf = new Uint8Array(65536);
      let head = -1;
      while (head < 0) {
        const n = await conn.read(buf);
        if (n === null) return;
        text += new TextDecoder().decode(buf.subarray(0, n));
        head = text.indexOf("\r\n\r\n");
      }
      const length = Number(/content-length: *(\d+)/i.exec(text.slice(0, head))?.[1] ?? 0);
      while (encoder.encode(text.slice(head + 4)).length < length) {
        const n = await conn.read(buf);
        if (n === null) return;
        text += new TextDecoder().decode(buf.subarray(0, n));
      }
      if (!text.startsWith("POST")) return await reply(conn, 405, "");
      const message = JSON.parse(text.slice(head + 4));
      if (message.id === undefined) return await reply(conn, 202, "");
      const answer = (result: unknown) =>
        JSON.stringify({ jsonrpc: "2.0", id: message.id, result });
      if (message.method === "initialize") {
        return await reply(
          conn,
          200,
          answer({
            protocolVersion: message.params.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: "flaky", version: "1" },
          }),
        );
      }
      if (message.method === "tools/list") {
        return await reply(
          conn,
          200,
          answer({
            tools: [
              {
                name: "safe",
                inputSchema: { type: "object" },
                annotations: { readOnlyHint: true },
              },
              {
                name: "repeat",
                inputSchema: { type: "object" },
                annotations: { idempotentHint: true },
              },
              { name: "unsafe", inputSchema: { type: "object" } },
            ],
          }),
        );
      }
      if (message.method === "ping") return await reply(conn, 200, answer({}));
      if (message.method !== "tools/call") {
        const error = { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "no" } };
        return await reply(conn, 200, JSON.stringify(error));
      }
      const name = message.params.name as string;
      calls[name] = (calls[name] ?? 0) + 1;
      const fault = plan[name]?.shift() ?? "ok";
      if (fault === "reset") return; // closed without an answer
      if (fault === "429") return await reply(conn, 429, "slow down", "Retry-After: 0\r\n");
      if (fault === "429-wait") return await reply(conn, 429, "slow down", "Retry-After: 1\r\n");
      if (fault === "503" || fault === "502") {
        return await reply(conn, Number(fault), "unavailable");
      }
      return await reply(
        conn,
        200,
        answer({
          content: [{ type: "text", text: fault === "tool-error" ? "no such record" : "fine" }],
          isError: fault === "tool-error",
        }),
      );
    } finally {
      try {
        conn.close();
      } catch { /* closed */ }
    }
  };
  (async () => {
    for await (const conn of listener) serve(conn).catch(() => {});
  })().catch(() => {});
  const port = (listener.addr as Deno.NetAddr).port;
  return { url: `http://127.0.0.1:${port}/mcp`, calls, close: () => listener.close() };
}
