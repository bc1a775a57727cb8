// Private: the program a module tool's child Deno process runs. It is plain
// JavaScript kept as text, so a compiled binary (whose own files a separate
// `deno` cannot read) can still hand it to the child as a `data:` URL.
//
// Protocol. Requests arrive on stdin, one JSON object a line:
// `{"id":1,"toolId":"x","args":{...}}`. Messages leave on stdout as lines
// `<nonce> <json>`, each preceded by a newline so that a partial line the tool
// wrote itself cannot swallow them. The nonce is random per process: anything
// else on stdout (the tool's `console.log`, `Deno.stdout` writes) is not a
// message, and the parent passes it on as the tool's log (stderr).
//
// Messages: ready {exports}; result {id, value}; error {id, name, message,
// stack, denied?, unserializable?}; too_large {id, bytes}; progress {id,
// update}; exit {code} (the tool called Deno.exit); uncaught {kind, name,
// message}; fatal {message} (the export is missing).

const HOST = String.raw`
const [NONCE, EXPORT, CAP_TEXT] = Deno.args;
const CAP = Number(CAP_TEXT);
const encoder = new TextEncoder();
const out = Deno.stdout;
const writeSync = out.writeSync.bind(out);
const realExit = Deno.exit.bind(Deno);
const NotCapable = Deno.errors.NotCapable;
const query = Deno.permissions.querySync.bind(Deno.permissions);

function sendText(text) {
  const bytes = encoder.encode("\n" + NONCE + " " + text + "\n");
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(bytes.subarray(offset));
}
function send(message) {
  sendText(JSON.stringify(message));
}
function text(value, fallback) {
  try {
    return value === undefined || value === null ? fallback : String(value);
  } catch {
    return fallback;
  }
}
const KINDS = { read: "path", write: "path", net: "host", env: "variable", run: "command", ffi: "path", import: "host", sys: "kind" };
// A real sandbox denial: Deno's own message, for something this process is in fact not granted.
// A refused remote import is a TypeError (the import's failure) with Deno's message.
function denial(error) {
  const importing = error instanceof TypeError && /^Requires import access/.test(text(error.message, ""));
  if (!(error instanceof NotCapable) && !importing) return undefined;
  const m = /^Requires (\w+) access(?: to "([^"]*)")?/.exec(text(error.message, ""));
  if (m === null || !Object.hasOwn(KINDS, m[1])) return undefined;
  const descriptor = { name: m[1] };
  if (m[2] !== undefined) descriptor[KINDS[m[1]]] = m[2];
  try {
    if (query(descriptor).state === "granted") return undefined;
  } catch {
    return undefined;
  }
  return { name: m[1], value: m[2] };
}
function describe(error) {
  return {
    name: text(error?.name, "Error"),
    message: text(error?.message ?? error, "(no message)"),
    stack: text(error?.stack, undefined),
    denied: denial(error),
  };
}
function fail(kind, error) {
  try {
    send({ type: "uncaught", kind, ...describe(error) });
  } finally {
    realExit(70);
  }
}
globalThis.addEventListener("error", (event) => {
  event.preventDefault();
  fail("uncaught error", event.error ?? event.message);
});
globalThis.addEventListener("unhandledrejection", (event) => {
  event.preventDefault();
  fail("unhandled promise rejection", event.reason);
});
Deno.exit = (code) => {
  try {
    send({ type: "exit", code: typeof code === "number" ? code : (Deno.exitCode ?? 0) });
  } finally {
    realExit(code);
  }
};

function byteLength(json) {
  return json.length * 3 <= CAP ? json.length : encoder.encode(json).length;
}

async function handle(fn, request) {
  const id = request.id;
  const ctx = {
    toolId: request.toolId,
    progress(update) {
      try {
        send({ type: "progress", id, update });
      } catch { /* not representable as JSON: dropped */ }
    },
  };
  let value;
  try {
    value = await fn(request.args, ctx);
  } catch (error) {
    send({ type: "error", id, ...describe(error) });
    return;
  }
  let json;
  try {
    json = JSON.stringify(value === undefined ? null : value) ?? "null";
  } catch (error) {
    send({ type: "error", id, unserializable: true, ...describe(error) });
    return;
  }
  const bytes = byteLength(json);
  if (bytes > CAP) send({ type: "too_large", id, bytes });
  else sendText('{"type":"result","id":' + id + ',"value":' + json + "}");
}

export async function serve(mod) {
  const fn = mod[EXPORT];
  if (typeof fn !== "function") {
    const names = Object.keys(mod).map((n) => JSON.stringify(n)).join(", ") || "none";
    send({ type: "fatal", message: "the module has no function export " + JSON.stringify(EXPORT) + " (its exports: " + names + ")" });
    realExit(71);
  }
  send({ type: "ready" });
  const decoder = new TextDecoder();
  let buffer = "";
  // Calls run one after another, while stdin stays read: the pending read keeps
  // this process alive when a tool awaits a promise that nothing will settle.
  let queue = Promise.resolve();
  for await (const chunk of Deno.stdin.readable) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line.trim() !== "") {
        const request = JSON.parse(line);
        queue = queue.then(() => handle(fn, request));
      }
    }
  }
  realExit(0);
}
`;

function dataUrl(source: string): string {
  const bytes = new TextEncoder().encode(source);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return `data:text/javascript;base64,${btoa(binary)}`;
}

const HOST_URL = dataUrl(HOST);

/**
 * The main module of a module tool's child process: the host first (so its
 * `Deno.exit` wrapper and error listeners are in place before the tool's
 * top-level code runs), then the tool's module, statically (a static import of
 * a local file needs no read permission; a dynamic one would).
 */
export function hostMainUrl(moduleUrl: string): string {
  return dataUrl(
    `import { serve } from ${JSON.stringify(HOST_URL)};\n` +
      `import * as mod from ${JSON.stringify(moduleUrl)};\n` +
      `await serve(mod);\n`,
  );
}

/** The main module of a load check: imports the module and reports its exports' types. */
export function probeMainUrl(moduleUrl: string): string {
  return dataUrl(
    `import * as mod from ${JSON.stringify(moduleUrl)};\n` +
      `const [nonce] = Deno.args;\n` +
      `const types = Object.fromEntries(Object.keys(mod).map((k) => [k, typeof mod[k]]));\n` +
      `console.log("\\n" + nonce + " " + JSON.stringify({ type: "exports", types }));\n` +
      `Deno.exit(0);\n`,
  );
}
