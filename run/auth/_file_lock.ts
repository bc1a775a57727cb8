// Private: an exclusive lock across processes on a lock file next to a data
// file, held for one read-modify-write. It is an advisory file-system lock
// (flock on Unix, LockFileEx on Windows) on `<path>.lock`: the operating
// system releases it when its holder exits, even when killed, so a crash
// leaves no stale lock behind. The lock file itself is never removed
// (removing it would let two processes lock two different files).

import { AuthError } from "./auth_error.ts";

/** How long a writer waits for another process's lock by default: 10 s. */
export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;

/**
 * Runs `work` while holding the exclusive lock of `lockPath`, waiting with
 * backoff (5 ms doubling to 100 ms) at most `timeoutMs` for it.
 *
 * @throws {AuthError} `auth_failed` when another process holds the lock past the deadline.
 */
export async function withFileLock<T>(
  lockPath: string,
  timeoutMs: number,
  work: () => Promise<T>,
): Promise<T> {
  const file = await Deno.open(lockPath, { read: true, write: true, create: true, mode: 0o600 });
  try {
    const deadline = Date.now() + timeoutMs;
    let wait = 5;
    while (!await file.tryLock(true)) {
      if (Date.now() >= deadline) {
        throw new AuthError(
          "auth_failed",
          `the token store lock ${lockPath} is held by another process for over ${timeoutMs} ms; ` +
            `another toolfoundation command is writing tokens (a crashed one releases the lock ` +
            `when it exits): wait for it, or end it, and try again`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, deadline - Date.now())));
      wait = Math.min(wait * 2, 100);
    }
    try {
      return await work();
    } finally {
      await file.unlock();
    }
  } finally {
    file.close();
  }
}
