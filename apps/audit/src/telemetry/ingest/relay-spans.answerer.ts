import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { TelemetryExportAnswer, TelemetryExportRequest } from '@agp/contracts';
import { OWNER_QUERIES, OwnerQueries, StopListening } from '@agp/messaging';

import { OtlpBody } from '../otlp/otlp-body';
import { TelemetryIngestService } from './telemetry-ingest.service';

/** Who the relay's own spans are sent by (A22's `sender_kind`, `sender_id`). */
export const RELAY_SENDER = { kind: 'SERVICE', id: 'relay' } as const;

/**
 * audit.md A30: the relay's spans of a tenant's hops (traffic.md T92) come over the bus, as a
 * protobuf export request, and are stored as that tenant's telemetry through the same checks,
 * quota and store as an agent's export (A21–A25); a refusal goes back as the answer's error.
 */
@Injectable()
export class RelaySpansAnswerer implements OnModuleInit, OnModuleDestroy {
  private stop?: StopListening;

  constructor(
    @Inject(OWNER_QUERIES) private readonly queries: OwnerQueries,
    @Inject(TelemetryIngestService) private readonly ingest: TelemetryIngestService,
  ) {}

  async onModuleInit(): Promise<void> {
    this.stop = await this.queries.answer('TELEMETRY_EXPORT', (request) => this.store(request));
  }

  onModuleDestroy(): void {
    this.stop?.();
  }

  async store(request: TelemetryExportRequest): Promise<TelemetryExportAnswer> {
    const body = new OtlpBody(Buffer.from(request.spans, 'base64'), 'protobuf');
    const sender = { tenantId: request.tenantId, ...RELAY_SENDER };
    const outcome = await this.ingest.exportAs(sender, 'traces', body);
    return { accepted: outcome.accepted, rejected: outcome.partial?.rejected ?? 0 };
  }
}
