// Private: the answer of a server to serve/_http1_client.ts: its head
// (status line and headers, at most MAX_HEAD_BYTES) and its body, framed by
// Content-Length, chunked transfer coding or the end of the connection, read
// chunk by chunk from the connection's buffer. At the end of the body the
// connection goes back to its pool (when the server keeps it alive) or is
// closed.

import { Http1Error, MAX_HEAD_BYTES, type Origin, type Wire } from "./_http1_wire.ts";

const latin1 = new TextDecoder("latin1");

/** The answer of a server: status, headers, and a body read chunk by chunk. */
export interface Http1Response {
  /** The status code. */
  readonly status: number;
  /** Lower-case header names; repeated headers joined with ", ". */
  readonly headers: ReadonlyMap<string, string>;
  /**
   * The next bytes of the body, `null` at its end. The view is valid until
   * the next call: copy what must outlive it.
   */
  read(): Promise<Uint8Array | null>;
  /** The rest of the body; throws `tooLarge()` as soon as it passes `max` bytes. */
  bytes(max: number, tooLarge?: () => Error): Promise<Uint8Array>;
  /** Drops the rest of the answer (the connection is closed). */
  cancel(): void;
  /**
   * Reads the rest of the body in the background and throws it away, so
   * that the connection is reused; closes the connection instead when more
   * than `max` bytes follow or the body does not end within `ms`. The
   * request's signal no longer applies.
   */
  discard(ms?: number, max?: number): void;
}

/** A parsed response head. */
export interface Head {
  status: number;
  version: number;
  headers: Map<string, string>;
}

/** Reads one response head from the wire (its bytes consumed, the body's left). */
export async function readHead(wire: Wire, origin: Origin, onBytes: () => void): Promise<Head> {
  // How far past `wire.start` the search for the blank line has gone.
  let scanned = 0;
  while (true) {
    const buf = wire.buf;
    for (let i = wire.start + scanned; i < wire.end; i++) {
      if (buf[i] !== 10) continue;
      // An empty line (LF or CRLF) after the status line ends the head.
      const blank = (i > wire.start && buf[i - 1] === 10) ||
        (i > wire.start + 1 && buf[i - 1] === 13 && buf[i - 2] === 10);
      if (!blank) continue;
      const text = latin1.decode(buf.subarray(wire.start, i + 1));
      wire.start = i + 1;
      return parseHead(text, origin);
    }
    scanned = wire.end - wire.start;
    if (scanned > MAX_HEAD_BYTES) {
      throw new Http1Error(
        "head_too_large",
        `${origin.host} sent a response head over ${MAX_HEAD_BYTES} bytes`,
      );
    }
    wire.compact();
    if (!await wire.fill()) {
      throw new Http1Error(
        "closed",
        wire.end > wire.start
          ? `${origin.host} closed the connection in the middle of the response head`
          : `${origin.host} closed the connection before answering`,
      );
    }
    onBytes();
  }
}

function parseHead(text: string, origin: Origin): Head {
  const lines = text.split("\n");
  const status = /^HTTP\/1\.([01]) (\d{3})(?: [^\r]*)?\r?$/.exec(lines[0]);
  if (status === null) {
    throw new Http1Error(
      "malformed",
      `${origin.host} answered with a status line that is not HTTP/1.x: ${
        JSON.stringify(lines[0].slice(0, 80))
      }`,
    );
  }
  const headers = new Map<string, string>();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i].endsWith("\r") ? lines[i].slice(0, -1) : lines[i];
    if (line === "") continue;
    const colon = line.indexOf(":");
    if (colon <= 0 || /[\s]/.test(line.slice(0, colon))) {
      throw new Http1Error(
        "malformed",
        `${origin.host} sent a header line that is not "name: value": ${
          JSON.stringify(line.slice(0, 80))
        }`,
      );
    }
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    const before = headers.get(name);
    headers.set(name, before === undefined ? value : `${before}, ${value}`);
  }
  return { status: Number(status[2]), version: Number(status[1]), headers };
}

type Framing = "none" | "length" | "chunked" | "close";

/** The body of an answer, read from its connection. */
export class Body implements Http1Response {
  readonly status: number;
  readonly headers: ReadonlyMap<string, string>;
  #framing: Framing;
  #left = 0;
  /** Chunked: reading a size line (0), data (1), the CRLF after data (2). */
  #state = 0;
  #done = false;
  #keepAlive: boolean;

  constructor(
    readonly finished: (reusable: boolean) => void,
    readonly wire: Wire,
    readonly origin: Origin,
    head: Head,
    method: string,
    readonly signal: AbortSignal | undefined,
    readonly onAbort: () => void,
  ) {
    this.status = head.status;
    this.headers = head.headers;
    const connection = head.headers.get("connection")?.toLowerCase() ?? "";
    this.#keepAlive = head.version === 1 && !/(^|,)\s*close\s*(,|$)/.test(connection);
    const coding = head.headers.get("transfer-encoding");
    const length = head.headers.get("content-length");
    if (method === "HEAD" || head.status === 204 || head.status === 304) {
      this.#framing = "none";
    } else if (coding !== undefined) {
      this.#framing = /(^|,)\s*chunked\s*$/i.test(coding) ? "chunked" : "close";
    } else if (length !== undefined) {
      const values = new Set(length.split(",").map((v) => v.trim()));
      const [only] = values;
      if (values.size !== 1 || !/^\d{1,15}$/.test(only)) {
        throw new Http1Error(
          "malformed",
          `${origin.host} sent an invalid Content-Length: ${JSON.stringify(length.slice(0, 80))}`,
        );
      }
      this.#framing = "length";
      this.#left = Number(only);
    } else {
      this.#framing = "close";
    }
    if (this.#framing === "close") this.#keepAlive = false;
    if (this.#framing === "none" || (this.#framing === "length" && this.#left === 0)) {
      this.#finish();
    }
  }

  #finish(): void {
    if (this.#done) return;
    this.#done = true;
    this.signal?.removeEventListener("abort", this.onAbort);
    this.finished(this.#keepAlive);
  }

  #fail(error: unknown): never {
    this.#done = true;
    this.signal?.removeEventListener("abort", this.onAbort);
    this.wire.close();
    this.signal?.throwIfAborted();
    throw error;
  }

  cancel(): void {
    if (this.#done) return;
    this.#done = true;
    this.signal?.removeEventListener("abort", this.onAbort);
    this.wire.close();
  }

  discard(ms = 1000, max = 64 * 1024): void {
    if (this.#done) return;
    this.signal?.removeEventListener("abort", this.onAbort);
    const timer = setTimeout(() => this.cancel(), ms);
    let total = 0;
    const rest = async () => {
      for (let chunk = await this.#next(); chunk !== null; chunk = await this.#next()) {
        total += chunk.length;
        if (total > max) return this.cancel();
      }
    };
    rest().catch(() => this.cancel()).finally(() => clearTimeout(timer));
  }

  async read(): Promise<Uint8Array | null> {
    if (this.#done) return null;
    try {
      return await this.#next();
    } catch (error) {
      this.#fail(error);
    }
  }

  async #more(what: string): Promise<void> {
    this.wire.compact();
    if (!await this.wire.fill()) {
      throw new Http1Error("closed", `${this.origin.host} closed the connection ${what}`);
    }
  }

  async #next(): Promise<Uint8Array | null> {
    const wire = this.wire;
    if (this.#framing === "close") {
      if (wire.start === wire.end) {
        wire.compact();
        if (!await wire.fill()) {
          this.#finish();
          return null;
        }
      }
      const out = wire.buf.subarray(wire.start, wire.end);
      wire.start = wire.end;
      return out;
    }
    if (this.#framing === "length") return await this.#data("before the end of the body");
    while (true) {
      if (this.#state === 1) return await this.#data("in the middle of a chunk");
      const line = await this.#line();
      if (this.#state === 2) {
        if (line !== "") throw this.#malformed("a chunk not followed by CRLF", line);
        this.#state = 0;
        continue;
      }
      const size = /^([0-9a-fA-F]{1,12})[ \t]*(;.*)?$/.exec(line);
      if (size === null) throw this.#malformed("an invalid chunk size line", line);
      this.#left = parseInt(size[1], 16);
      if (this.#left > 0) {
        this.#state = 1;
        continue;
      }
      // The last chunk: trailers up to an empty line.
      while (await this.#line() !== "");
      this.#finish();
      return null;
    }
  }

  async #data(where: string): Promise<Uint8Array | null> {
    const wire = this.wire;
    if (wire.start === wire.end) await this.#more(where);
    const n = Math.min(this.#left, wire.end - wire.start);
    const out = wire.buf.subarray(wire.start, wire.start + n);
    wire.start += n;
    this.#left -= n;
    if (this.#left === 0) {
      if (this.#framing === "length") this.#finish();
      else this.#state = 2;
    }
    return out;
  }

  /** One line of the chunked framing (without its CRLF or LF). */
  async #line(): Promise<string> {
    const wire = this.wire;
    let scanned = 0;
    while (true) {
      const at = wire.buf.subarray(wire.start + scanned, wire.end).indexOf(10);
      if (at >= 0) {
        const end = wire.start + scanned + at;
        let text = latin1.decode(wire.buf.subarray(wire.start, end));
        if (text.endsWith("\r")) text = text.slice(0, -1);
        wire.start = end + 1;
        return text;
      }
      scanned = wire.end - wire.start;
      if (scanned > MAX_HEAD_BYTES) {
        throw this.#malformed("a chunk framing line over the limit", "");
      }
      await this.#more("in the middle of the chunked framing");
    }
  }

  #malformed(what: string, line: string): Http1Error {
    return new Http1Error(
      "malformed",
      `${this.origin.host} sent ${what} in a chunked body: ${JSON.stringify(line.slice(0, 80))}`,
    );
  }

  async bytes(max: number, tooLarge?: () => Error): Promise<Uint8Array> {
    const parts: Uint8Array[] = [];
    let total = 0;
    if (this.#framing === "length" && this.#left > max) {
      this.cancel();
      throw tooLarge?.() ?? new RangeError(`the body is over ${max} bytes`);
    }
    for (let chunk = await this.read(); chunk !== null; chunk = await this.read()) {
      total += chunk.length;
      if (total > max) {
        this.cancel();
        throw tooLarge?.() ?? new RangeError(`the body is over ${max} bytes`);
      }
      parts.push(chunk.slice());
    }
    if (parts.length === 1) return parts[0];
    const out = new Uint8Array(total);
    let at = 0;
    for (const part of parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }
}
