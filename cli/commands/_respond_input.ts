// Private: the response `respond` reads on stdin, checked to be of the --format given
// before its calls are read. A response of another provider format, a provider's error
// body, or no provider response at all is a usage error naming what it is and what to
// pass: read as given it would have "no tool calls", and an agent loop would drop them.

import {
  describeValue,
  type DetectedResponse,
  FORMAT_SHAPES,
  FORMAT_TITLES,
  identifyResponse,
  IncompleteCallError,
  IncompleteStreamError,
  InvalidResponseError,
  InvalidStreamEventError,
  type LoopFormat,
  parseSse,
  ProviderErrorResponseError,
  type ReadCallsOptions,
  readToolCalls,
  streamToolCalls,
  type ToolCall,
  WrongFormatError,
} from "../../loop/mod.ts";
import type { CliIo } from "../_io.ts";
import { UsageError } from "../../workspace/errors.ts";

/** The largest response read from stdin (the manifest's default cap). */
const MAX_INPUT_CHARS = 4 * 1024 * 1024;

/**
 * What to run instead, for a response or event of another kind than expected;
 * `stream`: whether --stream was given.
 */
function advice(found: DetectedResponse, format: LoopFormat, stream: boolean): string {
  if (found.kind === "error") {
    return `${found.message === undefined ? "" : `: ${JSON.stringify(found.message)}`}; ` +
      "the model request failed, so there are no tool calls to run";
  }
  const wanted = found.format ?? format;
  if (found.kind === "stream_event" && found.format === "gemini") {
    return `; request the stream with alt=sse and run respond --format gemini --stream`;
  }
  const asStream = found.kind === "stream_event" || (stream && wanted === "gemini");
  return `; run respond --format ${wanted}${
    asStream ? " --stream" : stream ? " without --stream" : ""
  }`;
}

function refuse(
  where: string,
  found: DetectedResponse,
  format: LoopFormat,
  stream: boolean,
): never {
  throw new UsageError(`${where} is ${found.description}${advice(found, format, stream)}`);
}

/**
 * The calls of a whole response. One recognisably of another kind or format is
 * refused; one not recognised at all is read only when the reader finds calls in
 * it (an item type this does not know yet): with none, or when the reader
 * refuses it, it is no provider response.
 */
function readWhole(response: unknown, format: LoopFormat, options: ReadCallsOptions): ToolCall[] {
  const found = identifyResponse(response);
  if (found !== undefined && (found.kind !== "response" || found.format !== format)) {
    refuse("the response on stdin", found, format, false);
  }
  let calls: ToolCall[] = [];
  let problem: InvalidResponseError | undefined;
  try {
    calls = readToolCalls(format, response, options);
  } catch (error) {
    if (found !== undefined || !(error instanceof InvalidResponseError)) throw error;
    problem = error;
  }
  if (found === undefined && calls.length === 0) {
    throw new UsageError(
      `the response on stdin is not ${FORMAT_SHAPES[format]}: it is ${describeValue(response)}${
        problem === undefined ? "" : ` (${problem.message})`
      }; pipe the model's whole response into respond --format ${format}`,
      { cause: problem },
    );
  }
  return calls;
}

/** Whether text is a server-sent-event stream rather than JSON. */
function looksLikeSse(text: string): boolean {
  return /^(data|event|id|retry)[ \t]*:|^:/m.test(text.trimStart());
}

async function readStream(
  text: string,
  format: LoopFormat,
  options: ReadCallsOptions,
): Promise<ToolCall[]> {
  let count = 0;
  let first: unknown;
  let own = false;
  async function* events(): AsyncGenerator<unknown> {
    for await (const data of parseSse([text])) {
      let event: unknown = data;
      try {
        event = JSON.parse(data);
      } catch { /* the accumulator says it is not JSON */ }
      if (count++ === 0) first = event;
      const found = identifyResponse(event);
      if (found?.format === format && (found.kind === "stream_event" || format === "gemini")) {
        own = true;
      }
      yield event;
    }
  }
  const calls: ToolCall[] = [];
  try {
    for await (const call of streamToolCalls(format, events(), options)) calls.push(call);
  } catch (error) {
    if (error instanceof WrongFormatError || error instanceof ProviderErrorResponseError) {
      refuse(`the stream on stdin: event ${count - 1}`, error.found, format, true);
    }
    throw error;
  }
  if (count === 0) {
    let found: string | undefined;
    try {
      const value = JSON.parse(text);
      const what = identifyResponse(value);
      found = what === undefined
        ? describeValue(value)
        : `${what.description}${advice(what, format, true)}`;
    } catch { /* neither events nor JSON */ }
    throw new UsageError(
      `stdin has no server-sent events (no "data:" lines)${
        text.trim() === "" ? ": it is empty" : found === undefined ? "" : `; it is ${found}`
      }`,
    );
  }
  if (!own) {
    const what = identifyResponse(first);
    throw new UsageError(
      `the stream on stdin has no ${FORMAT_TITLES[format]} stream event; its first event is ${
        what === undefined
          ? `${
            describeValue(first)
          }; pipe the provider's text/event-stream into respond --format ${format} --stream`
          : `${what.description}${advice(what, format, true)}`
      }`,
    );
  }
  return calls.sort((a, b) => a.index - b.index);
}

/**
 * The calls of the response on stdin. A response that is not of the format
 * (another format, a provider's error body, not a provider response at all,
 * a stream without --stream or a whole response with it) is a usage error
 * saying what it is and what to pass.
 */
export async function readCalls(
  io: CliIo,
  format: LoopFormat,
  stream: boolean,
  options: ReadCallsOptions,
): Promise<ToolCall[]> {
  if (io.stdinIsTerminal) {
    throw new UsageError("pipe the model's response into stdin (see respond --help)");
  }
  const text = await io.readStdin();
  if (text.length > MAX_INPUT_CHARS) {
    throw new UsageError(`the response on stdin is larger than ${MAX_INPUT_CHARS} characters`);
  }
  try {
    if (stream) return await readStream(text, format, options);
    let response: unknown;
    try {
      response = JSON.parse(text);
    } catch (cause) {
      throw new UsageError(
        looksLikeSse(text)
          ? `the response on stdin is a server-sent event stream, not JSON; run respond --format ${format} --stream`
          : `the response on stdin is not JSON: ${(cause as Error).message}`,
        { cause },
      );
    }
    return readWhole(response, format, options);
  } catch (error) {
    if (
      error instanceof InvalidResponseError || error instanceof InvalidStreamEventError ||
      error instanceof IncompleteCallError || error instanceof IncompleteStreamError ||
      error instanceof WrongFormatError || error instanceof ProviderErrorResponseError
    ) {
      throw new UsageError(`the response on stdin: ${error.message}`, { cause: error });
    }
    throw error;
  }
}
