// Private: the gateway's watch of its upstreams' lists. Started by the first
// listener (a transport that passes changes to its clients), so a gateway
// nobody listens to opens no connection for it; ended by close().

import type { Upstream } from "./upstream.ts";

/** A list whose changes reach the clients. */
export type ListKind = "tools" | "prompts" | "resources";

/** Passes every watched upstream's list changes to the listeners. */
export class ListWatch {
  readonly #upstreams: readonly Upstream[];
  readonly #listeners = new Set<(kind: ListKind) => void>();
  readonly #stop = new AbortController();
  #started = false;

  /** @param upstreams The upstreams to watch (those with `watchLists`). */
  constructor(upstreams: readonly Upstream[]) {
    this.#upstreams = upstreams.filter((u) => u.watchLists !== undefined);
  }

  /** Whether an upstream is watched (it has `watchLists`). */
  watches(upstream: Upstream): boolean {
    return this.#upstreams.includes(upstream);
  }

  /** Adds a listener (starting the watch); returns what removes it. */
  listen(listener: (kind: ListKind) => void): () => void {
    this.#listeners.add(listener);
    if (!this.#started && !this.#stop.signal.aborted) {
      this.#started = true;
      for (const upstream of this.#upstreams) {
        // A watch that fails (at once or later) ends that upstream's watch only.
        void (async () => {
          await upstream.watchLists!((kind) => this.#emit(kind), this.#stop.signal);
        })().catch(() => {});
      }
    }
    return () => void this.#listeners.delete(listener);
  }

  #emit(kind: ListKind): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(kind);
      } catch {
        // One listener's failure is not another's.
      }
    }
  }

  /** Stops watching. */
  close(): void {
    this.#stop.abort();
    this.#listeners.clear();
  }
}
