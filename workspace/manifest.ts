/**
 * YAML manifests (format version 1): MCP servers, providers, tools, chains
 * and, per module tool, the Deno permissions it may use. A manifest is
 * checked against its own JSON Schema (`workspace/manifest.schema.json`, usable by
 * editors through yaml-language-server) with our validator, then for meaning
 * (duplicate IDs, unknown servers, providers, built-ins and chain tools).
 * Every problem is reported at once, each with file:line:column and a JSON
 * Pointer; nothing runs from an invalid manifest.
 *
 * @module
 */

import type { Document, Node } from "yaml";
import { escapePointerToken } from "../model/json_pointer.ts";
import { ManifestError, type ManifestIssue } from "./errors.ts";
import { checkMeaning, ownRecord, raw, type UnplacedIssue } from "./_manifest_meaning.ts";
import type { Position } from "./_yaml_position.ts";
import { parseYamlSubset, placeOf } from "./_yaml_subset.ts";
import { readCachedManifest, writeCachedManifest } from "./_manifest_cache.ts";
import { decodeManifest, readAtMost, utf8Length } from "./_manifest_bytes.ts";
import {
  configWorkspace,
  isConfigFile,
  stripJsonComments,
  translateConfig,
} from "./config_import.ts";
import type {
  Manifest,
  ManifestChain,
  ManifestEndpoint,
  ManifestServer,
} from "./manifest_types.ts";
import type { ManifestInput } from "./variables.ts";

export type {
  Manifest,
  ManifestAuth,
  ManifestChain,
  ManifestEndpoint,
  ManifestGrant,
  ManifestPermissions,
  ManifestServer,
  ManifestStep,
  ManifestTool,
  ResolvedTool,
  ServerToolOverride,
  StepValue,
} from "./manifest_types.ts";
// Start-up: the manifest schema's check generated at build time (scripts/gen.ts),
// so that a valid manifest loads without a JSON Schema validator.
import { validate as manifestSchemaHolds } from "./_generated/manifest_check.js";

/** The largest manifest accepted by default: 4 MiB, checked before parsing. */
export const DEFAULT_MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

/** The deepest nesting of mappings and sequences accepted by default. */
export const DEFAULT_MAX_MANIFEST_DEPTH = 128;

/** How many alias expansions a manifest may make (YAML "billion laughs" guard). */
export const MAX_MANIFEST_ALIASES = 100;

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
  /** The workspace of a configuration file, for `${workspaceFolder}` (default: its directory's parent). */
  workspace?: string;
  /**
   * Where a manifest outside the YAML subset is kept once parsed, keyed by a
   * hash of its text, so the next start does not parse it again: a folder, or
   * `false` for none. Default: `toolfoundation/manifests` in Deno's cache
   * folder (`DENO_DIR`, else the platform's). Used only when this process may
   * already read and write the folder (never prompts); else skipped silently.
   */
  cache?: string | false;
}

/** Options of {@linkcode loadManifest}. */
export type LoadManifestOptions = Pick<ParseManifestOptions, "maxBytes" | "maxDepth" | "cache">;

// npm:yaml (bundled at build time by scripts/gen.ts: one module, not its
// CommonJS build) and the positions read from its documents load only for a
// manifest outside the subset `parseYamlSubset` reads, or one with problems
// to place: most manifests start without them.
type YamlModule = typeof import("./_generated/yaml.js");
let yaml!: YamlModule;
let positionOf!: typeof import("./_yaml_position.ts").positionOf;
let placedNodes!: typeof import("./_yaml_position.ts").placedNodes;
let yamlLoaded: Promise<void> | undefined;
function loadYaml(): Promise<void> {
  return yamlLoaded ??= Promise.all([
    import("./_generated/yaml.js"),
    import("./_yaml_position.ts"),
  ]).then(([module, position]) => {
    yaml = module;
    positionOf = position.positionOf;
    placedNodes = position.placedNodes;
  });
}

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

/** The first node nested deeper than `max` (iterative), as a JSON Pointer. */
function tooDeep(doc: Document, max: number): string | undefined {
  const stack: Array<{ node: unknown; depth: number; pointer: string }> = [
    { node: doc.contents, depth: 1, pointer: "" },
  ];
  while (stack.length > 0) {
    const { node, depth, pointer } = stack.pop()!;
    if (!yaml.isMap(node) && !yaml.isSeq(node)) continue;
    if (depth > max) return pointer;
    const items = node.items as unknown[];
    items.forEach((item, i) => {
      if (yaml.isMap(node)) {
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
  yaml.visit(doc, {
    Alias(_key, node) {
      if (yaml.isAlias(node)) found = node;
      return yaml.visit.BREAK;
    },
  });
  return found;
}

let schemaValidator: Promise<import("../model/mod.ts").CompiledSchema> | undefined;

/**
 * Parses and checks manifest text.
 *
 * Text in the usual subset of YAML is read by a parser of this package's own,
 * exact against npm:yaml; anything else is parsed by npm:yaml, and that parse
 * is kept in Deno's cache folder (`<DENO_DIR>/toolfoundation/manifests/`)
 * when the process already may read the variables that locate it and read and
 * write it; it never prompts for them (docs/cli.md, "Reading manifests").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseManifest } from "@toolfoundation/core/workspace";
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
  // Most manifests: the subset parser (no I/O), else a parse kept from an earlier run.
  const read = parseYamlSubset(text, maxDepth) ??
    await readCachedManifest(text, maxDepth, options.cache);
  if (read !== undefined) {
    const { root } = read;
    return checkManifest(
      read.value,
      root.entries !== undefined,
      options,
      (pointer, key) => placeOf(root, pointer, key),
    );
  }
  await loadYaml();
  const counter = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, {
    lineCounter: counter,
    uniqueKeys: true,
    prettyErrors: false,
  });
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
  await writeCachedManifest(text, maxDepth, value, placedNodes(doc, counter), options.cache);
  return checkManifest(
    value,
    yaml.isMap(doc.contents),
    options,
    (pointer, key) => positionOf(doc, counter, pointer, key),
  );
}

/**
 * Checks a manifest's value (read by any parser) against the manifest schema
 * and for meaning; `place` gives where a JSON Pointer's node (or with `key`,
 * its key) is in the text.
 */
async function checkManifest(
  read: unknown,
  isMapping: boolean,
  options: ParseManifestOptions,
  place: (pointer: string, key?: boolean) => Position,
): Promise<Manifest> {
  const file = options.path;
  let value = read;
  const issues: UnplacedIssue[] = [];
  const keyIssues = new Set<number>();
  // A Claude, Cursor or VS Code configuration file is read as the manifest it describes.
  let locate = (pointer: string): string => pointer;
  let config: Manifest["config"];
  if (isConfigFile(value)) {
    const translated = translateConfig(
      value,
      options.workspace ?? configWorkspace(options.dir ?? dirname(file)),
    );
    value = translated.manifest;
    locate = translated.pointer;
    config = translated.flavour;
  }
  if (!isMapping) {
    issues.push({ path: "", message: "a manifest must be a mapping with `version: 1`" });
  } else if (!(manifestSchemaHolds as (value: unknown) => boolean)(value)) {
    // Only a manifest the generated check refuses pays for the validator: its
    // answer and messages are the ones reported.
    // The schema itself is read only then too.
    schemaValidator ??= Promise.all([
      import("../model/default_validator.ts"),
      import("./manifest.schema.json", { with: { type: "json" } }),
    ]).then(([{ DefaultValidator }, { default: schema }]) =>
      new DefaultValidator().compile(schema)
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
    ...place(locate(issue.path), keyIssues.has(i)),
    ...issue,
    // A configuration file's problems are named by its own keys (`/mcpServers/x`).
    path: locate(issue.path),
  })).sort((a, b) => a.line - b.line || a.column - b.column);
  if (located.length > 0) throw new ManifestError(located);
  const dir = options.dir ?? dirname(file);
  return {
    path: file,
    dir,
    version: 1,
    servers: ownRecord(m.servers) as Record<string, ManifestServer>,
    providers: ownRecord(m.providers) as Record<string, ManifestEndpoint>,
    tools,
    chains: ownRecord(m.chains) as unknown as Record<string, ManifestChain>,
    inputs: ownRecord(m.inputs) as Record<string, ManifestInput>,
    ...(config === undefined ? {} : { config }),
    locate: (pointer, key) => place(locate(pointer), key),
  };
}

/** The directory part of a path, `.` when there is none (never touches the file system). */
export function dirname(path: string): string {
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return cut < 0 ? "." : cut === 0 ? "/" : path.slice(0, cut);
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
  let text = decodeManifest(bytes, path);
  // JSON files may carry comments and trailing commas (VS Code's do).
  if (/\.json$/i.test(path)) text = stripJsonComments(text);
  return parseManifest(text, { path, ...options });
}
