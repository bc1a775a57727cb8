/**
 * YAML manifests (format version 1): MCP servers, providers, tools, chains
 * and, per module tool, the Deno permissions it may use. A manifest is
 * checked against its own JSON Schema (`cli/manifest.schema.json`, usable by
 * editors through yaml-language-server) with our validator, then for meaning
 * (duplicate IDs, unknown servers, providers, built-ins and chain tools).
 * Every problem is reported at once, each with file:line:column and a JSON
 * Pointer; nothing runs from an invalid manifest.
 *
 * @module
 */

import { isAlias, isMap, isSeq, LineCounter, parseDocument, visit } from "yaml";
import type { Document, Node } from "yaml";
import type { Tool } from "../model/mod.ts";
import { escapePointerToken } from "../model/_json_pointer.ts";
import { ManifestError, type ManifestIssue } from "./errors.ts";
import type { InheritEnv } from "../run/child_env.ts";
import manifestSchema from "./manifest.schema.json" with { type: "json" };
import { checkMeaning, ownRecord, raw, type UnplacedIssue } from "./_manifest_meaning.ts";
import { type Position, positionOf } from "./_yaml_position.ts";
// Start-up: the manifest schema's check generated at build time (scripts/gen.ts),
// so that a valid manifest loads without a JSON Schema validator.
import { validate as manifestSchemaHolds } from "./_generated/manifest_check.js";

/** The largest manifest accepted by default: 4 MiB, checked before parsing. */
export const DEFAULT_MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

/** The deepest nesting of mappings and sequences accepted by default. */
export const DEFAULT_MAX_MANIFEST_DEPTH = 128;

/** How many alias expansions a manifest may make (YAML "billion laughs" guard). */
export const MAX_MANIFEST_ALIASES = 100;

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
   * Variables the process inherits beyond the default set (see `run/child_env.ts`):
   * a list of names, or `"all"` for the whole environment (never the default).
   */
  inheritEnv?: InheritEnv;
  /** Cap of one result (stdout, response body, MCP message) in bytes (default 10 MiB). */
  maxOutputBytes?: number;
  /** OAuth of a Streamable HTTP server (see `toolfoundation auth`). */
  auth?: ManifestAuth;
}

/** A server's `auth:` block: its OAuth client identity and grant (secrets by variable name). */
export interface ManifestAuth {
  /** `authorization_code` (default; `auth login`), `client_credentials` or `cross_app_access`. */
  grant?: "authorization_code" | "client_credentials" | "cross_app_access";
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
  /** Hosts (host or host:port) the login and token refresh talk to, for `permissions`. */
  hosts?: string[];
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

/** One permission of a module tool: all, none, or a list. */
export type ManifestGrant = boolean | string[];

/** The Deno permissions a module tool's process gets (none by default). */
export interface ManifestPermissions {
  /** Paths (relative to the manifest) it may read. */
  read?: ManifestGrant;
  /** Paths (relative to the manifest) it may write. */
  write?: ManifestGrant;
  /** Hosts (`host` or `host:port`) it may reach. */
  net?: ManifestGrant;
  /** Programs it may run. */
  run?: ManifestGrant;
  /** Environment variables it may read. */
  env?: ManifestGrant;
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

/** One step of a chain. */
export interface ManifestStep {
  /** The tool ID. */
  tool: string;
  /** Arguments. */
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
  servers: Record<string, ManifestEndpoint>;
  /** Providers by ID. */
  providers: Record<string, ManifestEndpoint>;
  /** Tools in manifest order. */
  tools: ResolvedTool[];
  /** Chains by name. */
  chains: Record<string, ManifestChain>;
  /** Line and column of a JSON Pointer into the manifest (`key`: of the last token's key). */
  locate?: (pointer: string, key?: boolean) => { line: number; column: number };
}

/** Options of {@linkcode parseManifest}. */
export interface ParseManifestOptions {
  /** The file name used in messages and to resolve relative paths. */
  path: string;
  /** Directory for relative paths (default: the directory of `path`). */
  dir?: string;
  /** Largest manifest in UTF-8 bytes (default {@linkcode DEFAULT_MAX_MANIFEST_BYTES}). */
  maxBytes?: number;
  /** Deepest nesting (default {@linkcode DEFAULT_MAX_MANIFEST_DEPTH}). */
  maxDepth?: number;
}

/** Options of {@linkcode loadManifest}. */
export type LoadManifestOptions = Pick<ParseManifestOptions, "maxBytes" | "maxDepth">;

function issueAt(file: string, message: string, position?: Position): ManifestError {
  return new ManifestError([{
    file,
    line: position?.line ?? 1,
    column: position?.column ?? 1,
    path: "",
    message,
  }]);
}

function tooLarge(file: string, size: number, max: number): ManifestError {
  return issueAt(
    file,
    `the manifest is ${size} bytes; the limit is ${max} (raise it with --max-manifest-bytes)`,
  );
}

/** The UTF-8 length of a text. */
function utf8Length(text: string, limit: number): number {
  if (text.length * 3 <= limit) return text.length; // cannot exceed the limit
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** The first node nested deeper than `max` (iterative), as a JSON Pointer. */
function tooDeep(doc: Document, max: number): string | undefined {
  const stack: Array<{ node: unknown; depth: number; pointer: string }> = [
    { node: doc.contents, depth: 1, pointer: "" },
  ];
  while (stack.length > 0) {
    const { node, depth, pointer } = stack.pop()!;
    if (!isMap(node) && !isSeq(node)) continue;
    if (depth > max) return pointer;
    const items = node.items as unknown[];
    items.forEach((item, i) => {
      if (isMap(node)) {
        const pair = item as { key: unknown; value: unknown };
        const key = (pair.key as { value?: unknown })?.value ?? pair.key;
        const token = escapePointerToken(String(key));
        stack.push({ node: pair.key, depth: depth + 1, pointer: `${pointer}/${token}` });
        stack.push({ node: pair.value, depth: depth + 1, pointer: `${pointer}/${token}` });
      } else {
        stack.push({ node: item, depth: depth + 1, pointer: `${pointer}/${i}` });
      }
    });
  }
  return undefined;
}

function firstAlias(doc: Document): Node | undefined {
  let found: Node | undefined;
  visit(doc, {
    Alias(_key, node) {
      if (isAlias(node)) found = node;
      return visit.BREAK;
    },
  });
  return found;
}

let schemaValidator: Promise<import("../model/mod.ts").CompiledSchema> | undefined;

/**
 * Parses and checks manifest text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseManifest } from "@toolfoundation/core/cli";
 *
 * const manifest = await parseManifest(
 *   "version: 1\ntools:\n  - name: add\n    namespace: math\n    builtin: calculate\n",
 *   { path: "/tmp/tools.yaml" },
 * );
 * assert.deepEqual(manifest.tools.map((t) => t.id), ["math:add"]);
 * ```
 *
 * @param text YAML text.
 * @param options The file name (for messages and relative paths).
 * @returns The checked manifest.
 * @throws {ManifestError} Listing every problem with file:line:column.
 */
export async function parseManifest(
  text: string,
  options: ParseManifestOptions,
): Promise<Manifest> {
  const file = options.path;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_MANIFEST_BYTES;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_MANIFEST_DEPTH;
  const size = utf8Length(text, maxBytes);
  if (size > maxBytes) throw tooLarge(file, size, maxBytes);
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new ManifestError(
      doc.errors.map((e) => {
        const pos = e.linePos?.[0] ?? counter.linePos(e.pos[0]);
        const first = e.message.split("\n")[0];
        return {
          file,
          line: pos.line,
          column: pos.col,
          path: "",
          message: /Maximum call stack/.test(first)
            ? `nesting too deep (the limit is ${maxDepth} levels)`
            : `YAML syntax error: ${first}`,
        };
      }),
      { cause: doc.errors[0] },
    );
  }
  const deep = tooDeep(doc, maxDepth);
  if (deep !== undefined) {
    const { line, column } = positionOf(doc, counter, deep);
    throw new ManifestError([{
      file,
      line,
      column,
      path: deep,
      message: `nesting too deep (the limit is ${maxDepth} levels)`,
    }]);
  }
  const issues: UnplacedIssue[] = [];
  const keyIssues = new Set<number>();
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_MANIFEST_ALIASES });
  } catch (cause) {
    // npm:yaml refuses alias bombs ("Excessive alias count") with a plain error.
    const at = firstAlias(doc)?.range?.[0] ?? 0;
    const { line, col } = counter.linePos(at);
    throw new ManifestError([{
      file,
      line,
      column: col,
      path: "",
      message: /alias/i.test((cause as Error)?.message ?? "")
        ? `aliases expand too much (more than ${MAX_MANIFEST_ALIASES} expansions; a YAML alias bomb?)`
        : `cannot read the YAML: ${(cause as Error)?.message ?? cause}`,
    }], { cause });
  }
  if (!isMap(doc.contents)) {
    issues.push({ path: "", message: "a manifest must be a mapping with `version: 1`" });
  } else if (!(manifestSchemaHolds as (value: unknown) => boolean)(value)) {
    // Only a manifest the generated check refuses pays for the validator: its
    // answer and messages are the ones reported.
    schemaValidator ??= import("../model/default_validator.ts").then(({ DefaultValidator }) =>
      new DefaultValidator().compile(manifestSchema)
    );
    const result = (await schemaValidator).check(value);
    if (!result.valid) {
      for (const f of result.failures) {
        if (f.keyword === "additionalProperties" || f.keyword === "propertyNames") {
          const name = /'([^']*)'/.exec(f.message)?.[1];
          if (name !== undefined) {
            keyIssues.add(issues.length);
            issues.push({ path: `${f.instanceLocation}/${name}`, message: f.message });
            continue;
          }
        }
        issues.push({ path: f.instanceLocation, message: f.message });
      }
    }
  }
  const m = raw(value);
  const tools = checkMeaning(m, issues);
  const located: ManifestIssue[] = issues.map((issue, i) => ({
    file,
    ...positionOf(doc, counter, issue.path, keyIssues.has(i)),
    ...issue,
  })).sort((a, b) => a.line - b.line || a.column - b.column);
  if (located.length > 0) throw new ManifestError(located);
  const dir = options.dir ?? dirname(file);
  return {
    path: file,
    dir,
    version: 1,
    servers: ownRecord(m.servers) as Record<string, ManifestEndpoint>,
    providers: ownRecord(m.providers) as Record<string, ManifestEndpoint>,
    tools,
    chains: ownRecord(m.chains) as unknown as Record<string, ManifestChain>,
    locate: (pointer, key) => positionOf(doc, counter, pointer, key),
  };
}

/** The directory part of a path, `.` when there is none (never touches the file system). */
export function dirname(path: string): string {
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return cut < 0 ? "." : cut === 0 ? "/" : path.slice(0, cut);
}

/** The first byte that is not valid UTF-8, or -1. */
function invalidUtf8At(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    if (i + need >= bytes.length) return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/**
 * Decodes manifest bytes as strict UTF-8.
 *
 * @throws {ManifestError} At the first invalid byte (offset, line and column).
 */
function decodeManifest(bytes: Uint8Array, file: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (cause) {
    const at = Math.max(0, invalidUtf8At(bytes));
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < at; i++) {
      if (bytes[i] === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    const column = new TextDecoder().decode(bytes.subarray(lineStart, at)).length + 1;
    throw new ManifestError([{
      file,
      line,
      column,
      path: "",
      message: `invalid UTF-8 at byte offset ${at} (byte 0x${
        bytes[at]?.toString(16).padStart(2, "0") ?? "??"
      }); a manifest must be UTF-8 text`,
    }], { cause });
  }
}

/**
 * Reads and checks a manifest file. Its size is checked before it is read
 * whole, and it must be valid UTF-8.
 *
 * @param path The file.
 * @param options Size and depth limits.
 * @returns The checked manifest (relative paths resolve against its directory).
 * @throws {ManifestError} When it cannot be read, is too large, is not UTF-8, or is invalid.
 */
export async function loadManifest(
  path: string,
  options: LoadManifestOptions = {},
): Promise<Manifest> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_MANIFEST_BYTES;
  let bytes: Uint8Array;
  try {
    using file = await Deno.open(path, { read: true });
    const { size } = await file.stat();
    if (size > maxBytes) throw tooLarge(path, size, maxBytes);
    bytes = await readAtMost(file, maxBytes + 1);
  } catch (cause) {
    if (cause instanceof ManifestError) throw cause;
    throw new ManifestError([{
      file: path,
      line: 1,
      column: 1,
      path: "",
      message: `cannot read the manifest: ${(cause as Error).message}`,
    }], { cause });
  }
  // A file that grew, or a pipe, is caught here: never more than the limit is read.
  if (bytes.length > maxBytes) throw tooLarge(path, bytes.length, maxBytes);
  return parseManifest(decodeManifest(bytes, path), { path, ...options });
}

async function readAtMost(file: Deno.FsFile, max: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < max) {
    const buf = new Uint8Array(Math.min(64 * 1024, max - size));
    const n = await file.read(buf);
    if (n === null) break;
    chunks.push(buf.subarray(0, n));
    size += n;
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}
