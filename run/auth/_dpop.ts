// Private: the DPoP key of a token store entry (RFC 9449). A key pair is made
// once per entry, kept in it as a private JWK (so a refreshed or reloaded token
// keeps its binding), and turned into the SDK's `DpopSession`, which signs the
// proofs (token requests and resource requests) and answers `use_dpop_nonce`
// challenges. In memory the private key is imported non-extractable; the
// stored JWK is the only copy that can be read, and its private members are
// secrets (scrubbed from output like tokens).

import { DpopSession } from "@modelcontextprotocol/client";
import { AuthError } from "./auth_error.ts";
import type { StoredDpopKey } from "./token_store.ts";

/** The curves of the JWS algorithms this client makes DPoP keys for, in order of preference. */
const CURVES: Readonly<Record<string, string>> = {
  ES256: "P-256",
  ES384: "P-384",
  ES512: "P-521",
};

/** The DPoP algorithms this client signs with, in order of preference. */
export const DPOP_ALGS: readonly string[] = Object.keys(CURVES);

/**
 * A server nonce as RFC 9449 section 8.1 defines it (`1*NQCHAR`: visible
 * ASCII without `"` and `\`), at most 1024 characters: anything else is not
 * echoed into a signed proof.
 */
const NONCE = /^[\x21\x23-\x5B\x5D-\x7E]{1,1024}$/;

/**
 * The algorithm to sign with, from an authorization server's
 * `dpop_signing_alg_values_supported`: the first of {@linkcode DPOP_ALGS}
 * it lists; undefined when it lists none of them or is not a list.
 */
export function pickDpopAlg(advertised: unknown): string | undefined {
  if (!Array.isArray(advertised)) return undefined;
  return DPOP_ALGS.find((alg) => advertised.includes(alg));
}

/** A new key pair for `alg`, as it is stored (private JWK and its RFC 7638 thumbprint). */
export async function newDpopKey(alg: string): Promise<StoredDpopKey> {
  const namedCurve = CURVES[alg];
  if (namedCurve === undefined) throw new TypeError(`no DPoP key for algorithm ${alg}`);
  const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve }, true, [
    "sign",
    "verify",
  ]);
  const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
  const { kty, crv, x, y, d } = jwk;
  const stored = { kty: kty!, crv: crv!, x: x!, y: y!, d: d! };
  return { alg, jwk: stored, jkt: await thumbprint(stored) };
}

/** The values of a stored key that are secret (its private members). */
export function dpopKeySecrets(key: StoredDpopKey): string[] {
  return [key.jwk.d].filter((v): v is string => typeof v === "string" && v !== "");
}

/**
 * The SDK session that signs with `key`. A `DPoP-Nonce` a server sends that
 * is not a nonce stops the request with an {@linkcode AuthError} instead of
 * being signed into the next proof.
 *
 * @param key The stored key.
 * @param server The MCP server (for errors).
 */
export async function dpopSession(key: StoredDpopKey, server: string): Promise<DpopSession> {
  const namedCurve = CURVES[key.alg];
  const { kty, crv, x, y } = key.jwk;
  if (namedCurve === undefined || crv !== namedCurve || kty !== "EC" || !x || !y || !key.jwk.d) {
    throw new AuthError(
      "auth_failed",
      `the stored DPoP key of ${server} is not an ${key.alg || "EC"} key pair; ` +
        `run auth logout for the server and log in again`,
      { server },
    );
  }
  const publicJwk = { kty, crv, x, y };
  let privateKey: CryptoKey;
  let publicKey: CryptoKey;
  try {
    const algorithm = { name: "ECDSA", namedCurve };
    privateKey = await crypto.subtle.importKey("jwk", { ...key.jwk }, algorithm, false, ["sign"]);
    publicKey = await crypto.subtle.importKey("jwk", publicJwk, algorithm, true, ["verify"]);
  } catch (cause) {
    throw new AuthError(
      "auth_failed",
      `the stored DPoP key of ${server} cannot be imported; ` +
        `run auth logout for the server and log in again`,
      { server, cause },
    );
  }
  const session = await DpopSession.create({
    keyPair: {
      privateKey,
      publicKey,
      publicJwk,
      thumbprint: key.jkt || await thumbprint(publicJwk),
      alg: key.alg as "ES256",
    },
  });
  const remember = session.rememberNonce.bind(session);
  session.rememberNonce = (url: string | URL, nonce: string) => {
    if (!NONCE.test(nonce)) {
      throw new AuthError(
        "auth_failed",
        `${new URL(url).origin} sent a DPoP-Nonce header that is not a nonce ` +
          `(${describe(nonce)}; RFC 9449 section 8.1 allows 1 to 1024 visible ASCII characters ` +
          `without '"' and '\\'); it was not signed into a proof. The server is misbehaving`,
        { server },
      );
    }
    remember(url, nonce);
  };
  return session;
}

/** RFC 7638 SHA-256 thumbprint of an EC key (its required members in lexicographic order). */
async function thumbprint(jwk: { crv?: string; kty?: string; x?: string; y?: string }) {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonical));
  return btoa(String.fromCharCode(...new Uint8Array(digest))).replaceAll("+", "-")
    .replaceAll("/", "_").replace(/=+$/, "");
}

/** A short description of a rejected nonce: its length and its first characters, quoted. */
function describe(nonce: string): string {
  if (nonce === "") return "it is empty";
  const head = JSON.stringify(nonce.slice(0, 40));
  return `${nonce.length} characters, starting ${head}`;
}
