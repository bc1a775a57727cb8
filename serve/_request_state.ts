// Private: the `requestState` serve hands a client in place of an upstream's
// (2026-07-28 input-required results). serve keeps nothing between a result
// and the client's retry, so the upstream's state travels inside the client's
// copy, sealed with AES-256-GCM: the client can neither read it (an upstream
// may put anything in it, and the redactor cannot see into ciphertext) nor
// change it, and the seal is bound (as authenticated data) to the caller, the
// upstream, the method and the tool, prompt or resource, so one client
// cannot replay another's state, nor a state of one tool on another. It
// expires, and it counts the rounds of input the upstream asked for, so an
// upstream that asks forever is stopped. Every instance that may receive the
// retry needs the same key.

/** Why a sealed state was refused (the message says; the client sees a fixed text). */
export class RequestStateRefused extends Error {
  /** The stable code. */
  readonly code = "invalid_request_state";
  /**
   * Creates the instance.
   *
   * @param message What was wrong.
   * @param options The cause.
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "RequestStateRefused";
  }
}

/** What a sealed state carries. */
export interface OpenedState {
  /** The upstream's own `requestState` (absent when it sent none). */
  state?: string;
  /** The upstream server that issued it. */
  upstream: string;
  /** Rounds of input asked for so far in this call. */
  round: number;
  /**
   * The call parked in this process that the retry continues (a 2025-era
   * upstream's server-to-client requests turned into input requests).
   */
  pending?: string;
}

const PREFIX = "tf1.";
const IV_BYTES = 12;
const encoder = new TextEncoder();

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** Seals and opens the `requestState` serve sends in place of an upstream's. */
export class RequestStateSeal {
  readonly #key: CryptoKey;
  readonly #ttlMs: number;

  private constructor(key: CryptoKey, ttlMs: number) {
    this.#key = key;
    this.#ttlMs = ttlMs;
  }

  /**
   * A seal with the given secret (at least 32 bytes; a string is UTF-8), or
   * a random one of this process.
   */
  static async create(
    secret: Uint8Array | string | undefined,
    ttlMs: number,
  ): Promise<RequestStateSeal> {
    const bytes = typeof secret === "string"
      ? encoder.encode(secret)
      : secret ?? crypto.getRandomValues(new Uint8Array(32));
    if (bytes.byteLength < 32) {
      throw new RangeError(
        `the requestState key is ${bytes.byteLength} bytes; it must be at least 32 (256 bits)`,
      );
    }
    const material = await crypto.subtle.importKey("raw", bytes as BufferSource, "HKDF", false, [
      "deriveKey",
    ]);
    const key = await crypto.subtle.deriveKey(
      {
        name: "HKDF",
        hash: "SHA-256",
        salt: new Uint8Array(0),
        info: encoder.encode("toolfoundation serve requestState v1"),
      },
      material,
      { name: "AES-GCM", length: 256 },
      false,
      ["encrypt", "decrypt"],
    );
    return new RequestStateSeal(key, ttlMs);
  }

  /** Seals `opened` for one binding (caller, method, target). */
  async seal(opened: OpenedState, binding: string): Promise<string> {
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const payload = {
      s: opened.state,
      u: opened.upstream,
      r: opened.round,
      p: opened.pending,
      x: Date.now() + this.#ttlMs,
    };
    const sealed = new Uint8Array(
      await crypto.subtle.encrypt(
        { name: "AES-GCM", iv, additionalData: encoder.encode(binding) },
        this.#key,
        encoder.encode(JSON.stringify(payload)),
      ),
    );
    const out = new Uint8Array(IV_BYTES + sealed.byteLength);
    out.set(iv);
    out.set(sealed, IV_BYTES);
    return PREFIX + base64url(out);
  }

  /**
   * Opens a state this seal made for the same binding.
   *
   * @throws {RequestStateRefused} when it is not one, was changed, was made
   * for another caller or target, or expired.
   */
  async open(wire: string, binding: string): Promise<OpenedState> {
    if (!wire.startsWith(PREFIX)) {
      throw new RequestStateRefused("the requestState was not issued by this server");
    }
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = fromBase64url(wire.slice(PREFIX.length));
    } catch (error) {
      throw new RequestStateRefused("the requestState is not base64url", { cause: error });
    }
    if (bytes.byteLength <= IV_BYTES) {
      throw new RequestStateRefused("the requestState is too short");
    }
    let plain: ArrayBuffer;
    try {
      plain = await crypto.subtle.decrypt(
        {
          name: "AES-GCM",
          iv: bytes.subarray(0, IV_BYTES),
          additionalData: encoder.encode(binding),
        },
        this.#key,
        bytes.subarray(IV_BYTES),
      );
    } catch (error) {
      throw new RequestStateRefused(
        "the requestState was changed, or issued for another caller, tool, prompt or resource, or by a server with another key",
        { cause: error },
      );
    }
    const payload = JSON.parse(new TextDecoder().decode(plain)) as {
      s?: string;
      u: string;
      r: number;
      p?: string;
      x: number;
    };
    if (Date.now() > payload.x) {
      throw new RequestStateRefused(
        `the requestState expired (it is valid for ${Math.round(this.#ttlMs / 1000)} s)`,
      );
    }
    return {
      ...(payload.s === undefined ? {} : { state: payload.s }),
      upstream: payload.u,
      round: payload.r,
      ...(payload.p === undefined ? {} : { pending: payload.p }),
    };
  }
}
