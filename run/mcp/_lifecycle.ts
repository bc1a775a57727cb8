// Private: what an MCP connection needs while it lives: progress notifications
// of our requests taken off the transport before the SDK sees them (the SDK
// drops those that arrive in the same chunk as their response), requests that
// fail as soon as the connection is lost, and closing (a stdio server's whole
// process group is gone once `closeConnection` settles).

import type { Client, Transport } from "@modelcontextprotocol/client";
import type { HttpBodies } from "./_http.ts";
import type { StdioTransport } from "./_stdio.ts";

/** Receives one progress notification's params. */
export type Progress = (params: { progress: number; total?: number; message?: string }) => void;

/** One open (or opening) client connection to a server. */
export interface Connection {
  /** The SDK's client. */
  client: Client;
  /** The transport the client speaks over. */
  transport: Transport;
  /** Our stdio transport, for a stdio server (its process group, stderr and exit). */
  stdio: StdioTransport | undefined;
  /** The response bodies of a Streamable HTTP connection, cancelled when it closes. */
  bodies: HttpBodies | undefined;
  /** True once closing began. */
  closed: boolean;
  /** Rejecters of the requests in flight, called when the connection is lost. */
  inflight: Set<(error: Error) => void>;
  /** Why the connection was lost, once it was. */
  lostError: Error | undefined;
  /** Progress handlers of our requests in flight, by progress token. */
  progress: Map<string, Progress>;
  /** How many progress tokens were handed out (the next one's number). */
  tokens: number;
}

/** Marks a connection lost: every request in flight fails with `error`. */
export function markLost(connection: Connection, error: Error): void {
  connection.lostError ??= error;
  failInflight(connection, error);
}

/** Fails the requests in flight (the connection stays usable). */
export function failInflight(connection: Connection, error: Error): void {
  for (const reject of connection.inflight) reject(error);
  connection.inflight.clear();
}

/** Takes progress notifications of our requests off the transport, in order, before the SDK. */
export function interceptProgress(connection: Connection): void {
  const transport = connection.transport;
  const deliver = transport.onmessage;
  if (deliver === undefined) return;
  const progress = connection.progress;
  transport.onmessage = (message, extra) => {
    if ((message as { method?: unknown }).method === "notifications/progress") {
      const params = (message as { params?: { progressToken?: unknown } }).params;
      const handler = progress.get(params?.progressToken as string);
      if (handler !== undefined) {
        handler(params as Parameters<Progress>[0]);
        return;
      }
    }
    deliver(message, extra);
  };
}

/** Settles with the request, or rejects as soon as the connection is lost. */
export function watch<T>(connection: Connection, request: Promise<T>): Promise<T> {
  if (connection.lostError !== undefined) {
    request.catch(() => undefined);
    return Promise.reject(connection.lostError);
  }
  return new Promise<T>((resolve, reject) => {
    connection.inflight.add(reject);
    request.then(
      (value) => {
        connection.inflight.delete(reject);
        resolve(value);
      },
      (error) => {
        connection.inflight.delete(reject);
        reject(error);
      },
    );
  });
}

/** Closes the client; for stdio, settles once the server's process group is gone. */
export async function closeConnection(connection: Connection): Promise<void> {
  if (!connection.closed) {
    connection.closed = true;
    await connection.client.close().catch(() => undefined);
  }
  connection.bodies?.close();
  await connection.stdio?.close();
}
