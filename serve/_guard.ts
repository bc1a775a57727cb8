// Private: the checks every HTTP request passes before MCP sees it: Host and
// Origin (DNS rebinding), the body limit, and a concurrency limit per client.

/** A JSON error response (JSON-RPC code -32000 unless given). */
export function jsonError(
  status: number,
  message: string,
  headers: HeadersInit = {},
  code = -32000,
): Response {
  return new Response(
    JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }),
    { status, headers: { "content-type": "application/json", ...headers } },
  );
}

/** A loopback Host header in the form a URL keeps as it is, with an optional port. */
const LOOPBACK_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(?::([0-9]{1,5}))?$/;

/** Whether the Host header names an allowed host (port ignored). */
export function hostAllowed(request: Request, allowed: ReadonlySet<string>): boolean {
  // Deno.serve builds request.url from the Host header; a Request built in
  // code has no Host header, only its URL.
  const host = request.headers.get("host") ?? new URL(request.url).host;
  // The loopback names as clients send them (a URL would give the same name).
  const plain = LOOPBACK_HOST.exec(host);
  if (plain !== null && (plain[2] === undefined || Number(plain[2]) <= 65535)) {
    return allowed.has(plain[1]);
  }
  let name: string;
  try {
    name = new URL(`http://${host}`).hostname;
  } catch {
    return false;
  }
  return allowed.has(name.toLowerCase());
}

/** The path of a request URL: read off the string when it is plainly there, else parsed. */
export function pathnameOf(url: string): string {
  const plain = PLAIN_URL.exec(url);
  return plain !== null ? plain[1] : new URL(url).pathname;
}

/**
 * An http URL whose path a URL parser keeps as it is: a host of letters,
 * digits, dots, hyphens (or an IPv6 literal) and a port, then segments of
 * unreserved characters (no dot segments, escapes or backslashes).
 */
const PLAIN_URL =
  /^https?:\/\/(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{0,5})?((?:\/[A-Za-z0-9_~-]*)+)(?:[?#]|$)/;

/** Whether the Origin header (when present) is allowed; browsers send it, other clients do not. */
export function originAllowed(request: Request, allowed: ReadonlySet<string>): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  return allowed.has(parsed.origin.toLowerCase()) || allowed.has(parsed.hostname.toLowerCase());
}

/** Reads a body of at most `max` bytes; `undefined` when it is larger. */
export async function readLimited(request: Request, max: number): Promise<Uint8Array | undefined> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > max) return undefined;
  // A declared length within the limit: the HTTP server reads no more than
  // it, so the body is taken whole (one read, no stream of chunks).
  if (Number.isFinite(declared)) {
    const bytes = await request.bytes();
    return bytes.length > max ? undefined : bytes;
  }
  if (request.body === null) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Requests in flight per client, with a limit. */
export class ConcurrencyLimit {
  readonly #max: number;
  readonly #inFlight = new Map<string, number>();

  constructor(max: number) {
    this.#max = max;
  }

  /** Takes `count` slots, all or none; `false` when the client has fewer free. */
  acquire(client: string, count = 1): boolean {
    const n = this.#inFlight.get(client) ?? 0;
    if (n + count > this.#max) return false;
    this.#inFlight.set(client, n + count);
    return true;
  }

  /** Gives `count` slots back. */
  release(client: string, count = 1): void {
    const n = (this.#inFlight.get(client) ?? count) - count;
    if (n <= 0) this.#inFlight.delete(client);
    else this.#inFlight.set(client, n);
  }
}

/** Protocol versions whose HTTP transport accepts JSON-RPC batches (2025-06-18 removed them). */
const BATCH_VERSIONS: ReadonlySet<string> = new Set(["2024-11-05", "2025-03-26"]);

/**
 * The concurrency slots a body takes: one per request of a batch (at least
 * one), else one; or an error response for a batch the request's protocol
 * version does not allow, or one larger than the whole limit.
 */
export function batchSlots(request: Request, body: unknown, max: number): number | Response {
  if (!Array.isArray(body)) return 1;
  const version = request.headers.get("mcp-protocol-version");
  if (version !== null && !BATCH_VERSIONS.has(version)) {
    return jsonError(
      400,
      `JSON-RPC batches are not supported in protocol version ${version} ` +
        `(removed in 2025-06-18); send one message per request`,
      {},
      -32600,
    );
  }
  const requests =
    body.filter((m) => typeof m === "object" && m !== null && "method" in m && "id" in m).length;
  const slots = Math.max(1, requests);
  if (slots > max) {
    return jsonError(
      429,
      `too many concurrent requests from this client: a batch of ${slots} requests counts as ` +
        `${slots} and the limit is ${max} (--max-concurrent); send at most ${max} per batch`,
    );
  }
  return slots;
}

/** Compares two strings in time independent of where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
