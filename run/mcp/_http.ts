// Private: the fetch our Streamable HTTP transports use. It caps the size of
// every message a server sends (a JSON body, or one SSE event) without
// reading past the cap, and it cancels every response body still open when
// the connection closes (aborting the fetch signal alone can leave a pending
// read on the standalone SSE stream, which keeps the process alive). It
// follows redirects itself by the rule of `run/http/redirect.ts`: the headers the
// configuration set go only to the server URL's origin (a redirect elsewhere,
// or an OAuth request to an authorization server, goes without them), and
// Authorization, Cookie and Proxy-Authorization are dropped once a redirect
// leaves the request's origin; an OAuth form body is never redirected to
// another origin.

import { OutputTooLargeError } from "../errors.ts";
import { type ConfiguredHeaders, fetchFollowing } from "../http/redirect.ts";

const NEWLINE = 10;
const CR = 13;

/** Counts the bytes of the SSE event in progress; an empty line ends an event. */
class SseMeter {
  #line = 0;
  #event = 0;
  #lastCr = false;

  /** Adds a chunk; `false` once an event is larger than `max`. */
  add(chunk: Uint8Array, max: number): boolean {
    let pos = 0;
    while (true) {
      const nl = chunk.indexOf(NEWLINE, pos);
      const end = nl === -1 ? chunk.length : nl;
      const length = end - pos;
      if (length > 0) this.#lastCr = chunk[end - 1] === CR;
      this.#line += length;
      this.#event += length;
      if (this.#event > max) return false;
      if (nl === -1) return true;
      if (this.#line === 0 || (this.#line === 1 && this.#lastCr)) this.#event = 0;
      this.#line = 0;
      this.#lastCr = false;
      pos = nl + 1;
    }
  }
}

/** Statuses whose Retry-After the runner's retries honour. */
const RETRY_AFTER_STATUS: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** An HTTP answer that says when to try again (`status`, `retryAfter` as sent). */
class HttpStatusError extends Error {
  readonly status: number;
  readonly retryAfter: string;
  constructor(status: number, retryAfter: string, body: string) {
    super(`HTTP ${status}${body === "" ? "" : `: ${body}`} (Retry-After: ${retryAfter})`);
    this.name = "HttpStatusError";
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

/** Whether a request's body is a form: an OAuth request's, with codes and secrets. */
function isForm(headers: Headers): boolean {
  return (headers.get("content-type") ?? "").includes("application/x-www-form-urlencoded");
}

/** Response bodies of one connection, capped and cancellable. */
export class HttpBodies {
  readonly #readers = new Set<ReadableStreamDefaultReader<Uint8Array>>();
  readonly #max: number;
  readonly #configured: ConfiguredHeaders | undefined;
  /** Called when a message exceeds the cap (its stream is cancelled). */
  onoversize: ((error: OutputTooLargeError) => void) | undefined;
  /** Called once when the connection closes: what else reads its server's answers closes too. */
  readonly onclose: Set<() => void> = new Set();

  /**
   * @param maxMessageBytes The cap of one message.
   * @param configured The configured headers and the server's origin they are for.
   */
  constructor(maxMessageBytes: number, configured?: ConfiguredHeaders) {
    this.#max = maxMessageBytes;
    this.#configured = configured;
  }

  readonly fetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const { response } = await fetchFollowing(fetch, url, init, {
      configured: this.#configured,
      secretBody: isForm,
    });
    if (RETRY_AFTER_STATUS.has(response.status) && response.headers.has("retry-after")) {
      // The SDK's HTTP error keeps only the status: carry the server's Retry-After
      // to the runner's retry loop (idempotent tools only, see run/retry.ts).
      const body = (await response.text().catch(() => "")).slice(0, 200);
      throw new HttpStatusError(response.status, response.headers.get("retry-after")!, body);
    }
    if (!response.ok || response.body === null) return response;
    const sse = (response.headers.get("content-type") ?? "").includes("text/event-stream");
    const reader = response.body.getReader();
    const readers = this.#readers;
    readers.add(reader);
    const max = this.#max;
    const meter = sse ? new SseMeter() : undefined;
    let total = 0;
    const body = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        let step: ReadableStreamReadResult<Uint8Array>;
        try {
          step = await reader.read();
        } catch (error) {
          readers.delete(reader);
          controller.error(error);
          return;
        }
        if (step.done) {
          readers.delete(reader);
          controller.close();
          return;
        }
        const chunk = step.value;
        total += chunk.length;
        if (meter === undefined ? total > max : !meter.add(chunk, max)) {
          readers.delete(reader);
          reader.cancel().catch(() => undefined);
          const error = new OutputTooLargeError(max);
          this.onoversize?.(error);
          controller.error(error);
          return;
        }
        controller.enqueue(chunk);
      },
      cancel: (reason) => {
        readers.delete(reader);
        return reader.cancel(reason);
      },
    }, { highWaterMark: 0 });
    const capped = new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    Object.defineProperty(capped, "url", { value: response.url });
    return capped;
  };

  /** Cancels every body still open. */
  close(): void {
    for (const reader of this.#readers) reader.cancel().catch(() => undefined);
    this.#readers.clear();
    for (const close of this.onclose) close();
    this.onclose.clear();
  }
}
