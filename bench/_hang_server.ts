// A minimal MCP server over stdio (newline-delimited JSON-RPC, no SDK) for
// bench/serve_load.ts: `ping` answers at once, `hang` never answers (it only
// ends when the caller gives up). Written without the SDK so that it starts
// in a few milliseconds and costs the machine nothing while it waits.
//
//   deno run bench/_hang_server.ts

const TOOLS = [
  {
    name: "ping",
    description: "Answers pong at once",
    inputSchema: { type: "object", properties: {} },
  },
  {
    name: "hang",
    description: "Never answers",
    inputSchema: { type: "object", properties: {} },
  },
];

interface Message {
  id?: string | number;
  method?: string;
  params?: { name?: string; protocolVersion?: string };
}

const encoder = new TextEncoder();

async function send(message: unknown): Promise<void> {
  const bytes = encoder.encode(JSON.stringify(message) + "\n");
  for (let written = 0; written < bytes.length;) {
    written += await Deno.stdout.write(bytes.subarray(written));
  }
}

function answer(message: Message): unknown {
  switch (message.method) {
    case "initialize":
      return {
        protocolVersion: message.params?.protocolVersion ?? "2025-06-18",
        capabilities: { tools: {} },
        serverInfo: { name: "hang-server", version: "1.0.0" },
      };
    case "ping":
      return {};
    case "tools/list":
      return { tools: TOOLS };
    case "tools/call":
      if (message.params?.name === "ping") return { content: [{ type: "text", text: "pong" }] };
      if (message.params?.name === "hang") return undefined;
      return { content: [{ type: "text", text: "unknown tool" }], isError: true };
    default:
      return null;
  }
}

async function handle(line: string): Promise<void> {
  let message: Message;
  try {
    message = JSON.parse(line);
  } catch {
    await send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } });
    return;
  }
  if (message.id === undefined) return; // a notification (initialized, cancelled...)
  const result = answer(message);
  if (result === undefined) return; // hang: no answer, ever
  if (result === null) {
    await send({
      jsonrpc: "2.0",
      id: message.id,
      error: { code: -32601, message: `method not found: ${message.method}` },
    });
    return;
  }
  await send({ jsonrpc: "2.0", id: message.id, result });
}

if (import.meta.main) {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of Deno.stdin.readable) {
    buffered += decoder.decode(chunk, { stream: true });
    for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
      const line = buffered.slice(0, end).trim();
      buffered = buffered.slice(end + 1);
      if (line !== "") await handle(line);
    }
  }
}
