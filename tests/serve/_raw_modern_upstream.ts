// A bare 2026-07-28 Streamable HTTP server for the direct upstream path's
// tests: `server/discover`, then tool calls answered as the tool's name says
// (an SSE stream byte by byte or in one chunk, JSON, an input-required
// result, a result without or with an unknown `resultType`, garbage, a 400
// with the call's JSON-RPC error or with text, a 401, a hang, a huge body).
// It records the headers and body of every `tools/call` it gets.

const encoder = new TextEncoder();
const SERVER_INFO = { "io.modelcontextprotocol/serverInfo": { name: "raw26", version: "1" } };

/** A running raw server. */
export interface RawModernServer {
  url: string;
  /** Headers (lower-case) and body of each `tools/call` received. */
  calls: { headers: Record<string, string>; body: Record<string, unknown> }[];
  /** How many `tools/call` requests were aborted by the client before their answer ended. */
  aborted(): number;
  close(): Promise<void>;
}

function sse(events: unknown[]): string {
  return events.map((e) => `event: message\ndata: ${JSON.stringify(e)}\n\n`).join("");
}

/** Starts the server on 127.0.0.1 (random port). */
export function startRawModernServer(): RawModernServer {
  const calls: RawModernServer["calls"] = [];
  let aborted = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    if (req.method !== "POST") return new Response(null, { status: 405 });
    const message = await req.json();
    if (message.id === undefined) return new Response(null, { status: 202 });
    const reply = (result: unknown) => ({ jsonrpc: "2.0", id: message.id, result });
    if (message.method === "server/discover") {
      return Response.json(reply({
        resultType: "complete",
        supportedVersions: ["2026-07-28"],
        capabilities: { tools: {} },
        _meta: SERVER_INFO,
      }));
    }
    if (message.method === "tools/list") {
      return Response.json(reply({ resultType: "complete", tools: [], _meta: SERVER_INFO }));
    }
    if (message.method !== "tools/call") {
      return Response.json({
        jsonrpc: "2.0",
        id: message.id,
        error: { code: -32601, message: "no" },
      });
    }
    calls.push({ headers: Object.fromEntries(req.headers), body: message });
    req.signal.addEventListener("abort", () => aborted++);
    const name = message.params?.name;
    const token = message.params?._meta?.progressToken;
    const done = reply({
      resultType: "complete",
      content: [{ type: "text", text: "é✓ done" }],
      _meta: SERVER_INFO,
    });
    const events = [
      ...(token === undefined ? [] : [{
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: token, progress: 1, total: 1 },
      }]),
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "hi" } },
      done,
    ];
    const stream = (text: string, split = false) =>
      new Response(
        new ReadableStream<Uint8Array>({
          async start(controller) {
            const bytes = encoder.encode(text);
            if (split) {
              for (const byte of bytes) {
                controller.enqueue(new Uint8Array([byte]));
                await new Promise((r) => setTimeout(r, 0));
              }
            } else controller.enqueue(bytes);
            controller.close();
          },
        }),
        { headers: { "content-type": "text/event-stream" } },
      );
    switch (name) {
      case "split":
        return stream(sse(events), true);
      case "merged":
        return stream(sse(events));
      case "json":
        return Response.json(done);
      case "input":
        return stream(sse([reply({
          resultType: "input_required",
          inputRequests: {
            who: {
              method: "elicitation/create",
              params: { message: "Who?", requestedSchema: { type: "object", properties: {} } },
            },
          },
          requestState: "state-1",
          _meta: SERVER_INFO,
        })]));
      case "no_type":
        return Response.json(reply({ content: [{ type: "text", text: "x" }] }));
      case "odd_type":
        return Response.json(reply({ resultType: "later", content: [] }));
      case "bad_content":
        return Response.json(reply({ resultType: "complete", content: [{ type: "nope" }] }));
      case "rich":
        return Response.json(reply({
          resultType: "complete",
          content: [
            { type: "image", data: "aGk=", mimeType: "image/png", extra: 1 },
            { type: "text", text: "t", annotations: { audience: ["user"] } },
          ],
          structuredContent: { a: 1 },
          isError: false,
          _meta: { ...SERVER_INFO, "x/other": 2 },
        }));
      case "rpc_error":
        return Response.json({
          jsonrpc: "2.0",
          id: message.id,
          error: { code: -32603, message: "it broke", data: { why: "because" } },
        });
      case "garbage":
        return stream("event: message\ndata: {not json\n\n");
      case "refuse_400":
        return Response.json({
          jsonrpc: "2.0",
          id: message.id,
          error: {
            code: -32021,
            message: "Missing required client capabilities: sampling",
            data: { requiredCapabilities: { sampling: {} } },
          },
        }, { status: 400 });
      case "text_400":
        return new Response("no such thing", { status: 400 });
      case "hang":
        return new Response(
          new ReadableStream({ start: (c) => c.enqueue(encoder.encode(": wait\n\n")) }),
          { headers: { "content-type": "text/event-stream" } },
        );
      case "huge":
        return Response.json(reply({
          resultType: "complete",
          content: [{ type: "text", text: "x".repeat(300_000) }],
        }));
    }
    return Response.json({ jsonrpc: "2.0", id: message.id, error: { code: -32602, message: "?" } });
  });
  return {
    url: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}/mcp`,
    calls,
    aborted: () => aborted,
    close: () => server.shutdown(),
  };
}
