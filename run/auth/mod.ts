/**
 * OAuth for Streamable HTTP MCP servers, on the MCP SDK v2's OAuth pieces:
 * a {@linkcode TokenStore} (in memory or in a 0600 file), the
 * {@linkcode StoreOAuthProvider} to give the SDK's transport as
 * `authProvider`, and the interactive login (loopback receiver, browser
 * opener, {@linkcode login}, {@linkcode withAuthorization}).
 *
 * @example A token store in memory
 * ```ts
 * import assert from "node:assert/strict";
 * import { MemoryTokenStore, StoreOAuthProvider } from "@toolfoundation/core/run/auth";
 *
 * const provider = new StoreOAuthProvider("https://mcp.example/mcp", { store: new MemoryTokenStore() });
 * assert.equal(await provider.tokens(), undefined);
 * ```
 *
 * @module
 */

export {
  AuthError,
  type AuthErrorCode,
  type AuthErrorOptions,
  findAuthError,
} from "./auth_error.ts";
export {
  type AuthEntry,
  MemoryTokenStore,
  serverKey,
  type StoredClient,
  type StoredDpopKey,
  type StoredTokens,
  type TokenStore,
} from "./token_store.ts";
export {
  defaultTokenStorePath,
  type DefaultTokenStorePathOptions,
  FileTokenStore,
  type FileTokenStoreOptions,
  TOKEN_STORE_ENV,
} from "./file_token_store.ts";
export { StoreOAuthProvider, type StoreOAuthProviderOptions } from "./oauth_provider.ts";
export type {
  AuthorizationHandler,
  CrossAppSettings,
  OAuthClientSettings,
  OAuthGrant,
  TokenEndpointAuthMethod,
} from "./oauth_settings.ts";
export {
  type AuthorizationCallback,
  type LoopbackReceiver,
  type LoopbackReceiverOptions,
  type LoopbackWaitOptions,
  startLoopbackReceiver,
} from "./loopback.ts";
export { browserCommand, browserOpener, type BrowserOpenerOptions } from "./browser.ts";
export {
  type AuthorizeOptions,
  type FetchLike,
  login,
  type LoginResult,
  loopbackAuthorization,
  withAuthorization,
} from "./login.ts";
