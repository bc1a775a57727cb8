// Private: the stdio wire of `serve --stdio`: newline-delimited JSON-RPC on a
// readable and a writable stream, with a cap on one message. A line over the
// cap is answered at once with a JSON-RPC error (id null) and skipped up to the
// next newline, so the client hears why and the connection goes on; a line that
// is not JSON, or not a JSON-RPC message, is answered the same way instead of
// being dropped in silence. Lines are gathered chunk by chunk and only the new
// chunk is searched for a newline, so reading a long line costs linear time.

import type { Readable, Writable } from "node:stream";
import { Buffer } from "node:buffer";
import {
  type JSONRPCMessage,
  parseJSONRPCMessage,
  serializeMessage,
  type Transport,
} from "@modelcontextprotocol/server";

/** JSON-RPC "Parse error". */
const PARSE_ERROR = -32700;
/** JSON-RPC "Invalid Request". */
const INVALID_REQUEST = -32600;

/** Options of {@linkcode StdioLineTransport}. */
export interface StdioLineOptions {
  /** The most bytes of one line (message), newline excluded. */
  maxMessageBytes: number;
  /** How to raise the cap, named in the error (e.g. `raise it with --max-body-bytes N`). */
  raiseHint?: string;
}

/** A JSON-RPC transport over newline-delimited streams with a message cap. */
export class StdioLineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #in: Readable;
  readonly #out: Writable;
  readonly #max: number;
  readonly #hint: string;
  #chunks: Buffer[] = [];
  #size = 0;
  /** Inside a line over the cap: bytes are dropped up to the next newline. */
  #skipping = false;
  #started = false;
  #closed = false;

  constructor(input: Readable, output: Writable, options: StdioLineOptions) {
    this.#in = input;
    this.#out = output;
    this.#max = options.maxMessageBytes;
    this.#hint = options.raiseHint ?? "";
  }

  #ondata = (chunk: Buffer | string) => {
    try {
      this.#take(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
    } catch (error) {
      this.onerror?.(error as Error);
    }
  };
  #onerror = (error: Error) => this.onerror?.(error);
  #onend = () => void this.close();
  #onouterror = (error: Error) => {
    if (this.#closed) return;
    this.onerror?.(error);
    void this.close();
  };

  /** Starts reading. */
  start(): Promise<void> {
    if (this.#started) return Promise.reject(new Error("the stdio transport is already started"));
    this.#started = true;
    this.#in.on("data", this.#ondata);
    this.#in.on("error", this.#onerror);
    this.#in.on("end", this.#onend);
    this.#in.on("close", this.#onend);
    this.#out.on("error", this.#onouterror);
    if (this.#in.readableEnded || this.#in.destroyed) setTimeout(this.#onend, 0);
    return Promise.resolve();
  }

  #take(chunk: Buffer): void {
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(10, from);
      const end = nl === -1 ? chunk.length : nl;
      if (!this.#skipping) {
        const part = chunk.subarray(from, end);
        if (this.#size + part.length > this.#max) {
          // Over the cap: answer now, not when (or whether) the line ends.
          this.#chunks = [];
          this.#size = 0;
          this.#skipping = true;
          this.#refuse(
            INVALID_REQUEST,
            `message too large: a line on stdin is over the limit of ${this.#max} bytes` +
              `; it is skipped up to its newline${this.#hint === "" ? "" : `; ${this.#hint}`}`,
            { limit: this.#max },
          );
        } else if (part.length > 0) {
          // Copy: the stream may reuse its buffer.
          this.#chunks.push(Buffer.from(part));
          this.#size += part.length;
        }
      }
      if (nl === -1) return;
      from = nl + 1;
      if (this.#skipping) this.#skipping = false;
      else this.#line(Buffer.concat(this.#chunks, this.#size));
      this.#chunks = [];
      this.#size = 0;
      if (this.#closed) return;
    }
  }

  #line(bytes: Buffer): void {
    const text = bytes.toString("utf8").replace(/\r$/, "");
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.#refuse(PARSE_ERROR, `parse error: a line on stdin is not JSON: ${messageOf(error)}`);
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch {
      this.#refuse(
        INVALID_REQUEST,
        "invalid request: a line on stdin is JSON but not a JSON-RPC 2.0 message " +
          '(one object with "jsonrpc": "2.0" per line)',
      );
      return;
    }
    this.onmessage?.(message);
  }

  #refuse(code: number, message: string, data?: unknown): void {
    const error = { code, message, ...(data === undefined ? {} : { data }) };
    this.send({ jsonrpc: "2.0", id: null, error } as unknown as JSONRPCMessage).catch((e) =>
      this.onerror?.(e as Error)
    );
  }

  /** Writes one message as a line. */
  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("the stdio transport is closed"));
    return new Promise((resolve, reject) => {
      if (this.#out.write(serializeMessage(message))) {
        resolve();
        return;
      }
      const onDrain = () => {
        this.#out.off("error", onError);
        resolve();
      };
      const onError = (error: Error) => {
        this.#out.off("drain", onDrain);
        reject(error);
      };
      this.#out.once("drain", onDrain);
      this.#out.once("error", onError);
    });
  }

  /** Stops reading and reports the close once. */
  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#in.off("data", this.#ondata);
    this.#in.off("error", this.#onerror);
    this.#in.off("end", this.#onend);
    this.#in.off("close", this.#onend);
    if (this.#in.listenerCount("data") === 0) this.#in.pause();
    this.#chunks = [];
    this.#size = 0;
    this.onclose?.();
    return Promise.resolve();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
