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
// an `Http1Error` naming what and where, and the connection is closed. The
// answer is read in serve/_http1_answer.ts, a connection is a `Wire`
// (serve/_http1_wire.ts).

import { Body, type Head, type Http1Response, readHead } from "./_http1_answer.ts";
import { Http1Error, type Origin, Wire } from "./_http1_wire.ts";

const MAX_IDLE_PER_ORIGIN = 64;
const encoder = new TextEncoder();
/** An HTTP header name (RFC 9110 token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

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
    return new Body(
      (reusable) => this.#finished(wire, reusable),
      wire,
      origin,
      parsed,
      method,
      signal,
      onAbort,
    );
  }

  /** Called by a body read to its end. */
  #finished(wire: Wire, reusable: boolean): void {
    if (reusable) this.#release(wire);
    else wire.close();
  }
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
