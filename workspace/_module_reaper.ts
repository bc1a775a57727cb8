// Private: no module tool process outlives the CLI. Every running process
// group is tracked; if the parent exits while some run (Deno.exit after a
// timeout), each is killed on `unload`.

import type { GroupChild } from "../run/process/group.ts";

const live = new Set<GroupChild>();
let unloadHooked = false;

// If the parent exits while children run (Deno.exit after a timeout), none may outlive it.
function hookUnload(): void {
  if (unloadHooked) return;
  unloadHooked = true;
  globalThis.addEventListener("unload", () => {
    for (const child of live) {
      try {
        Deno.kill(-child.process.pid, "SIGKILL");
      } catch {
        try {
          child.process.kill("SIGKILL");
        } catch { /* gone */ }
      }
    }
  });
}

/** Tracks a started process group until {@linkcode untrack}. */
export function trackForUnload(child: GroupChild): void {
  hookUnload();
  live.add(child);
}

/** Stops tracking a process group (it exited or was stopped). */
export function untrack(child: GroupChild): void {
  live.delete(child);
}
