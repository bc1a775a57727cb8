// Private: one connection of serve/_http1_client.ts and its read buffer,
// and the error of a server that does not speak HTTP/1.1 as it should.

/** What went wrong talking HTTP/1.1 to a server. */
export class Http1Error extends Error {
  /** A stable code: `connect_failed`, `closed`, `malformed`, `head_too_large`. */
  readonly code: "connect_failed" | "closed" | "malformed" | "head_too_large";
  /** Creates the instance. */
  constructor(code: Http1Error["code"], message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "Http1Error";
    this.code = code;
  }
}

/** Largest response head (status line and headers) read: 64 KiB. */
export const MAX_HEAD_BYTES = 64 * 1024;
const BUFFER_BYTES = 16 * 1024;

/** Where a request goes: the address to connect to and the Host header. */
export interface Origin {
  hostname: string;
  port: number;
  host: string;
}

/** One connection and its read buffer. */
export class Wire {
  buf = new Uint8Array(BUFFER_BYTES);
  start = 0;
  end = 0;
  /** A read started while idle (or for the next answer), not yet consumed. */
  pending: Promise<number | null> | undefined;
  settled = false;
  closed = false;
  reused = false;
  /** In the pool, waiting for a request. */
  idle = false;

  constructor(readonly conn: Deno.TcpConn, readonly key: string) {}

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.conn.close();
    } catch { /* already closed */ }
  }

  /** Starts reading into the free end of the buffer. */
  readAhead(): Promise<number | null> {
    if (this.pending !== undefined) return this.pending;
    if (this.end === this.buf.length) {
      if (this.start > 0) {
        this.buf.copyWithin(0, this.start, this.end);
        this.end -= this.start;
        this.start = 0;
      } else {
        const grown = new Uint8Array(this.buf.length * 2);
        grown.set(this.buf);
        this.buf = grown;
      }
    }
    this.settled = false;
    const pending = this.conn.read(this.buf.subarray(this.end));
    this.pending = pending;
    pending.then(() => this.settled = true, () => this.settled = true);
    return pending;
  }

  /** Reads more bytes into the buffer; false at the end of the connection. */
  async fill(): Promise<boolean> {
    const pending = this.readAhead();
    let n: number | null;
    try {
      n = await pending;
    } finally {
      this.pending = undefined;
    }
    if (n === null) return false;
    this.end += n;
    return true;
  }

  /** Compacts the buffer before a read when little is left unread. */
  compact(): void {
    if (this.start === this.end) this.start = this.end = 0;
  }
}
