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

import { isMap, LineCounter, parseDocument } from "yaml";
import { DefaultValidator, type Tool, ToolFoundationError } from "../model/mod.ts";
import manifestSchema from "./manifest.schema.json" with { type: "json" };
import { checkMeaning, raw, type UnplacedIssue } from "./_manifest_meaning.ts";
import { positionOf } from "./_yaml_position.ts";

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
}

/** One permission of a module tool: all, none, or a list. */
export type ManifestGrant = boolean | string[];

/** The Deno permissions a module tool's Worker gets (none by default). */
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
  /** A local module path (relative to the manifest), run in a sandboxed Worker. */
  module?: string;
  /** The module export to call (default `default`). */
  export?: string;
  /** Deno permissions of the module tool's Worker. */
  permissions?: ManifestPermissions;
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
}

/** One problem in a manifest. */
export interface ManifestIssue {
  /** The file. */
  file: string;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
  /** JSON Pointer into the document. */
  path: string;
  /** What is wrong. */
  message: string;
}

/** A manifest cannot be used; `issues` lists every problem found. */
export class ManifestError extends ToolFoundationError {
  /** Every problem, in document order. */
  readonly issues: readonly ManifestIssue[];

  /**
   * Creates the error.
   *
   * @param issues The problems.
   * @param options The cause, if any.
   */
  constructor(issues: readonly ManifestIssue[], options?: { cause?: unknown }) {
    super(
      "invalid_manifest",
      issues.map((i) => `${i.file}:${i.line}:${i.column}: ${i.path || "/"}: ${i.message}`).join(
        "\n",
      ),
      options,
    );
    this.issues = issues;
  }
}

/** Options of {@linkcode parseManifest}. */
export interface ParseManifestOptions {
  /** The file name used in messages and to resolve relative paths. */
  path: string;
  /** Directory for relative paths (default: the directory of `path`). */
  dir?: string;
}

let schemaValidator: Promise<import("../model/mod.ts").CompiledSchema> | undefined;

/**
 * Parses and checks manifest text.
 *
 * @example
 * ```ts
 * import { parseManifest } from "@toolfoundation/core/cli";
 *
 * const manifest = await parseManifest(
 *   "version: 1\ntools:\n  - name: add\n    namespace: math\n    builtin: calculate\n",
 *   { path: "/tmp/tools.yaml" },
 * );
 * console.log(manifest.tools.map((t) => t.id)); // [ "math:add" ]
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
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new ManifestError(
      doc.errors.map((e) => {
        const pos = e.linePos?.[0] ?? counter.linePos(e.pos[0]);
        return {
          file,
          line: pos.line,
          column: pos.col,
          path: "",
          message: `YAML syntax error: ${e.message.split("\n")[0]}`,
        };
      }),
      { cause: doc.errors[0] },
    );
  }
  const issues: UnplacedIssue[] = [];
  const keyIssues = new Set<number>();
  const value = doc.toJS({ maxAliasCount: 100 }) as unknown;
  if (!isMap(doc.contents)) {
    issues.push({ path: "", message: "a manifest must be a mapping with `version: 1`" });
  } else {
    schemaValidator ??= new DefaultValidator().compile(manifestSchema);
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
    servers: raw(m.servers) as Record<string, ManifestEndpoint>,
    providers: raw(m.providers) as Record<string, ManifestEndpoint>,
    tools,
    chains: raw(m.chains) as unknown as Record<string, ManifestChain>,
  };
}

/** The directory part of a path, `.` when there is none (never touches the file system). */
export function dirname(path: string): string {
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return cut < 0 ? "." : cut === 0 ? "/" : path.slice(0, cut);
}

/**
 * Reads and checks a manifest file.
 *
 * @param path The file.
 * @returns The checked manifest (relative paths resolve against its directory).
 * @throws {ManifestError} When it cannot be read or is invalid.
 */
export async function loadManifest(path: string): Promise<Manifest> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (cause) {
    throw new ManifestError([{
      file: path,
      line: 1,
      column: 1,
      path: "",
      message: `cannot read the manifest: ${(cause as Error).message}`,
    }], { cause });
  }
  return parseManifest(text, { path });
}
