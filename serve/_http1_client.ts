// Private: a small exact HTTP/1.1 client over `Deno.connect`, for the direct
// path of a `tools/call` to a plain-HTTP upstream. Deno's `fetch` costs more
// CPU per request than the upstream spends answering it (headers objects,
// web streams, the body's promise chain); this client writes the request in
// one write and parses the answer from one buffer. Connections are kept
// alive per origin and reused; an idle connection keeps a read pending, so a
// connection the server closed (or wrote to unasked) is dropped at once,
// never reused. Bodies framed by Content-Length, chunked transfer coding or
// the end of the connection; 1xx answers skipped. Anything outside HTTP/1.x
// (a garbage status line, a header line without a colon, a bad chunk size,
// a head over the limit, a connection closed mid-body) fails the request with
// an `Http1Error` naming what and where, and the connection is closed.

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
const MAX_IDLE_PER_ORIGIN = 64;
const encoder = new TextEncoder();
/** An HTTP header name (RFC 9110 token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const latin1 = new TextDecoder("latin1");

/** A request of {@linkcode Http1Pool.request}. */
export interface Http1Request {
  /** The method, e.g. `POST`. */
  method: string;
  /** Header names and values (Host and Content-Length are set here). */
  headers: Readonly<Record<string, string>>;
  /** The body. */
  body?: Uint8Array;
  /** Cancels the request; reading the answer then throws the signal's reason. */
  signal?: AbortSignal;
}

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

interface Origin {
  hostname: string;
  port: number;
  host: string;
}

/** One connection and its read buffer. */
class Wire {
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

/**
 * Keep-alive HTTP/1.1 connections per origin (`http:` only), reused one
 * request at a time.
 */
export class Http1Pool {
  #idle = new Map<string, Wire[]>();
  #closed = false;

  /** Sends one request and reads the head of its answer. */
  async request(url: URL, request: Http1Request): Promise<Http1Response> {
    const origin = originOf(url);
    const signal = request.signal;
    signal?.throwIfAborted();
    const head = requestHead(url, origin, request);
    const body = request.body;
    const message = new Uint8Array(head.length + (body?.length ?? 0));
    encoder.encodeInto(head, message);
    if (body !== undefined) message.set(body, head.length);
    // A reused connection the server closed before it read anything: the
    // request was not delivered and goes once more, on a new connection.
    for (let attempt = 0;; attempt++) {
      const wire = this.#take(origin) ?? await this.#connect(origin, signal);
      const onAbort = () => wire.close();
      signal?.addEventListener("abort", onAbort, { once: true });
      try {
        await writeAll(wire.conn, message);
      } catch (error) {
        signal?.removeEventListener("abort", onAbort);
        wire.close();
        signal?.throwIfAborted();
        if (wire.reused && attempt === 0) continue;
        throw new Http1Error(
          "closed",
          `cannot send the request to ${origin.host}: ${(error as Error).message}`,
          { cause: error },
        );
      }
      try {
        return await this.#answer(wire, origin, request.method, signal, onAbort);
      } catch (error) {
        signal?.removeEventListener("abort", onAbort);
        wire.close();
        signal?.throwIfAborted();
        throw error;
      }
    }
  }

  /** Closes every idle connection; later requests open new ones. */
  close(): void {
    this.#closed = true;
    for (const wires of this.#idle.values()) for (const wire of wires) wire.close();
    this.#idle.clear();
  }

  #take(origin: Origin): Wire | undefined {
    const wires = this.#idle.get(origin.host);
    while (wires !== undefined && wires.length > 0) {
      const wire = wires.pop()!;
      // A pending read that ended while idle: closed or written to unasked.
      wire.idle = false;
      if (!wire.settled && !wire.closed) {
        wire.reused = true;
        return wire;
      }
      wire.close();
    }
    return undefined;
  }

  async #connect(origin: Origin, signal: AbortSignal | undefined): Promise<Wire> {
    let conn: Deno.TcpConn;
    try {
      conn = await Deno.connect({ hostname: origin.hostname, port: origin.port });
    } catch (error) {
      signal?.throwIfAborted();
      throw new Http1Error(
        "connect_failed",
        `cannot connect to ${origin.host}: ${(error as Error).message}`,
        { cause: error },
      );
    }
    conn.setNoDelay(true);
    if (signal?.aborted) {
      conn.close();
      signal.throwIfAborted();
    }
    return new Wire(conn, origin.host);
  }

  #release(wire: Wire): void {
    if (this.#closed || wire.start !== wire.end || wire.closed) return wire.close();
    wire.start = wire.end = 0;
    const wires = this.#idle.get(wire.key) ?? [];
    if (wires.length >= MAX_IDLE_PER_ORIGIN) return wire.close();
    wires.push(wire);
    this.#idle.set(wire.key, wires);
    wire.idle = true;
    // Watched while idle: its end, or bytes nobody asked for, drop it. Once
    // taken, the read is the first of the next answer.
    const dropIfIdle = () => {
      if (wire.idle) this.#drop(wire);
    };
    wire.readAhead().then(dropIfIdle, dropIfIdle);
  }

  #drop(wire: Wire): void {
    wire.idle = false;
    const wires = this.#idle.get(wire.key);
    const at = wires?.indexOf(wire) ?? -1;
    if (at >= 0) wires!.splice(at, 1);
    wire.close();
  }

  async #answer(
    wire: Wire,
    origin: Origin,
    method: string,
    signal: AbortSignal | undefined,
    onAbort: () => void,
  ): Promise<Http1Response> {
    let parsed: Head;
    let received = false;
    do {
      parsed = await readHead(wire, origin, () => received = true).catch((error) => {
        if (!received && wire.reused && error instanceof Http1Error && error.code === "closed") {
          throw new Http1Error(
            "closed",
            `${origin.host} closed a kept-alive connection without answering the request ` +
              `(it may or may not have run it)`,
            { cause: error },
          );
        }
        throw error;
      });
    } while (parsed.status >= 100 && parsed.status < 200 && parsed.status !== 101);
    if (parsed.status === 101) {
      throw new Http1Error("malformed", `${origin.host} switched protocols (HTTP 101) unasked`);
    }
    return new Body(this, wire, origin, parsed, method, signal, onAbort);
  }

  /** Called by a body read to its end. */
  finished(wire: Wire, reusable: boolean): void {
    if (reusable) this.#release(wire);
    else wire.close();
  }
}

interface Head {
  status: number;
  version: number;
  headers: Map<string, string>;
}

function originOf(url: URL): Origin {
  if (url.protocol !== "http:") throw new TypeError(`not an http: URL: ${url.href}`);
  const port = url.port === "" ? 80 : Number(url.port);
  const hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return { hostname, port, host: url.host };
}

function requestHead(url: URL, origin: Origin, request: Http1Request): string {
  let head = `${request.method} ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${origin.host}\r\n`;
  for (const name in request.headers) {
    const lower = name.toLowerCase();
    if (lower === "host" || lower === "content-length" || lower === "connection") continue;
    const value = request.headers[name];
    // As fetch refuses them: a name that is not a token, a value with CR, LF or NUL.
    if (!TOKEN.test(name) || /[\r\n\0]/.test(value)) {
      throw new TypeError(
        `invalid HTTP header ${JSON.stringify(name)}: a name must be a token and a value ` +
          `must not hold CR, LF or NUL; fix the server's headers in the manifest`,
      );
    }
    head += `${name}: ${value}\r\n`;
  }
  if (request.body !== undefined || request.method === "POST" || request.method === "PUT") {
    head += `content-length: ${request.body?.length ?? 0}\r\n`;
  }
  return head + "\r\n";
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += await conn.write(bytes.subarray(written));
}

/** Reads one response head from the wire (its bytes consumed, the body's left). */
async function readHead(wire: Wire, origin: Origin, onBytes: () => void): Promise<Head> {
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

class Body implements Http1Response {
  readonly status: number;
  readonly headers: ReadonlyMap<string, string>;
  #framing: Framing;
  #left = 0;
  /** Chunked: reading a size line (0), data (1), the CRLF after data (2). */
  #state = 0;
  #done = false;
  #keepAlive: boolean;

  constructor(
    readonly pool: Http1Pool,
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
    this.pool.finished(this.wire, this.#keepAlive);
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
