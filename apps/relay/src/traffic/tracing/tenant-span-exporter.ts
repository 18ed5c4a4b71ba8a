import { OwnerQueries } from '@agp/messaging';
import { ExportResult, ExportResultCode } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

import { TENANT_ATTRIBUTE } from './hop-span-attributes';

/** Spans per message: a few hundred bytes each, well under NATS's 1 MiB with base64. */
const SPANS_PER_MESSAGE = 200;
/** Within the batch processor's own 30 s export budget; a first export of a day makes a partition. */
const EXPORT_TIMEOUT_MS = 10_000;

/**
 * traffic.md T92: each tenant's spans go to that tenant's own telemetry store, the audit service
 * (D46), as OTLP protobuf built by OpenTelemetry's own serializer; the audit service stores them
 * as the tenant's, sent by the relay (audit.md A30). A failed export is dropped by the batch
 * processor, as any OpenTelemetry exporter's is.
 */
export class TenantSpanExporter implements SpanExporter {
  constructor(private readonly queries: OwnerQueries) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.send(spans).then(
      () => done({ code: ExportResultCode.SUCCESS }),
      (error: unknown) =>
        done({
          code: ExportResultCode.FAILED,
          error: error instanceof Error ? error : new Error(String(error)),
        }),
    );
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }

  private async send(spans: ReadableSpan[]): Promise<void> {
    const byTenant = new Map<string, ReadableSpan[]>();
    for (const span of spans) {
      const tenantId = span.attributes[TENANT_ATTRIBUTE];
      if (typeof tenantId === 'string') {
        byTenant.set(tenantId, [...(byTenant.get(tenantId) ?? []), span]);
      }
    }
    const sends: Array<Promise<unknown>> = [];
    for (const [tenantId, group] of byTenant) {
      for (let at = 0; at < group.length; at += SPANS_PER_MESSAGE) {
        const bytes = ProtobufTraceSerializer.serializeRequest(
          group.slice(at, at + SPANS_PER_MESSAGE),
        );
        if (bytes) {
          const request = { tenantId, spans: Buffer.from(bytes).toString('base64') };
          sends.push(this.queries.ask('TELEMETRY_EXPORT', request, EXPORT_TIMEOUT_MS));
        }
      }
    }
    await Promise.all(sends);
  }
}
