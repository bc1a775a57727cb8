// Private: the flags of `serve --http` that bound what clients may hold: the
// per-principal request rate (--max-rate N/WINDOW) and, with --sessions, the
// per-principal session quota, the idle expiry and the event bytes kept. Bad
// values are usage errors (exit 2), named with the flag and an example.

import { UsageError } from "../../workspace/errors.ts";
import type { RateLimit } from "../../serve/mod.ts";
import { DEFAULT_STATE_LIMITS, type StateLimits } from "../../serve/state/store.ts";

/** The flags, as parsed (strings). */
export interface LimitFlags {
  "max-rate"?: string;
  "max-sessions-per-principal"?: string;
  "session-idle"?: string;
  "max-event-bytes"?: string;
  "max-event-bytes-total"?: string;
}

/** The option entries of {@linkcode LimitFlags} for `parseArgs`. */
export const LIMIT_OPTIONS = {
  "max-rate": { type: "string" },
  "max-sessions-per-principal": { type: "string" },
  "session-idle": { type: "string" },
  "max-event-bytes": { type: "string" },
  "max-event-bytes-total": { type: "string" },
} as const;

const SESSION_FLAGS = [
  "max-sessions-per-principal",
  "session-idle",
  "max-event-bytes",
  "max-event-bytes-total",
] as const;

const UNITS: Record<string, number> = { "": 1, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
/** The longest duration accepted: 30 days. */
const MAX_DURATION_MS = 30 * 24 * 3_600_000;

/** A duration: `500ms`, `60s`, `15m`, `1h`, or bare milliseconds. */
function duration(flag: string, value: string): number {
  const match = /^([0-9]{1,12})(ms|s|m|h)?$/.exec(value.trim());
  const ms = match === null ? NaN : Number(match[1]) * UNITS[match[2] ?? ""];
  if (!Number.isSafeInteger(ms) || ms < 1 || ms > MAX_DURATION_MS) {
    throw new UsageError(
      `${flag} must be a duration from 1ms to 30 days such as 500ms, 60s, 15m or 1h ` +
        `(bare numbers are milliseconds), got ${JSON.stringify(value)}`,
    );
  }
  return ms;
}

function whole(flag: string, value: string): number {
  const n = /^[0-9]{1,16}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new UsageError(`${flag} must be a positive whole number, got ${JSON.stringify(value)}`);
  }
  return n;
}

/** `--max-rate N/WINDOW`, e.g. `600/60s`. */
export function parseRate(value: string): RateLimit {
  const at = value.indexOf("/");
  if (at <= 0) {
    throw new UsageError(
      `--max-rate must be REQUESTS/WINDOW such as 600/60s, got ${JSON.stringify(value)}`,
    );
  }
  return {
    requests: whole("--max-rate (requests)", value.slice(0, at)),
    windowMs: duration("--max-rate (window)", value.slice(at + 1)),
  };
}

/**
 * The limits the flags ask for, defaults filled in (the rate `undefined`
 * when not given: the handler's default).
 *
 * @throws {UsageError} for a malformed value, a session flag without
 *   `--sessions`, or per-session event bytes above the total.
 */
export function limitsOf(
  flags: LimitFlags,
  mode: { http: boolean; sessions: boolean },
): { state: StateLimits; rate: RateLimit | undefined } {
  if (!mode.http) {
    for (const flag of ["max-rate", ...SESSION_FLAGS] as const) {
      if (flags[flag] !== undefined) throw new UsageError(`--${flag} applies to --http only`);
    }
  }
  if (!mode.sessions) {
    for (const flag of SESSION_FLAGS) {
      if (flags[flag] !== undefined) {
        throw new UsageError(`--${flag} applies to sessions only: add --sessions`);
      }
    }
  }
  const get = (flag: keyof LimitFlags, parse: (f: string, v: string) => number, fallback: number) =>
    flags[flag] === undefined ? fallback : parse(`--${flag}`, flags[flag]!);
  const state: StateLimits = {
    sessionsPerPrincipal: get(
      "max-sessions-per-principal",
      whole,
      DEFAULT_STATE_LIMITS.sessionsPerPrincipal,
    ),
    sessionIdleMs: get("session-idle", duration, DEFAULT_STATE_LIMITS.sessionIdleMs),
    eventBytesPerSession: get("max-event-bytes", whole, DEFAULT_STATE_LIMITS.eventBytesPerSession),
    eventBytesTotal: get("max-event-bytes-total", whole, DEFAULT_STATE_LIMITS.eventBytesTotal),
  };
  if (state.eventBytesPerSession > state.eventBytesTotal) {
    throw new UsageError(
      `--max-event-bytes (${state.eventBytesPerSession}) is above --max-event-bytes-total ` +
        `(${state.eventBytesTotal}); lower the one or raise the other`,
    );
  }
  return {
    state,
    rate: flags["max-rate"] === undefined ? undefined : parseRate(flags["max-rate"]),
  };
}
