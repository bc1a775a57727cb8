// The HTTP/1.1 client of serve's direct path (serve/_http1_client.ts)
// against raw TCP servers that misbehave: bytes split or merged anywhere,
// odd chunk sizes, a connection closed mid-body or while idle, a server
// that hangs, garbage status lines, huge heads, answers over the cap.

import assert from "node:assert/strict";
import { Http1Pool } from "../../serve/_http1_client.ts";
import { Http1Error, MAX_HEAD_BYTES } from "../../serve/_http1_wire.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What a raw server does with one request: the pieces it writes, then close or not. */
type Script = (request: { head: string; body: string; index: number; conn: number }) => {
  pieces: (string | Uint8Array)[];
  close?: boolean;
  hang?: boolean;
};

/**
 * A TCP server that reads each request (head and Content-Length body) and
 * writes the script's answer piece by piece, each in a write of its own.
 */
function rawServer(script: Script) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  let accepted = 0;
  let requests = 0;
  const serve = async (conn: Deno.Conn, number: number) => {
    let buffered = "";
    const buf = new Uint8Array(65536);
    try {
      while (true) {
        let end = buffered.indexOf("\r\n\r\n");
        while (end < 0) {
          const n = await conn.read(buf);
          if (n === null) return;
          buffered += decoder.decode(buf.subarray(0, n));
          end = buffered.indexOf("\r\n\r\n");
        }
        const head = buffered.slice(0, end);
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        while (buffered.length < end + 4 + length) {
          const n = await conn.read(buf);
          if (n === null) return;
          buffered += decoder.decode(buf.subarray(0, n));
        }
        const body = buffered.slice(end + 4, end + 4 + length);
        buffered = buffered.slice(end + 4 + length);
        const answer = script({ head, body, index: requests++, conn: number });
        for (const piece of answer.pieces) {
          const bytes = typeof piece === "string" ? encoder.encode(piece) : piece;
          let written = 0;
          while (written < bytes.length) written += await conn.write(bytes.subarray(written));
          await new Promise((r) => setTimeout(r, 1));
        }
        if (answer.hang) await new Promise(() => {});
        if (answer.close) return;
      }
    } catch {
      /* the client went away */
    } finally {
      conns.delete(conn);
      try {
        conn.close();
      } catch { /* closed */ }
    }
  };
  const loop = (async () => {
    for await (const conn of listener) {
      conns.add(conn);
      void serve(conn, accepted++);
    }
  })().catch(() => {});
  return {
    url: new URL(`http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}/mcp?x=1`),
    accepted: () => accepted,
    /** Closes every open connection (the server stays up). */
    dropConnections() {
      for (const conn of conns) conn.close();
      conns.clear();
    },
    async close() {
      listener.close();
      for (const conn of conns) {
        try {
          conn.close();
        } catch { /* closed */ }
      }
      await loop;
    },
  };
}

/** Splits `bytes` into pieces at the given sizes (the rest as one piece). */
function split(bytes: string | Uint8Array, ...sizes: number[]): Uint8Array[] {
  const all = typeof bytes === "string" ? encoder.encode(bytes) : bytes;
  const out: Uint8Array[] = [];
  let at = 0;
  for (const size of sizes) {
    out.push(all.subarray(at, at + size));
    at += size;
  }
  if (at < all.length) out.push(all.subarray(at));
  return out;
}

function concat(...parts: (string | Uint8Array)[]): Uint8Array {
  const bytes = parts.map((p) => typeof p === "string" ? encoder.encode(p) : p);
  const out = new Uint8Array(bytes.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of bytes) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

/** `body` in chunks of the given byte sizes (hex digits in both cases, an extension, a trailer). */
function chunked(body: string, sizes: number[]): Uint8Array {
  const bytes = encoder.encode(body);
  const parts: (string | Uint8Array)[] = [];
  let at = 0;
  for (const [i, size] of [...sizes, Infinity].entries()) {
    const part = bytes.subarray(at, at + size);
    at += part.length;
    if (part.length === 0) break;
    const hex = part.length.toString(16);
    parts.push(
      `${i % 2 === 0 ? hex : hex.toUpperCase()}${i === 1 ? ";ext=1" : ""}\r\n`,
      part,
      "\r\n",
    );
  }
  return concat(...parts, "0\r\nx-trailer: yes\r\n\r\n");
}

async function text(pool: Http1Pool, url: URL, signal?: AbortSignal) {
  const response = await pool.request(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: encoder.encode('{"a":1}'),
    ...(signal === undefined ? {} : { signal }),
  });
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    body: decoder.decode(await response.bytes(1 << 20)),
  };
}

const BODY = 'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{"é":"✓"}}\n\n'.repeat(5);

Deno.test("the client reads the same body whether the server sends it byte by byte, merged with the head, or chunked at odd sizes", async () => {
  const bytes = encoder.encode(BODY);
  const lengthHead =
    `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: ${bytes.length}\r\n\r\n`;
  const chunkHead =
    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
  const variants: (string | Uint8Array)[][] = [
    [lengthHead + BODY],
    // Byte by byte (a UTF-8 character split too), then the rest at once.
    split(concat(lengthHead, bytes), ...Array(lengthHead.length + 80).fill(1)),
    split(concat(lengthHead, bytes), 3, 17, 1, 60, 2),
    [concat(chunkHead, chunked(BODY, [1, 7, 100, 3]))],
    split(concat(chunkHead, chunked(BODY, [50, 1, 1, 200])), 70, 1, 1, 1, 3, 2, 5, 9, 1, 2),
    // LF-only line ends in the head, the body's framing left as sent.
    [lengthHead.replaceAll("\r\n", "\n") + BODY],
  ];
  const server = rawServer(({ index }) => ({ pieces: variants[index] }));
  const pool = new Http1Pool();
  try {
    for (const [i] of variants.entries()) {
      const got = await text(pool, server.url);
      assert.deepEqual(got, { status: 200, type: "text/event-stream", body: BODY }, `variant ${i}`);
    }
    assert.equal(server.accepted(), 1, "every answer was framed: one kept-alive connection");
  } finally {
    pool.close();
    await server.close();
  }
});

Deno.test("the client sends the method, path, Host, headers and Content-Length, and skips a 100 Continue", async () => {
  let seen: { head: string; body: string } | undefined;
  const server = rawServer((request) => {
    seen = request;
    return { pieces: ["HTTP/1.1 100 Continue\r\n\r\n", "HTTP/1.1 204 No Content\r\n\r\n"] };
  });
  const pool = new Http1Pool();
  try {
    const got = await text(pool, server.url);
    assert.deepEqual(got, { status: 204, type: undefined, body: "" });
    const lines = seen!.head.split("\r\n");
    assert.equal(lines[0], "POST /mcp?x=1 HTTP/1.1");
    assert.ok(lines.includes(`host: ${server.url.host}`));
    assert.ok(lines.includes("content-type: application/json"));
    assert.ok(lines.includes("content-length: 7"));
    assert.equal(seen!.body, '{"a":1}');
  } finally {
    pool.close();
    await server.close();
  }
});

Deno.test("a Connection: close answer or one read to the end of the connection is not reused; the next request opens a new connection", async () => {
  const server = rawServer(({ index }) =>
    index === 0
      ? {
        pieces: ["HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 2\r\n\r\nok"],
        close: true,
      }
      : index === 1
      ? { pieces: ["HTTP/1.1 200 OK\r\n\r\n", "to the ", "end"], close: true }
      : { pieces: ["HTTP/1.1 200 OK\r\ncontent-length: 4\r\n\r\nlast"] }
  );
  const pool = new Http1Pool();
  try {
    assert.equal((await text(pool, server.url)).body, "ok");
    assert.equal((await text(pool, server.url)).body, "to the end");
    assert.equal((await text(pool, server.url)).body, "last");
    assert.equal(server.accepted(), 3);
  } finally {
    pool.close();
    await server.close();
  }
});

Deno.test("a kept-alive connection the server closed while idle is not reused: the next request goes on a new one and succeeds", async () => {
  const server = rawServer(() => ({ pieces: ["HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok"] }));
  const pool = new Http1Pool();
  try {
    assert.equal((await text(pool, server.url)).body, "ok");
    server.dropConnections();
    await new Promise((r) => setTimeout(r, 50));
    assert.equal((await text(pool, server.url)).body, "ok");
    assert.equal(server.accepted(), 2);
  } finally {
    pool.close();
    await server.close();
  }
});

Deno.test("a server that closes mid-body, mid-chunk or before answering fails the request with a closed error; the next request is served", async () => {
  const answers = [
    ["HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n", "only this"],
    ["HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n", "10\r\nabc"],
    [],
    ["HTTP/1.1 200 OK\r\ncontent-le"],
  ];
  const server = rawServer(({ index }) =>
    index < answers.length
      ? { pieces: answers[index], close: true }
      : { pieces: ["HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok"] }
  );
  const pool = new Http1Pool();
  try {
    for (const [i] of answers.entries()) {
      await assert.rejects(
        text(pool, server.url),
        (e: unknown) =>
          e instanceof Http1Error && e.code === "closed" && e.message.includes(server.url.host),
        `answer ${i}`,
      );
    }
    assert.equal((await text(pool, server.url)).body, "ok");
  } finally {
    pool.close();
    await server.close();
  }
});

Deno.test("garbage status lines, header lines, lengths and chunk sizes fail as malformed, naming what came", async () => {
  const answers = [
    "SSH-2.0-OpenSSH_9.6\r\n\r\n",
    "HTTP/2 200\r\n\r\n",
    "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
    "HTTP/1.1 200 OK\r\ncontent-length: 12abc\r\n\r\n",
    "HTTP/1.1 200 OK\r\ncontent-length: 3, 4\r\n\r\nabcd",
    "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n",
    "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nabXY\r\n",
  ];
  const server = rawServer(({ index }) => ({ pieces: [answers[index]], close: true }));
  const pool = new Http1Pool();
  try {
    for (const answer of answers) {
      await assert.rejects(
        text(pool, server.url),
        (e: unknown) => e instanceof Http1Error && e.code === "malformed",
        answer,
      );
    }
  } finally {
    pool.close();
    await server.close();
  }
});

Deno.test("a response head over the limit fails as head_too_large without reading on forever", async () => {
  const huge = `HTTP/1.1 200 OK\r\n${
    `x-big: ${"a".repeat(1000)}\r\n`.repeat(MAX_HEAD_BYTES / 500)
  }\r\n`;
  const server = rawServer(() => ({ pieces: [huge], hang: true }));
  const pool = new Http1Pool();
  try {
    await assert.rejects(
      text(pool, server.url),
      (e: unknown) => e instanceof Http1Error && e.code === "head_too_large",
    );
  } finally {
    pool.close();
    await server.close();
  }
});

Deno.test("a server that hangs before or during the answer is given up when the signal aborts, with the signal's reason", async () => {
  const server = rawServer(({ index }) =>
    index === 0
      ? { pieces: [], hang: true }
      : { pieces: ["HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n", "half"], hang: true }
  );
  const pool = new Http1Pool();
  try {
    for (let i = 0; i < 2; i++) {
      const reason = new Error(`gave up ${i}`);
      const abort = new AbortController();
      setTimeout(() => abort.abort(reason), 50);
      await assert.rejects(text(pool, server.url, abort.signal), (e) => e === reason);
    }
    const aborted = AbortSignal.abort(new Error("before"));
    await assert.rejects(text(pool, server.url, aborted), /before/);
  } finally {
    pool.close();
    await server.close();
  }
});

Deno.test("a body over the cap fails with the caller's error, whether its length is declared or it streams on", async () => {
  const big = "x".repeat(5000);
  const server = rawServer(({ index }) => ({
    pieces: index === 0
      ? [`HTTP/1.1 200 OK\r\ncontent-length: ${big.length}\r\n\r\n`, big]
      : ["HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n", chunked(big, [1000, 1000, 1000])],
  }));
  const pool = new Http1Pool();
  try {
    for (let i = 0; i < 2; i++) {
      const response = await pool.request(server.url, { method: "GET", headers: {} });
      await assert.rejects(
        response.bytes(4096, () => new RangeError("over the cap")),
        /over the cap/,
      );
    }
  } finally {
    pool.close();
    await server.close();
  }
});

Deno.test("discard() reads the rest of an answer in the background so the connection is reused, and closes it when the rest never ends", async () => {
  const server = rawServer(({ index }) =>
    index === 1
      ? {
        pieces: ["HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n", "3\r\nabc\r\n"],
        hang: true,
      }
      : {
        pieces: [
          "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n",
          "3\r\ndef\r\n0\r\n\r\n",
        ],
      }
  );
  const pool = new Http1Pool();
  try {
    const first = await pool.request(server.url, { method: "GET", headers: {} });
    assert.equal(decoder.decode(await first.read() ?? new Uint8Array()), "abc");
    first.discard();
    await new Promise((r) => setTimeout(r, 50));
    const second = await pool.request(server.url, { method: "GET", headers: {} });
    assert.equal(server.accepted(), 1, "the drained connection was reused");
    assert.equal(decoder.decode(await second.read() ?? new Uint8Array()), "abc");
    second.discard(100);
    await new Promise((r) => setTimeout(r, 300));
    const third = await pool.request(server.url, { method: "GET", headers: {} });
    assert.equal(decoder.decode(await third.bytes(100)), "abcdef");
    assert.equal(server.accepted(), 2, "the answer that never ended closed its connection");
  } finally {
    pool.close();
    await server.close();
  }
});

Deno.test("a header name that is not a token or a value with a line break is refused before anything is sent", async () => {
  const server = rawServer(() => ({ pieces: ["HTTP/1.1 204 No Content\r\n\r\n"] }));
  const pool = new Http1Pool();
  try {
    const refused: Record<string, string>[] = [
      { "bad name": "x" },
      { "x-ok": "a\r\nx-injected: 1" },
      { "x-ok": "a\nb" },
    ];
    for (const headers of refused) {
      await assert.rejects(pool.request(server.url, { method: "GET", headers }), TypeError);
    }
    assert.equal(server.accepted(), 0);
  } finally {
    pool.close();
    await server.close();
  }
});
