// Helpers of the upstream tests: calling a tool, reading a fixture's pid file,
// the serve upstream fixture's configuration.

import type { McpServerConfig } from "../../run/mod.ts";
import type { Upstream } from "../../serve/mod.ts";
import { caEnv, ROOT } from "./_helpers.ts";

/** The pids a fake server reports (its own, and the grandchild it forked). */
export type Pids = { pid: number; grandchild?: number };

/** The text of a call result's first content block. */
export function text(result: Record<string, unknown>): string {
  return String((result.content as { text?: string }[])[0].text);
}

/** Calls a tool of the upstream. */
export async function call(
  upstream: Upstream,
  name: string,
  args: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  return await upstream.request("tools/call", { name, arguments: args }, {});
}

/** Waits (up to 10 s) for the pid file a fake server writes. */
export async function readPidFile(file: string): Promise<Pids> {
  for (let i = 0; i < 400; i++) {
    const written = await Deno.readTextFile(file).catch(() => "");
    if (written !== "") return JSON.parse(written);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("the server never wrote its pid file");
}

/** tests/fixtures/serve/upstream.ts over stdio (2025 era: it samples and elicits mid-call). */
export const SERVE_UPSTREAM: McpServerConfig = {
  transport: "stdio",
  command: Deno.execPath(),
  args: ["run", "--quiet", "-A", "tests/fixtures/serve/upstream.ts"],
  cwd: ROOT,
  env: caEnv(),
  protocol: "legacy",
};

/**
 * A call of each kind the SERVE_UPSTREAM fixture answers (every content
 * type, logging, progress, a tool error, an output the schema refuses, a
 * 2 MB result, an unknown tool), for tests that compare two ways of calling it.
 */
export const SERVE_UPSTREAM_CASES: readonly [string, Record<string, unknown>][] = [
  ["test_simple_text", {}],
  ["test_image_content", {}],
  ["test_audio_content", {}],
  ["test_embedded_resource", {}],
  ["test_multiple_content_types", {}],
  ["test_tool_with_logging", {}],
  ["test_tool_with_progress", {}],
  ["test_error_handling", {}],
  ["echo", { text: "hello" }],
  ["bad_output", {}],
  ["huge", { n: 2_000_000 }],
  ["no_such_tool", {}],
];

/** A process below another, with its command line. */
export interface Descendant {
  pid: number;
  args: string;
}

/** Every live process below `root` (children, grandchildren, ...; uses `ps`). */
export async function descendants(root: number): Promise<Descendant[]> {
  const { stdout } = await new Deno.Command("ps", {
    args: ["-e", "-o", "pid=,ppid=,stat=,args="],
    stdout: "piped",
    stderr: "null",
  }).output();
  const children = new Map<number, Descendant[]>();
  for (const line of new TextDecoder().decode(stdout).split("\n")) {
    const [pid, ppid, stat, ...args] = line.trim().split(/\s+/);
    if (pid === undefined || pid === "" || stat.startsWith("Z")) continue;
    const list = children.get(Number(ppid)) ?? [];
    list.push({ pid: Number(pid), args: args.join(" ") });
    children.set(Number(ppid), list);
  }
  const all: Descendant[] = [];
  const stack = [root];
  while (stack.length > 0) {
    for (const child of children.get(stack.pop()!) ?? []) {
      all.push(child);
      stack.push(child.pid);
    }
  }
  return all;
}

/**
 * Waits (up to 30 s) until `root` has at least `servers` fake servers below it,
 * each with the `sleep 600` it forked; returns all of them.
 */
export async function forkedServers(root: number, servers: number): Promise<Descendant[]> {
  for (let i = 0; i < 300; i++) {
    const below = await descendants(root);
    const fakes = below.filter((d) => d.args.includes("mcp_fake_server.ts"));
    const sleeps = below.filter((d) => d.args.endsWith("sleep 600"));
    if (fakes.length >= servers && sleeps.length >= servers) return [...fakes, ...sleeps];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${root} did not start ${servers} forking servers`);
}
