// Private: runStream, a run as an async iterable of events.

import { RunError } from "./errors.ts";
import { classify, linkedSignal } from "./_execute.ts";
import { AsyncQueue } from "./_queue.ts";
import type { Execute } from "./_hooks.ts";
import type { RunOptions } from "./runner_options.ts";
import { serializeError, type StreamEvent } from "./stream.ts";

/** Ends the run of a stream whose consumer stopped reading. */
export class StreamClosedError extends Error {
  constructor() {
    super("the stream consumer stopped reading");
    this.name = "StreamClosedError";
  }
}

function asRunError(error: unknown, toolId: string): RunError {
  if (error instanceof RunError) return error;
  return classify(error, { toolId });
}

export async function* streamRun(
  execute: Execute,
  toolId: string,
  args: Record<string, unknown> | undefined,
  options: RunOptions | undefined,
): AsyncGenerator<StreamEvent, void, undefined> {
  const queue = new AsyncQueue<StreamEvent>();
  const stop = new AbortController();
  const signal = linkedSignal(options?.signal, stop);
  const running = execute(toolId, args, { ...options, signal }, {
    onProgress: (data) => queue.push({ kind: "progress", toolId, data }),
    onChunk: (data) => queue.push({ kind: "chunk", toolId, data }),
  }).then(
    (data) => queue.push({ kind: "done", toolId, data }),
    (error) => {
      const runError = asRunError(error, toolId);
      queue.push({ kind: "error", toolId, data: serializeError(runError), error: runError });
    },
  ).finally(() => queue.end());
  try {
    for await (const event of queue) yield event;
  } finally {
    stop.abort(new StreamClosedError());
    await running;
  }
}
