// Private: OpenTelemetry spans following the MCP semantic conventions. With
// no SDK registered (Deno without OTEL_DENO=true) every call is a no-op.

import {
  INVALID_SPAN_CONTEXT,
  ProxyTracerProvider,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";

const tracer = trace.getTracer("toolfoundation-serve", "0.1.0");

/** The class of the API's no-op provider: what a provider without a delegate hands out. */
const NOOP_PROVIDER = new ProxyTracerProvider().getDelegate().constructor;
/** The span `work` gets when no SDK is registered: records nothing. */
const NOT_RECORDING: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/**
 * Whether an OpenTelemetry SDK is registered. Without one, a span would cost
 * a name, attributes, a context switch and a no-op span per request for
 * nothing, so none is made.
 */
function tracing(): boolean {
  const provider = trace.getTracerProvider() as { getDelegate?: () => object };
  const delegate = provider.getDelegate?.() ?? provider;
  return !(delegate instanceof NOOP_PROVIDER);
}

/** Attributes of a request span. */
export interface RequestSpanInfo {
  method: string;
  requestId?: string | number;
  sessionId?: string;
  protocolVersion?: string;
  transport: "pipe" | "tcp";
  target?: string;
}

/**
 * Runs `work` in a server span named `{method} {target}`; `redact` scrubs
 * the span's name, string attributes and status message (they leave the
 * process through the exporter).
 */
export async function inSpan<T>(
  info: RequestSpanInfo,
  work: (span: Span) => Promise<T>,
  redact: (text: string) => string = (text) => text,
): Promise<T> {
  if (!tracing()) return await work(NOT_RECORDING);
  const name = redact(
    info.target === undefined ? info.method : `${info.method} ${info.target}`,
  );
  const attributes: Record<string, string | number> = {
    "mcp.method.name": info.method,
    "network.transport": info.transport,
  };
  if (info.requestId !== undefined) attributes["jsonrpc.request.id"] = String(info.requestId);
  if (info.sessionId !== undefined) attributes["mcp.session.id"] = info.sessionId;
  if (info.protocolVersion !== undefined) {
    attributes["mcp.protocol.version"] = info.protocolVersion;
  }
  if (info.method === "tools/call" && info.target !== undefined) {
    attributes["gen_ai.tool.name"] = info.target;
    attributes["gen_ai.operation.name"] = "execute_tool";
  }
  for (const [key, value] of Object.entries(attributes)) {
    if (typeof value === "string") attributes[key] = redact(value);
  }
  return await tracer.startActiveSpan(name, { kind: SpanKind.SERVER, attributes }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.setAttribute(
        "error.type",
        redact((error as { code?: unknown })?.code?.toString() ?? "_OTHER"),
      );
      const message = (error as Error)?.message;
      span.setStatus({
        code: SpanStatusCode.ERROR,
        ...(message === undefined ? {} : { message: redact(String(message)) }),
      });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Marks a span as failed with a tool error (an `isError` result). */
export function markToolError(span: Span, outcome: string): void {
  span.setAttribute("error.type", outcome);
  span.setStatus({ code: SpanStatusCode.ERROR });
}
