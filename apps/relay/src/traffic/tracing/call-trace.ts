import { IncomingHttpHeaders } from 'node:http';

import {
  ROOT_CONTEXT,
  SpanContext,
  defaultTextMapGetter,
  defaultTextMapSetter,
  isSpanContextValid,
  trace,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

const W3C = new W3CTraceContextPropagator();

/** The ids an audit event records for a hop (D46, A27). */
export interface TraceIds {
  traceId: string;
  spanId: string;
}

/**
 * traffic.md T89: the W3C trace context a call came with, and the span the relay forwards it
 * under. `upstreamParent` is set by the pipeline once the call's request hop has a span of the
 * relay's own (T90); until then, or with spans off, the agent's context goes upstream unchanged.
 */
export class CallTrace {
  upstreamParent?: SpanContext;

  constructor(readonly agentContext?: SpanContext) {}

  /** OpenTelemetry's own W3C reader: a malformed `traceparent` is as if none came (and its state). */
  static of(headers: IncomingHttpHeaders | Record<string, string | undefined>): CallTrace {
    if (headers.traceparent === undefined) {
      return new CallTrace();
    }
    const context = W3C.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
    const remote = trace.getSpanContext(context);
    return new CallTrace(remote && isSpanContextValid(remote) ? remote : undefined);
  }

  /** What a hop's audit event records when the hop has no span of its own: the agent's span. */
  get ids(): TraceIds | undefined {
    const context = this.agentContext;
    return context ? { traceId: context.traceId, spanId: context.spanId } : undefined;
  }

  /** `traceparent` (and `tracestate`) for an upstream request; none when the call had none. */
  upstreamHeaders(): Record<string, string> {
    const parent = this.upstreamParent ?? this.agentContext;
    const headers: Record<string, string> = {};
    if (parent) {
      W3C.inject(trace.setSpanContext(ROOT_CONTEXT, parent), headers, defaultTextMapSetter);
    }
    return headers;
  }
}

/** The ids of what went upstream (the relay's request hop span, else the agent's): D39's events. */
export function forwardedIdsOf(trace: CallTrace | undefined): Partial<TraceIds> {
  const context = trace?.upstreamParent ?? trace?.agentContext;
  return context ? { traceId: context.traceId, spanId: context.spanId } : {};
}
