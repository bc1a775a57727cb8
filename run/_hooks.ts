// Private: the shape of the runner's internal pipeline, shared with the stream and chain helpers.

import type { ProgressUpdate } from "./local.ts";
import type { RunResult } from "./result.ts";
import type { RunOptions } from "./runner_options.ts";

/** Progress and chunk hooks of one execution. */
export interface RunHooks {
  onProgress?: (update: ProgressUpdate) => void;
  onChunk?: (chunk: unknown) => void;
}

/** The runner's pipeline. */
export type Execute = (
  toolId: string,
  args: Record<string, unknown> | undefined,
  options: RunOptions | undefined,
  hooks: RunHooks | undefined,
) => Promise<RunResult>;
