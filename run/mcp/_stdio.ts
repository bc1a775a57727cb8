// Private: our stdio client transport for MCP servers. It implements the SDK's
// `Transport` interface over `spawnGroup` (own process group, exactly the
// environment given), so the SDK's stdio module (cross-spawn, a stripped
// environment, no process group) is never loaded.
//
// Framing: newline-delimited JSON-RPC. A message may be split across chunks
// and one chunk may hold several messages; a line longer than the cap is never
// buffered whole (the rest of it is skipped and reported as too large); a line
// that is not a JSON object is reported and skipped.

import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { OutputTooLargeError } from "../errors.ts";
import { type GroupChild, spawnGroup } from "../process/group.ts";
import { TailBuffer } from "../output/text.ts";

/** How long a server may take to exit on its own after stdin closes, before SIGTERM. */
const EXIT_WAIT_MS = 200;
/** SIGTERM to SIGKILL, for the server's whole process group. */
const KILL_GRACE_MS = 1000;
const NEWLINE = 10;

/** What our stdio transport needs to start a server. */
export interface StdioTransportOptions {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd?: string;
  /** The largest message (line) accepted, in bytes. */
  maxMessageBytes: number;
  /** Scrubs secrets from the server's stderr before anyone reads it. */
  redact?: (text: string) => string;
}

/** How the server process ended. */
export interface ServerExit {
  code: number;
  signal: string | null;
}

/** A line the server wrote that is not a JSON-RPC message. */
export class GarbageLineError extends Error {
  /** The start of the line. */
  readonly line: string;

  constructor(line: string) {
    const shown = line.length > 200 ? `${line.slice(0, 200)}...` : line;
    super(`the server wrote a line that is not a JSON-RPC message: ${JSON.stringify(shown)}`);
    this.name = "GarbageLineError";
    this.line = shown;
  }
}

/** Newline-delimited JSON-RPC over a process group's stdin/stdout. */
/**
 * A message that never reached the server: its stdin was closed (the server
 * exited, or the connection ended). Nothing of it ran, so a caller may send it
 * again on a new connection.
 */
export class UndeliveredError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "UndeliveredError";
  }
}

/** Whether `error`, or an error in its chain of causes, is an {@linkcode UndeliveredError}. */
export function isUndelivered(error: unknown): boolean {
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 8; depth++) {
    if (e instanceof UndeliveredError) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  /** Called when a message exceeds the cap (it is skipped). */
  onoversize?: (error: OutputTooLargeError) => void;

  readonly stderr: TailBuffer;
  /** Lines that were not JSON-RPC messages, and the first of them. */
  garbage = 0;
  firstGarbage: string | undefined;
  /** Set once the process has exited. */
  exit: ServerExit | undefined;

  readonly #options: StdioTransportOptions;
  readonly #decoder = new TextDecoder();
  readonly #encoder = new TextEncoder();
  #child: GroupChild | undefined;
  #writer: WritableStreamDefaultWriter<Uint8Array> | undefined;
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  #skipping = false;
  #closed = false;
  #done: Promise<void> | undefined;

  constructor(options: StdioTransportOptions) {
    this.#options = options;
    this.stderr = new TailBuffer(8192, options.redact);
  }

  /** The process ID of the server (the leader of its group), once started. */
  /** The environment the server was started with. */
  get env(): Readonly<Record<string, string>> {
    return this.#options.env;
  }

  get pid(): number | undefined {
    return this.#child?.process.pid;
  }

  /** Settles when stdout and stderr are drained and the process has exited. */
  get finished(): Promise<void> {
    return this.#done ?? Promise.resolve();
  }

  start(): Promise<void> {
    if (this.#child !== undefined) throw new Error("the stdio transport is already started");
    // Throws NotFound / NotCapable synchronously: the caller reports it.
    const child = spawnGroup(this.#options.command, {
      args: this.#options.args,
      env: this.#options.env,
      cwd: this.#options.cwd,
    });
    this.#child = child;
    this.#writer = child.process.stdin.getWriter();
    this.#writer.closed.catch(() => undefined);
    const stdout = this.#readStdout(child.process.stdout);
    const stderr = this.#readStderr(child.process.stderr);
    const status = child.process.status.then((s) => {
      this.exit = { code: s.code, signal: s.signal };
    });
    this.#done = Promise.all([stdout, stderr, status]).then(() => undefined);
    // The connection ends when stdout does, or when the server exits (a
    // grandchild may still hold stdout open: stopping the group releases it).
    stdout.then(() => this.#shutdown());
    status.then(() => this.#shutdown());
    return Promise.resolve();
  }

  /**
   * Whether the connection has ended (stdout closed, the server exited, or
   * closed by us): set at once, before the SDK hears of it.
   */
  get ended(): boolean {
    return this.#closed;
  }

  send(message: JSONRPCMessage): Promise<void> {
    const writer = this.#writer;
    if (writer === undefined || this.#closed) {
      return Promise.reject(new UndeliveredError("Not connected"));
    }
    return writer.write(this.#encoder.encode(JSON.stringify(message) + "\n")).catch((error) => {
      // The server closed its stdin (it exited): nothing of the message was read.
      if (error instanceof Deno.errors.BrokenPipe) {
        this.#closed = true;
        throw new UndeliveredError(`Not connected: ${error.message}`, { cause: error });
      }
      throw error;
    });
  }

  close(): Promise<void> {
    return this.#shutdown();
  }

  /** Stops the whole process group at once (no wait for a clean exit). */
  kill(): Promise<void> {
    const child = this.#child;
    const stopping = child === undefined ? Promise.resolve() : child.stop(KILL_GRACE_MS);
    return Promise.all([stopping, this.#shutdown()]).then(() => undefined);
  }

  #shutdownPromise: Promise<void> | undefined;

  #shutdown(): Promise<void> {
    this.#shutdownPromise ??= (async () => {
      this.#closed = true;
      const child = this.#child;
      if (child !== undefined) {
        // Not awaited: a server that does not read stdin would block the close.
        this.#writer?.close().catch(() => undefined);
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          child.process.status.catch(() => undefined),
          new Promise((resolve) => (timer = setTimeout(resolve, EXIT_WAIT_MS))),
        ]);
        clearTimeout(timer);
        // Always: grandchildren may outlive the leader.
        await child.stop(KILL_GRACE_MS);
        await this.#done;
      }
      this.#pending = [];
      this.#pendingBytes = 0;
      this.onclose?.();
    })();
    return this.#shutdownPromise;
  }

  async #readStdout(stream: ReadableStream<Uint8Array>): Promise<void> {
    const reader = stream.getReader();
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        this.#push(value);
      }
    } catch (error) {
      if (!this.#closed) this.onerror?.(error as Error);
    } finally {
      reader.releaseLock();
    }
  }

  async #readStderr(stream: ReadableStream<Uint8Array>): Promise<void> {
    const reader = stream.getReader();
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        this.stderr.push(value);
      }
    } catch {
      /* the process is gone */
    } finally {
      reader.releaseLock();
    }
  }

  /** Frames a chunk into lines; every complete line is delivered at once, in order. */
  #push(chunk: Uint8Array): void {
    const max = this.#options.maxMessageBytes;
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf(NEWLINE, start);
      if (end === -1) {
        const rest = chunk.length - start;
        if (this.#skipping) return;
        if (this.#pendingBytes + rest > max) {
          this.#oversize();
          return;
        }
        this.#pending.push(start === 0 ? chunk : chunk.subarray(start));
        this.#pendingBytes += rest;
        return;
      }
      if (this.#skipping) {
        this.#skipping = false;
      } else if (this.#pendingBytes + (end - start) > max) {
        this.#pendingBytes = 0;
        this.#pending = [];
        this.#reportOversize();
      } else if (this.#pending.length === 0) {
        this.#line(chunk.subarray(start, end));
      } else {
        this.#pending.push(chunk.subarray(start, end));
        const line = concat(this.#pending, this.#pendingBytes + (end - start));
        this.#pending = [];
        this.#pendingBytes = 0;
        this.#line(line);
      }
      start = end + 1;
    }
  }

  #oversize(): void {
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#skipping = true;
    this.#reportOversize();
  }

  #reportOversize(): void {
    const error = new OutputTooLargeError(this.#options.maxMessageBytes);
    this.onoversize?.(error);
    this.onerror?.(error);
  }

  #line(bytes: Uint8Array): void {
    let length = bytes.length;
    if (length > 0 && bytes[length - 1] === 13) length--; // CRLF
    if (length === 0) return;
    const text = this.#decoder.decode(length === bytes.length ? bytes : bytes.subarray(0, length));
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      message = undefined;
    }
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      this.garbage++;
      const error = new GarbageLineError(text);
      this.firstGarbage ??= error.line;
      this.onerror?.(error);
      return;
    }
    this.onmessage?.(message as JSONRPCMessage);
  }
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
