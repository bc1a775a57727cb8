/**
 * The settings of {@linkcode StoreOAuthProvider}: the client identity and
 * grant of one server (a manifest's `auth:` block with its secrets
 * resolved), and the interactive handler of a login.
 *
 * @module
 */

import type { AuthorizationCallback } from "./loopback.ts";

/** How tokens are obtained. */
export type OAuthGrant =
  | "authorization_code"
  | "client_credentials"
  | "cross_app_access"
  | "jwt_bearer";

/** How the client authenticates at the token endpoint. */
export type TokenEndpointAuthMethod =
  | "none"
  | "client_secret_basic"
  | "client_secret_post"
  | "private_key_jwt";

/** The enterprise identity provider of the cross-app access grant (SEP-990). */
export interface CrossAppSettings {
  /** The IdP's token endpoint (RFC 8693 token exchange). */
  idpTokenEndpoint: string;
  /** The client ID registered with the IdP. */
  idpClientId: string;
  /** The client secret registered with the IdP, if any. */
  idpClientSecret?: string;
  /** The user's ID token from the IdP. */
  idToken: string;
}

/** The client identity and grant of one server (the manifest's `auth:` block, secrets resolved). */
export interface OAuthClientSettings {
  /** How tokens are obtained (default `authorization_code`). */
  grant?: OAuthGrant;
  /** A pre-registered client ID (else a client ID metadata document or dynamic registration). */
  clientId?: string;
  /** The pre-registered client's secret. */
  clientSecret?: string;
  /** An HTTPS URL of this client's metadata document (CIMD), used when the server supports it. */
  clientMetadataUrl?: string;
  /** Token endpoint authentication (default: what the registration says, else by the SDK's choice). */
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  /** PKCS#8 PEM private key of `private_key_jwt`. */
  privateKey?: string;
  /** JWS algorithm of `private_key_jwt` (default `ES256`). */
  signingAlgorithm?: string;
  /** Scopes requested when neither the server's challenge nor its metadata names any. */
  scopes?: string[];
  /** The authorization server's expected issuer: any other is refused. */
  issuer?: string;
  /** The client name sent in a dynamic registration (default `toolfoundation`). */
  clientName?: string;
  /**
   * DPoP (RFC 9449): `true` always sends proofs (ES256 unless the authorization
   * server lists others), `false` never; unset (the default) sends them when the
   * authorization server's metadata lists `dpop_signing_alg_values_supported`
   * or the stored tokens are already bound to a key.
   */
  dpop?: boolean;
  /** The cross-app access IdP (with `grant: cross_app_access`). */
  crossApp?: CrossAppSettings;
  /**
   * The assertion of `grant: jwt_bearer` (RFC 7523; workload identity
   * federation: a JWT the platform issued to this workload, audience the
   * authorization server). Called for each token request, so a token file
   * the platform rotates is read anew every time.
   */
  assertion?: () => string | Promise<string>;
}

/** The interactive half of a login: shows the authorization URL and receives the response. */
export interface AuthorizationHandler {
  /** The redirect URI (the loopback receiver's URL). */
  redirectUrl: string;
  /** Shows `url` to the user (opens the browser or prints it). */
  open(url: URL): void | Promise<void>;
  /** Starts waiting for the authorization response carrying `state` (before `open` is called). */
  receive(state: string): Promise<AuthorizationCallback>;
}
