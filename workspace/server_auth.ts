/**
 * OAuth for a manifest's HTTP servers with an `auth:` block: the provider
 * settings (secrets read from the variables the block names and remembered
 * by the redactor), and the non-interactive provider `run`, `chain`,
 * `respond` and `serve` give the runner (stored tokens, refreshed; never a
 * browser: a needed login stops with `auth_login_required` naming the
 * `auth login` command).
 *
 * @module
 */

import { MissingSecretError } from "./errors.ts";
import type { Manifest, ManifestAuth, ManifestEndpoint } from "./manifest.ts";
import { shellQuote } from "./permissions.ts";
import { unknownServerError } from "./server_ids.ts";
import { Redactor } from "./secrets.ts";
import {
  defaultTokenStorePath,
  FileTokenStore,
  type OAuthClientSettings,
  StoreOAuthProvider,
  type TokenStore,
} from "../run/auth/mod.ts";

/** The command a user runs to log in to `server` of `manifest`. */
export function loginCommandFor(manifest: Pick<Manifest, "path">, server: string): string {
  return `toolfoundation auth login ${shellQuote(manifest.path)} ${shellQuote(server)}`;
}

/**
 * The provider settings of a manifest `auth:` block, secrets read from the
 * variables it names (each remembered in `redactor`).
 */
export function authSettings(
  auth: ManifestAuth,
  env: (name: string) => string | undefined,
  redactor: Redactor,
): OAuthClientSettings {
  const secret = (name: string | undefined): string | undefined => {
    if (name === undefined) return undefined;
    const value = env(name);
    if (value === undefined) throw new MissingSecretError(name);
    redactor.add(value, name);
    return value;
  };
  const idp = auth.crossApp;
  const settings: OAuthClientSettings = {
    ...(auth.grant ? { grant: auth.grant } : {}),
    ...(auth.clientId ? { clientId: auth.clientId } : {}),
    ...(auth.clientMetadataUrl ? { clientMetadataUrl: auth.clientMetadataUrl } : {}),
    ...(auth.tokenEndpointAuthMethod
      ? { tokenEndpointAuthMethod: auth.tokenEndpointAuthMethod }
      : {}),
    ...(auth.signingAlgorithm ? { signingAlgorithm: auth.signingAlgorithm } : {}),
    ...(auth.scopes ? { scopes: auth.scopes } : {}),
    ...(auth.issuer ? { issuer: auth.issuer } : {}),
    ...(auth.dpop === undefined ? {} : { dpop: auth.dpop }),
  };
  const clientSecret = secret(auth.clientSecretEnv);
  if (clientSecret !== undefined) settings.clientSecret = clientSecret;
  const privateKey = secret(auth.privateKeyEnv);
  if (privateKey !== undefined) settings.privateKey = privateKey;
  const assertionEnv = auth.assertionEnv;
  const assertionFile = auth.assertionFile;
  if (assertionEnv !== undefined) {
    secret(assertionEnv); // missing: reported now, not at the first token request
    settings.assertion = () => secret(assertionEnv)!;
  } else if (assertionFile !== undefined) {
    // Read for each token request: the platform rotates the file (projected tokens).
    settings.assertion = async () => {
      const value = (await Deno.readTextFile(assertionFile)).trim();
      if (value !== "") redactor.add(value, assertionFile);
      return value;
    };
  }
  if (idp !== undefined) {
    const idpSecret = secret(idp.idpClientSecretEnv);
    settings.crossApp = {
      idpTokenEndpoint: idp.idpTokenEndpoint,
      idpClientId: idp.idpClientId,
      idToken: secret(idp.idTokenEnv)!,
      ...(idpSecret === undefined ? {} : { idpClientSecret: idpSecret }),
    };
  }
  return settings;
}

/** Options of {@linkcode manifestAuthProvider}. */
export interface ManifestAuthProviderOptions {
  /** The token store (default: the user's token file). */
  store?: TokenStore;
  /** Reads a variable (default `Deno.env.get`). */
  env?: (name: string) => string | undefined;
  /** Where resolved secrets are remembered (scrubbed from output). */
  redactor?: Redactor;
}

/**
 * The non-interactive provider of a server with an `auth:` block (for
 * `run` and `chain`: stored tokens, refreshed; a needed login stops with
 * `auth_login_required` naming the command), or undefined without one.
 */
export function manifestAuthProvider(
  manifest: Manifest,
  server: string,
  options: ManifestAuthProviderOptions = {},
): StoreOAuthProvider | undefined {
  const e = endpointOf(manifest, server);
  if (e.auth === undefined || e.url === undefined) return undefined;
  const redactor = options.redactor ?? new Redactor();
  return new StoreOAuthProvider(e.url, {
    store: options.store ?? new FileTokenStore(defaultTokenStorePath()),
    settings: authSettings(e.auth, options.env ?? ((n) => Deno.env.get(n)), redactor),
    loginCommand: loginCommandFor(manifest, server),
    // Tokens, codes and secrets the OAuth flow obtains are scrubbed like variables.
    onSecret: (value) => redactor.add(value),
  });
}

/**
 * A server's entry by name.
 *
 * @param manifest The manifest.
 * @param server The server's name.
 * @returns Its entry (variables not expanded).
 * @throws {UsageError} When there is no such server (naming those there are).
 */
export function endpointOf(manifest: Manifest, server: string): ManifestEndpoint {
  if (!Object.hasOwn(manifest.servers, server)) throw unknownServerError(manifest, server);
  return manifest.servers[server];
}
