/**
 * The MCP configuration files users already have, read as manifests: Claude
 * Desktop and Claude Code (`mcpServers`, e.g. `.mcp.json`), Cursor
 * (`mcpServers`, `.cursor/mcp.json`) and VS Code (`servers` with `inputs`,
 * `.vscode/mcp.json`, or `mcp.servers` in `settings.json`). Each server keeps
 * its type (stdio, http, sse), command, arguments, environment, URL and
 * headers; the variable forms of those tools become the manifest's:
 * `${VAR}` → `${env:VAR}`, `${VAR:-default}` → `${env:VAR:-default}`,
 * `${env:NAME}` and `${input:ID}` as they are (VS Code `inputs` become the
 * manifest's `inputs`), `${workspaceFolder}` → the workspace folder as an
 * absolute path (see {@linkcode configWorkspace}), `${userHome}` → `${env:HOME}`.
 *
 * @module
 */

import { unescapePointerToken } from "../model/json_pointer.ts";

/** Which tool's format a configuration file is in. */
export type ConfigFlavour = "claude" | "vscode";

/** A configuration file translated into a manifest value. */
export interface TranslatedConfig {
  /** The format. */
  flavour: ConfigFlavour;
  /** The manifest value (`version: 1`, `servers`, maybe `inputs`). */
  manifest: Record<string, unknown>;
  /** Maps a JSON Pointer into the manifest back into the configuration file. */
  pointer: (manifestPointer: string) => string;
  /** Notes about what was changed on the way (for comments and warnings). */
  notes: string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Whether a parsed document is a configuration file rather than a manifest:
 * no `version`, and `mcpServers`, `servers` or `mcp.servers` at the top.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isConfigFile } from "./config_import.ts";
 *
 * assert.equal(isConfigFile({ mcpServers: {} }), true);
 * assert.equal(isConfigFile({ version: 1, servers: {} }), false);
 * ```
 *
 * @param value The parsed document.
 * @returns Whether to translate it.
 */
export function isConfigFile(value: unknown): boolean {
  if (!isRecord(value) || Object.hasOwn(value, "version")) return false;
  return isRecord(value.mcpServers) || isRecord(value.servers) ||
    (isRecord(value.mcp) && isRecord(value.mcp.servers));
}

/**
 * The workspace folder of a configuration file in `dir`, as an absolute path:
 * the folder that holds `.vscode` or `.cursor` (any dot-folder: the tools keep
 * their project settings in one), else `dir` itself (`.mcp.json` sits in the
 * project). A relative `dir` is taken from `cwd`; a relative workspace would
 * mean another folder to every server started elsewhere.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { configWorkspace } from "./config_import.ts";
 *
 * assert.equal(configWorkspace(".vscode", "/work/app"), "/work/app");
 * assert.equal(configWorkspace("/work/app/.cursor", "/elsewhere"), "/work/app");
 * assert.equal(configWorkspace("../app", "/work/tools"), "/work/app");
 * assert.equal(configWorkspace(".", "/work/app"), "/work/app");
 * ```
 *
 * @param dir The configuration file's folder.
 * @param cwd The current directory (default `Deno.cwd()`).
 * @returns The workspace folder, absolute.
 */
export function configWorkspace(dir: string, cwd: string = Deno.cwd()): string {
  const absolute = dir.startsWith("/") || /^[A-Za-z]:[\\/]/.test(dir);
  const parts: string[] = [];
  for (const part of (absolute ? dir : `${cwd}/${dir}`).split(/[\\/]/)) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  const base = parts.at(-1) ?? "";
  if (base.startsWith(".")) parts.pop();
  const root = /^[A-Za-z]:$/.test(parts[0] ?? "") ? "" : "/";
  return root + parts.join("/") || "/";
}

/** `${VAR}` and `${VAR:-default}` → `${env:...}`; `${workspaceFolder}` → the directory. */
function translateString(text: string, workspace: string, notes: Set<string>): string {
  return text.replace(/\$\{([^}]*)\}/g, (whole, inner: string) => {
    if (/^(env|input):/.test(inner)) return whole;
    if (inner === "workspaceFolder") {
      notes.add(`\${workspaceFolder} is ${workspace}`);
      return workspace;
    }
    if (inner === "workspaceFolderBasename") {
      return workspace.split("/").filter(Boolean).pop() ?? workspace;
    }
    if (inner === "pathSeparator" || inner === "/") return "/";
    // VS Code's and Cursor's home folder; a plain ${userHome} would read a variable `userHome`.
    if (inner === "userHome") return "${env:HOME}";
    const plain = /^([A-Za-z_][A-Za-z0-9_]*)(:-[^}]*)?$/.exec(inner);
    if (plain) return `\${env:${plain[1]}${plain[2] ?? ""}}`;
    return whole; // reported as an unknown placeholder by the manifest check
  });
}

function translateValue(value: unknown, workspace: string, notes: Set<string>): unknown {
  if (typeof value === "string") return translateString(value, workspace, notes);
  if (Array.isArray(value)) return value.map((v) => translateValue(v, workspace, notes));
  if (isRecord(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, translateValue(v, workspace, notes)]),
    );
  }
  return value;
}

/** Keys of a configured server that the manifest takes over as they are. */
const KEPT = ["command", "args", "env", "cwd", "url", "headers"] as const;

/**
 * Translates a configuration file into a manifest value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { translateConfig } from "./config_import.ts";
 *
 * const { manifest, pointer } = translateConfig({
 *   mcpServers: { api: { type: "http", url: "${API_URL:-http://127.0.0.1:3001/mcp}" } },
 * }, "/work");
 * assert.deepEqual({ ...manifest.servers as object }, {
 *   api: { type: "http", url: "${env:API_URL:-http://127.0.0.1:3001/mcp}" },
 * });
 * assert.equal(pointer("/servers/api/url"), "/mcpServers/api/url");
 * ```
 *
 * @param value The parsed configuration file.
 * @param workspace The workspace directory (for `${workspaceFolder}`).
 * @returns The manifest value and how to map locations back.
 */
export function translateConfig(value: unknown, workspace: string): TranslatedConfig {
  const doc = isRecord(value) ? value : {};
  let prefix: string;
  let servers: unknown;
  let flavour: ConfigFlavour;
  if (isRecord(doc.mcpServers)) {
    [prefix, servers, flavour] = ["/mcpServers", doc.mcpServers, "claude"];
  } else if (isRecord(doc.servers)) {
    [prefix, servers, flavour] = ["/servers", doc.servers, "vscode"];
  } else {[prefix, servers, flavour] = [
      "/mcp/servers",
      (doc.mcp as Record<string, unknown>)?.servers,
      "vscode",
    ];}
  const notes = new Set<string>();
  const out: Record<string, unknown> = Object.create(null);
  for (const [name, raw] of Object.entries(isRecord(servers) ? servers : {})) {
    if (!isRecord(raw)) {
      out[name] = raw;
      continue;
    }
    const server: Record<string, unknown> = {};
    const type = raw.type;
    if (type === "sse" || type === "http") server.type = type;
    else if (type === "streamable-http" || type === "streamableHttp") server.type = "http";
    else if (type !== undefined && type !== "stdio") server.type = type; // the schema reports it
    for (const key of KEPT) {
      if (raw[key] !== undefined) server[key] = translateValue(raw[key], workspace, notes);
    }
    if (raw.disabled === true) {
      notes.add(`server ${JSON.stringify(name)} is disabled in the configuration; imported anyway`);
    }
    for (const key of Object.keys(raw)) {
      if (!["type", "disabled", "envFile", ...KEPT].includes(key)) {
        notes.add(`server ${JSON.stringify(name)}: ${JSON.stringify(key)} is not used`);
      }
    }
    if (raw.envFile !== undefined) {
      notes.add(`server ${JSON.stringify(name)}: envFile is not read; put the variables in env`);
    }
    out[name] = server;
  }
  const manifest: Record<string, unknown> = { version: 1, servers: out };
  const inputs = flavour === "vscode"
    ? (prefix === "/servers" ? doc.inputs : (doc.mcp as Record<string, unknown>).inputs)
    : undefined;
  const inputsPrefix = prefix === "/servers" ? "/inputs" : "/mcp/inputs";
  const ids: string[] = [];
  if (Array.isArray(inputs)) {
    const declared: Record<string, unknown> = {};
    for (const input of inputs) {
      if (!isRecord(input) || typeof input.id !== "string") continue;
      ids.push(input.id);
      declared[input.id] = {
        ...(typeof input.description === "string" ? { description: input.description } : {}),
        ...(input.password === true ? { password: true } : {}),
      };
    }
    manifest.inputs = declared;
  }
  return {
    flavour,
    manifest,
    notes: [...notes],
    pointer: (p) => {
      if (p.startsWith("/servers")) return prefix + p.slice("/servers".length);
      const m = /^\/inputs\/([^/]*)(.*)$/.exec(p);
      if (m) {
        const i = ids.indexOf(unescapePointerToken(m[1]));
        return i < 0 ? inputsPrefix : `${inputsPrefix}/${i}`;
      }
      return p === "" ? "" : prefix;
    },
  };
}

/**
 * Removes `//` and `/* *\/` comments and trailing commas from JSON text (VS
 * Code's files are JSON with comments), keeping every line and column.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stripJsonComments } from "./config_import.ts";
 *
 * assert.deepEqual(JSON.parse(stripJsonComments('{"a": 1, // one\n}')), { a: 1 });
 * ```
 *
 * @param text JSON with comments.
 * @returns Plain JSON of the same shape and layout.
 */
export function stripJsonComments(text: string): string {
  const out = text.split("");
  let i = 0;
  let lastComma = -1;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      lastComma = -1;
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      i++;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") out[i++] = " ";
    } else if (c === "/" && text[i + 1] === "*") {
      out[i++] = " ";
      out[i++] = " ";
      while (i < text.length && !(text[i] === "*" && text[i + 1] === "/")) {
        if (text[i] !== "\n") out[i] = " ";
        i++;
      }
      if (i < text.length) out[i++] = " ";
      if (i < text.length) out[i++] = " ";
    } else {
      if (c === ",") lastComma = i;
      else if ((c === "}" || c === "]") && lastComma >= 0) {
        out[lastComma] = " ";
        lastComma = -1;
      } else if (!/\s/.test(c)) lastComma = -1;
      i++;
    }
  }
  return out.join("");
}
