/**
 * Chains: steps run one after the other, each optionally receiving the
 * previous step's structured result as `args.previous`.
 *
 * @module
 */

import type { RunError } from "./errors.ts";
import type { RunResult } from "./result.ts";
import type { ProgressUpdate } from "./local.ts";
import type { SerializedError } from "./stream.ts";

/** Options of a chain. */
export interface ChainOptions {
  /** Aborting it cancels the running step and stops the chain. */
  signal?: AbortSignal;
  /** Per-step deadline in milliseconds, unless a step sets its own. */
  timeoutMs?: number;
}

/** One step of a chain. */
export interface ChainStep {
  /** The tool to run. */
  toolId: string;
  /** A name later steps may use in references (`{ $from: "steps/<id>/..." }`). */
  id?: string;
  /**
   * Its arguments (never mutated). Any value may be a reference to the chain
   * input or an earlier step's result: `{ $from: "input/x" }`,
   * `{ $from: "steps/0/a/b" }` (see `chain_pointer.ts`).
   */
  args?: Record<string, unknown>;
  /** Put the previous step's `structured` result into `args.previous` (on a copy). */
  usePrevious?: boolean;
  /** A deadline for this step, overriding the chain's per-step default. */
  timeoutMs?: number;
}

/** Options of a chain run beyond `ChainOptions`: its input. */
export interface ChainInputOptions {
  /** The chain's input, for `{ $from: "input/..." }` references. */
  input?: unknown;
}

/** What happened to one step. */
export interface ChainStepResult {
  /** The step's position, from 0. */
  index: number;
  /** The tool ID. */
  toolId: string;
  /** The arguments the step actually ran with (including `previous`). */
  args: Record<string, unknown>;
  /** The result, when the step succeeded. */
  result?: RunResult;
  /** The error, when the step failed. */
  error?: RunError;
}

/** A step that did not run because an earlier one failed. */
export interface ChainStepNotRun {
  /** The step's position, from 0. */
  index: number;
  /** The tool ID. */
  toolId: string;
}

/**
 * The outcome of a chain: every step that ran, the failing one included, and
 * the steps that never ran. A failed chain says which step failed (`failed`:
 * index, tool, error), what the steps before it returned (`steps`), and what
 * was not run (`notRun`).
 */
export interface ChainResult {
  /** `true` when every step succeeded. */
  ok: boolean;
  /** Every step that ran, in order; when `ok` is false the last one failed. */
  steps: ChainStepResult[];
  /** The failing step, when there is one. */
  failed?: ChainStepResult;
  /** The steps after the failing one, which did not run (empty when `ok`). */
  notRun: ChainStepNotRun[];
  /** The last successful step's structured result (`undefined` when none succeeded). */
  structured?: unknown;
}

/** One event of `Runner.runChainStream`. */
export type ChainStreamEvent =
  | {
    /** A step is about to run. */
    kind: "step_started";
    /** The step index. */
    index: number;
    /** The step's tool ID. */
    toolId: string;
    /** The arguments it runs with. */
    data: { args: Record<string, unknown> };
  }
  | {
    /** Progress of the running step. */
    kind: "progress";
    /** The step index. */
    index: number;
    /** The step's tool ID. */
    toolId: string;
    /** The report. */
    data: ProgressUpdate;
  }
  | {
    /** A chunk of the running step. */
    kind: "chunk";
    /** The step index. */
    index: number;
    /** The step's tool ID. */
    toolId: string;
    /** The chunk. */
    data: unknown;
  }
  | {
    /** A step finished (successfully or not). */
    kind: "step_finished";
    /** The step index. */
    index: number;
    /** The step's tool ID. */
    toolId: string;
    /** What happened. */
    data: ChainStepResult;
  }
  | {
    /** Every step succeeded; always the last event. */
    kind: "done";
    /** The last step's index. */
    index: number;
    /** The last step's tool ID. */
    toolId: string;
    /** The chain result. */
    data: ChainResult;
  }
  | {
    /** A step failed; always the last event. */
    kind: "error";
    /** The failing step's index. */
    index: number;
    /** The failing step's tool ID. */
    toolId: string;
    /** The error, serializable. */
    data: SerializedError;
    /** The chain result so far, the failing step included. */
    chain: ChainResult;
  };
