import { Inject, Injectable, BeforeApplicationShutdown } from '@nestjs/common';
import { OWNER_QUERIES, OwnerQueries } from '@agp/messaging';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, Tracer, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  SpanProcessor,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';

import { HopDecision } from '../../decisions/decision.types';
import { Hop } from '../pipeline/hop.types';
import { TraceIds } from './call-trace';
import { decisionAttributes, hopAttributes, hopSpanName } from './hop-span-attributes';
import { TenantSpanExporter } from './tenant-span-exporter';

/** traffic.md T93: `RELAY_SPANS_SAMPLE_RATIO` and whether an operator's collector is set. */
export interface HopTracingOptions {
  /** 0: no spans at all (the default); 1: every trace the agent did not mark unsampled. */
  sampleRatio: number;
  /** `OTEL_EXPORTER_OTLP_ENDPOINT` (or its traces variant): spans go there too. */
  collectorEndpoint?: string;
}

export const HOP_TRACING_OPTIONS = Symbol('relay:hop-tracing-options');

/** A hop's own span: its ids for the audit events, and its end once they are durable. */
export interface HopSpan {
  ids: TraceIds;
  end(decision: DecidedAs, decisionId: string, audited: Promise<void>): void;
}

type DecidedAs = Pick<HopDecision, 'action'> & { bindings?: HopDecision['bindings'] };

/**
 * Issue 37 item 4 (traffic.md T90–T93): one span per hop, made with OpenTelemetry's SDK, a child
 * of the agent's span when it sent a `traceparent`. With spans off nothing is built at all.
 */
@Injectable()
export class HopTracer implements BeforeApplicationShutdown {
  private readonly provider?: BasicTracerProvider;
  private readonly tracer?: Tracer;

  constructor(
    @Inject(HOP_TRACING_OPTIONS) options: HopTracingOptions,
    @Inject(OWNER_QUERIES) queries: OwnerQueries,
  ) {
    if (options.sampleRatio <= 0) {
      return;
    }
    const processors: SpanProcessor[] = [
      new BatchSpanProcessor(new TenantSpanExporter(queries)),
      ...(options.collectorEndpoint ? [new BatchSpanProcessor(new OTLPTraceExporter())] : []),
    ];
    this.provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'agp-relay' }),
      sampler: new ParentBasedSampler({
        root: new TraceIdRatioBasedSampler(options.sampleRatio),
      }),
      spanProcessors: processors,
    });
    this.tracer = this.provider.getTracer('@agp/relay');
  }

  /**
   * T90: undefined with spans off or the trace not sampled; a request hop's span becomes what the
   * call forwards upstream. Without an agent's context a response hop is the request hop's child.
   */
  start(hop: Hop): HopSpan | undefined {
    if (!this.tracer) {
      return undefined;
    }
    const parent = hop.trace?.agentContext ?? hop.trace?.upstreamParent;
    const span = this.tracer.startSpan(
      hopSpanName(hop),
      {
        kind: hop.direction === 'REQUEST' ? SpanKind.SERVER : SpanKind.INTERNAL,
        attributes: hopAttributes(hop),
      },
      parent ? trace.setSpanContext(ROOT_CONTEXT, parent) : ROOT_CONTEXT,
    );
    if (!span.isRecording()) {
      return undefined;
    }
    const context = span.spanContext();
    if (hop.direction === 'REQUEST' && hop.trace) {
      hop.trace.upstreamParent = context;
    }
    return {
      ids: { traceId: context.traceId, spanId: context.spanId },
      end: (decision, decisionId, audited) => {
        span.setAttributes(decisionAttributes(decision, decisionId));
        if (decision.action === 'ERROR') {
          span.setStatus({ code: SpanStatusCode.ERROR, message: 'the decision failed' });
        }
        audited.then(
          () => span.end(),
          (error: unknown) => {
            span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
            span.end();
          },
        );
      },
    };
  }

  /** Sends what is batched now (the span bench counts the export in the hops that made it). */
  async flush(): Promise<void> {
    await this.provider?.forceFlush();
  }

  /** Spans still batched are sent before the bus closes. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.provider?.shutdown();
  }
}
