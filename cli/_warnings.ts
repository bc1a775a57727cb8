// Private: warnings of a command, collected and written once at its end. A
// conversion of many tools warns about the same few things for every tool
// (title dropped, annotations dropped...): by default they are summarised by
// kind with counts, so that the rare warning is not lost among hundreds of
// lines; --verbose lists each, --warnings json writes each as a JSON line.

import { type CliIo, diagnose, jsonText } from "./_io.ts";
import type { Redactor } from "../workspace/secrets.ts";

/** One warning: its kind (what is summarised), what it is about, and the text. */
export interface CliWarning {
  /** The kind, counted in the summary, e.g. `title dropped`. */
  kind: string;
  /** What the warning is about, e.g. a tool ID. */
  subject: string;
  /** The whole warning, as `--verbose` prints it (the subject included). */
  message: string;
  /** Fields of the JSON line (`--warnings json`), e.g. a feature-loss warning's own. */
  detail?: Record<string, unknown>;
}

/** Up to this many warnings are printed in full even without --verbose. */
const IN_FULL = 3;

/** A command's warnings, written by {@linkcode Warnings.flush}. */
export class Warnings {
  readonly #io: CliIo;
  readonly #redactor: Redactor | undefined;
  readonly #items: CliWarning[] = [];

  /** Warnings of a command that writes to `io`. */
  constructor(io: CliIo, redactor?: Redactor) {
    this.#io = io;
    this.#redactor = redactor;
  }

  /** Adds one warning. */
  add(warning: CliWarning): void {
    this.#items.push(warning);
  }

  /** How many warnings were added. */
  get size(): number {
    return this.#items.length;
  }

  /**
   * Writes the warnings on stderr and forgets them: JSON lines with
   * `--warnings json` (also under --quiet: they were asked for), nothing under
   * --quiet, each in full with --verbose or when there are a few, else one
   * summary line of counts by kind.
   */
  flush(): void {
    const items = this.#items.splice(0);
    const io = this.#io;
    if (items.length === 0) return;
    if (io.warnings === "json") {
      for (const w of items) {
        const line = { warning: w.kind, subject: w.subject, ...w.detail, message: w.message };
        io.stderr(`${jsonText(line, this.#redactor)}\n`);
      }
      return;
    }
    if (io.verbosity === "quiet") return;
    if (io.verbosity === "verbose" || items.length <= IN_FULL) {
      for (const w of items) diagnose(io, this.#redactor, "warning", w.message);
      return;
    }
    const counts = new Map<string, number>();
    for (const w of items) counts.set(w.kind, (counts.get(w.kind) ?? 0) + 1);
    const byCount = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    diagnose(
      io,
      this.#redactor,
      "warning",
      `${items.length} warnings: ${byCount.map(([kind, n]) => `${n} × ${kind}`).join(", ")} ` +
        `(--verbose lists each; --warnings json writes them as JSON lines)`,
    );
  }
}
