// Private: one child Deno process running a module tool (see _module_host.ts
// for the protocol). It serves one call at a time and lives until it is
// stopped, it dies, or the parent exits (its stdin then ends).

import { ChannelSplitter } from "./_channel.ts";
import { hostMainUrl } from "./_host.ts";
import { type GroupChild, spawnGroup } from "../process/group.ts";
import { TailBuffer } from "../output/text.ts";
import { deathOf, type HostOutcome } from "./_outcome.ts";

/** What starting a process needs. */
interface ModuleProcessSpec {
  /** The deno executable. */
  deno: string;
  /** Permission and V8 flags. */
  flags: string[];
  /** The child's complete environment. */
  env: Record<string, string>;
  /** The tool module's URL. */
  moduleUrl: string;
  /** The export to call. */
  exportName: string;
  /** Cap of one result, in bytes. */
  maxOutputBytes: number;
  /** Heap limit, for messages. */
  memoryMb: number;
  /** Where the tool's own output goes. */
  onLog: (text: string) => void;
}

function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A running module tool process. */
export class ModuleProcess {
  readonly #child: GroupChild;
  readonly #spec: ModuleProcessSpec;
  readonly #stderrTail = new TailBuffer(4096);
  readonly #pumps: Promise<void>[] = [];
  readonly #encoder = new TextEncoder();
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #ready: Promise<void>;
  readonly #exited: Promise<void>;
  #resolveReady!: () => void;
  #rejectReady!: (outcome: HostOutcome) => void;
  #pending: { id: number; settle: (outcome: HostOutcome) => void } | undefined;
  #onProgress: ((update: unknown) => void) | undefined;
  #nextId = 1;
  #dead = false;
  #stopping = false;
  #lastWords: Record<string, unknown> | undefined;
  #deathReason: HostOutcome | undefined;

  /** Starts the process (it loads the module at once). */
  constructor(spec: ModuleProcessSpec) {
    this.#spec = spec;
    const nonce = randomNonce();
    this.#child = spawnGroup(spec.deno, {
      args: [
        "run",
        "--quiet",
        "--no-prompt",
        ...spec.flags,
        hostMainUrl(spec.moduleUrl),
        nonce,
        spec.exportName,
        String(spec.maxOutputBytes),
      ],
      env: spec.env,
    });
    this.#ready = new Promise((resolve, reject) => {
      this.#resolveReady = resolve;
      this.#rejectReady = reject;
    });
    this.#ready.catch(() => {});
    this.#writer = this.#child.process.stdin.getWriter();
    this.#writer.closed.catch(() => {});
    // One streaming decoder per stream, so a character split across chunks survives.
    const outDecoder = new TextDecoder();
    const errDecoder = new TextDecoder();
    const splitter = new ChannelSplitter(nonce, spec.maxOutputBytes + 4096, {
      message: (json) => this.#onMessage(json),
      log: (bytes) => this.#log(bytes, outDecoder),
      overflow: () => this.#settle({ kind: "too_large" }, true),
    });
    this.#pumps.push(this.#pump(this.#child.process.stdout, (c) => splitter.push(c), () => {
      splitter.end();
    }));
    this.#pumps.push(
      this.#pump(this.#child.process.stderr, (c) => {
        this.#stderrTail.push(c);
        this.#log(c, errDecoder);
      }),
    );
    this.#child.process.status.then((status) => this.#onExit(status));
    this.#exited = this.#child.process.status.then(() => {}, () => {});
  }

  /** Resolves once the process has exited (and was reaped), however it ended. */
  get exited(): Promise<void> {
    return this.#exited;
  }

  /** Whether the process can take no more calls. */
  get dead(): boolean {
    return this.#dead;
  }

  /** Resolves when the module has loaded; rejects with how it failed. */
  get ready(): Promise<void> {
    return this.#ready;
  }

  /** Lets the parent exit while this process idles (or not). */
  setIdle(idle: boolean): void {
    try {
      if (idle) this.#child.process.unref();
      else this.#child.process.ref();
    } catch { /* gone */ }
  }

  /** Runs one call; the promise never rejects (the outcome says what happened). */
  async call(
    toolId: string,
    args: unknown,
    onProgress: (update: unknown) => void,
  ): Promise<HostOutcome> {
    if (this.#dead) return this.#deathReason ?? this.#died("the process is gone");
    const id = this.#nextId++;
    const outcome = new Promise<HostOutcome>((settle) => {
      this.#pending = { id, settle };
    });
    this.#onProgress = onProgress;
    try {
      await this.#writer.write(
        this.#encoder.encode(`${JSON.stringify({ id, toolId, args })}\n`),
      );
    } catch { /* the process died; #onExit settles the call */ }
    return await outcome;
  }

  /** Stops the process group (SIGTERM, then SIGKILL). */
  async stop(graceMs = 500): Promise<void> {
    this.#stopping = true;
    this.#dead = true;
    this.#rejectReady(this.#died("it was stopped"));
    // A call still running gets its outcome now: only closing the handler stops a busy
    // process without giving up on its call first.
    this.#settle(this.#died("its handler was closed while the call ran"));
    try {
      await this.#writer.close();
    } catch { /* already closed */ }
    await this.#child.stop(graceMs);
    await Promise.race([Promise.all(this.#pumps), new Promise((r) => setTimeout(r, 200))]);
  }

  #log(bytes: Uint8Array, decoder: TextDecoder): void {
    try {
      const text = decoder.decode(bytes, { stream: true });
      if (text !== "") this.#spec.onLog(text);
    } catch { /* a log sink that fails must not break the call */ }
  }

  async #pump(
    stream: ReadableStream<Uint8Array>,
    take: (chunk: Uint8Array) => void,
    end?: () => void,
  ): Promise<void> {
    try {
      for await (const chunk of stream) take(chunk);
    } catch { /* closed */ }
    end?.();
  }

  #onMessage(json: string): void {
    let m: Record<string, unknown>;
    try {
      m = JSON.parse(json);
    } catch {
      return;
    }
    switch (m.type) {
      case "ready":
        this.#resolveReady();
        return;
      case "progress":
        if (this.#pending?.id === m.id) this.#onProgress?.(m.update);
        return;
      case "result":
        if (this.#pending?.id === m.id) this.#settle({ kind: "result", value: m.value });
        return;
      case "too_large":
        if (this.#pending?.id === m.id) {
          this.#settle({ kind: "too_large", bytes: m.bytes as number });
        }
        return;
      case "error":
        if (this.#pending?.id === m.id) {
          this.#settle({
            kind: "error",
            name: String(m.name),
            message: String(m.message),
            stack: m.stack as string | undefined,
            denied: m.denied as { name: string; value?: string } | undefined,
            unserializable: m.unserializable === true,
          });
        }
        return;
      default: // exit, uncaught, fatal: the process is about to end
        this.#lastWords = m;
    }
  }

  #settle(outcome: HostOutcome, kill = false): void {
    const pending = this.#pending;
    this.#pending = undefined;
    this.#onProgress = undefined;
    if (kill) void this.stop(0);
    if (pending !== undefined) pending.settle(outcome);
  }

  #died(reason: string, oom = false): HostOutcome {
    return { kind: "died", reason, oom, stderr: this.#stderrTail.text() };
  }

  async #onExit(status: Deno.CommandStatus): Promise<void> {
    this.#dead = true;
    // Let the last messages (exit, uncaught) and stderr arrive, without waiting on a
    // grandchild that may hold the pipes open.
    await Promise.race([Promise.all(this.#pumps), new Promise((r) => setTimeout(r, 250))]);
    const death = deathOf(this.#lastWords, this.#stderrTail.text(), status, this.#spec.memoryMb);
    const outcome = this.#died(death.reason, death.oom);
    this.#deathReason = outcome;
    if (this.#stopping) return;
    this.#rejectReady(outcome);
    this.#settle(outcome);
  }
}
