/**
 * The shapes of a checked manifest: servers (with their import filters and
 * per-tool overrides), providers, tools, chains and inputs.
 *
 * @module
 */

import type { Tool } from "../model/mod.ts";
import type { InheritEnv } from "../run/process/child_env.ts";
import type { ManifestInput } from "./variables.ts";
import type { ManifestPermissions } from "../run/module/permissions.ts";

export type { ManifestGrant, ManifestPermissions } from "../run/module/permissions.ts";

/** A server or provider: a command (stdio / subprocess) or an HTTP endpoint. */
export interface ManifestEndpoint {
  /** Program to start. */
  command?: string;
  /** Its arguments. */
  args?: string[];
  /** Extra environment variables (values may be `${env:NAME}`). */
  env?: Record<string, string>;
  /** Working directory, relative to the manifest. */
  cwd?: string;
  /** HTTP endpoint. */
  url?: string;
  /** Extra HTTP headers (values may be `${env:NAME}`). */
  headers?: Record<string, string>;
  /**
   * Variables the process inherits beyond the default set (see `run/process/child_env.ts`):
   * a list of names, or `"all"` for the whole environment (never the default).
   */
  inheritEnv?: InheritEnv;
  /** Cap of one result (stdout, response body, MCP message) in bytes (default 10 MiB). */
  maxOutputBytes?: number;
  /** OAuth of a Streamable HTTP server (see `toolfoundation auth`). */
  auth?: ManifestAuth;
  /** MCP servers: the protocol era (`auto` by default; see `McpProtocol`). */
  protocol?: "auto" | "legacy" | "2026-07-28";
}

/** A server's `auth:` block: its OAuth client identity and grant (secrets by variable name). */
export interface ManifestAuth {
  /**
   * `authorization_code` (default; `auth login`), `client_credentials`,
   * `cross_app_access` or `jwt_bearer` (a ready assertion, workload identity).
   */
  grant?: "authorization_code" | "client_credentials" | "cross_app_access" | "jwt_bearer";
  /** A pre-registered client ID (else CIMD or dynamic registration). */
  clientId?: string;
  /** The environment variable holding the client secret. */
  clientSecretEnv?: string;
  /** The HTTPS URL of this client's metadata document (CIMD). */
  clientMetadataUrl?: string;
  /** `none`, `client_secret_basic`, `client_secret_post` or `private_key_jwt`. */
  tokenEndpointAuthMethod?:
    | "none"
    | "client_secret_basic"
    | "client_secret_post"
    | "private_key_jwt";
  /** The environment variable holding the PKCS#8 PEM key of `private_key_jwt`. */
  privateKeyEnv?: string;
  /** The JWS algorithm of `private_key_jwt` (default ES256). */
  signingAlgorithm?: string;
  /** Scopes asked for when the server names none. */
  scopes?: string[];
  /** The expected authorization server issuer; any other is refused. */
  issuer?: string;
  /**
   * DPoP (RFC 9449): `true` always sends proofs, `false` never; unset sends them
   * when the authorization server lists `dpop_signing_alg_values_supported`.
   */
  dpop?: boolean;
  /** Hosts (host or host:port) the login and token refresh talk to, for `permissions`. */
  hosts?: string[];
  /** The environment variable holding the assertion of `jwt_bearer`. */
  assertionEnv?: string;
  /** The absolute path of a file holding the assertion of `jwt_bearer`, read anew for each token request. */
  assertionFile?: string;
  /** The IdP of `cross_app_access`. */
  crossApp?: {
    /** The IdP's token endpoint. */
    idpTokenEndpoint: string;
    /** The client ID at the IdP. */
    idpClientId: string;
    /** The environment variable holding the IdP client secret. */
    idpClientSecretEnv?: string;
    /** The environment variable holding the user's ID token. */
    idTokenEnv: string;
  };
}

/** Overrides of one server tool, by its name on the server; its schemas stay the server's. */
export interface ServerToolOverride {
  /** The name it is exposed under (`server:name`); calls still use the server's name. */
  name?: string;
  /** A description replacing the server's. */
  description?: string;
  /** Deadline of one run in milliseconds. */
  timeoutMs?: number;
  /** Whether calls may be retried on transport failures (default: its hints). */
  idempotent?: boolean;
}

/** An MCP server: an endpoint plus which of its tools are imported, and how. */
export interface ManifestServer extends ManifestEndpoint {
  /** The transport (default: stdio with `command`, http with `url`). */
  type?: "stdio" | "http" | "sse";
  /** Import only tools whose name matches one of these globs. */
  include?: string[];
  /** Never import tools whose name matches one of these globs. */
  exclude?: string[];
  /** Import only tools whose annotations (MCP defaults for absent hints) have these values. */
  annotations?: Partial<
    Record<"readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint", boolean>
  >;
  /** Per-tool overrides by the tool's name on the server. */
  tools?: Record<string, ServerToolOverride>;
  /** Deadline of connecting, listing and calls, in milliseconds. */
  timeoutMs?: number;
  /**
   * `serve`, stdio servers only: the calls one process carries side by side
   * (default: `serve --upstream-calls-per-process`, else 16); 1 gives each
   * call in flight a process of its own.
   */
  callsPerProcess?: number;
}

/** A tool entry: model fields plus exactly one backend. */
export interface ManifestTool extends Partial<Tool> {
  /** The tool name. */
  name: string;
  /** A built-in handler shipped with the CLI. */
  builtin?: string;
  /** A local module path (relative to the manifest), run in a sandboxed child Deno process. */
  module?: string;
  /** The module export to call (default `default`). */
  export?: string;
  /** Deno permissions of the module tool's process. */
  permissions?: ManifestPermissions;
  /** Heap limit of the module tool's process in MB (at least 16; default 512). */
  memoryMb?: number;
  /** Cap of the module tool's result (its JSON text) in bytes (default 10 MiB). */
  maxOutputBytes?: number;
  /** The MCP server that serves the tool (under the same `name`). */
  server?: string;
  /** The provider that serves the tool. */
  provider?: string;
  /** The provider's ID for the tool (default: `name`). */
  providerTool?: string;
  /** Deadline of one run in milliseconds. */
  timeoutMs?: number;
}

/**
 * A value taken from the chain's input or an earlier step's result:
 * `{ $from: "input/city" }` or `{ $from: "steps/0/id" }` (see
 * `run/chain_pointer.ts`).
 */
export interface StepValue {
  /** Where the value comes from: `input<pointer>` or `steps/<index|id><pointer>` (into its structured result). */
  $from: string;
}

/** One step of a chain. */
export interface ManifestStep {
  /** The tool ID. */
  tool: string;
  /** A name for the step, so later steps can refer to it (`steps/<id>/...`). */
  id?: string;
  /** Arguments; any value may be a {@linkcode StepValue}. */
  args?: Record<string, unknown>;
  /** Put the previous step's result into `args.previous`. */
  usePrevious?: boolean;
  /** Deadline of this step in milliseconds. */
  timeoutMs?: number;
}

/** A named chain. */
export interface ManifestChain {
  /** What it does. */
  description?: string;
  /** The JSON Schema of the chain's input (`chain ... --args`). */
  inputSchema?: Record<string, unknown>;
  /** Its steps, in order. */
  steps: ManifestStep[];
}

/** A tool as the manifest resolves it. */
export interface ResolvedTool {
  /** The canonical tool ID. */
  id: string;
  /** Index in the manifest's `tools`. */
  index: number;
  /** The entry as written. */
  entry: ManifestTool;
  /** The model tool (for MCP tools without schemas: filled from the server at run time). */
  tool: Tool;
  /** Whether the schemas are to come from the MCP server. */
  schemaFromServer: boolean;
  /** For a tool imported from a server's listing (not written in `tools`): the server. */
  importedFrom?: string;
}

/** A checked manifest. */
export interface Manifest {
  /** Absolute path of the manifest file (or a label for text). */
  path: string;
  /** Directory that relative paths are resolved against. */
  dir: string;
  /** Format version. */
  version: 1;
  /** MCP servers by name. */
  servers: Record<string, ManifestServer>;
  /** Providers by ID. */
  providers: Record<string, ManifestEndpoint>;
  /** Tools in manifest order. */
  tools: ResolvedTool[];
  /** Chains by name. */
  chains: Record<string, ManifestChain>;
  /** Inputs (`${input:ID}`) by ID. */
  inputs: Record<string, ManifestInput>;
  /** Set when the file is a Claude/Cursor (`claude`) or VS Code (`vscode`) configuration. */
  config?: "claude" | "vscode";
  /** Line and column of a JSON Pointer into the manifest (`key`: of the last token's key). */
  locate?: (pointer: string, key?: boolean) => { line: number; column: number };
}
