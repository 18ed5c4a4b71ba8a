import { Module } from '@nestjs/common';

import { RelaySpansAnswerer } from './ingest/relay-spans.answerer';
import { TelemetryIngestController } from './ingest/telemetry-ingest.controller';
import { TelemetryIngestService } from './ingest/telemetry-ingest.service';
import { TelemetryQuotaRepository } from './ingest/telemetry-quota.repository';
import { TelemetryStoreRepository } from './ingest/telemetry-store.repository';
import { TelemetryLinksRepository } from './query/telemetry-links.repository';
import { TelemetryQueryController } from './query/telemetry-query.controller';
import { TelemetryQueryRepository } from './query/telemetry-query.repository';
import { TelemetryQueryService } from './query/telemetry-query.service';
import { TelemetryPartitionsService } from './telemetry-partitions.service';
import { TelemetryRetentionRepository } from './telemetry-retention.repository';
import { TelemetryRetentionService } from './telemetry-retention.service';

/** Telemetry (issue 37, D46, D54): agents' OTLP traces and logs, stored per tenant and queried. */
@Module({
  controllers: [TelemetryIngestController, TelemetryQueryController],
  providers: [
    TelemetryIngestService,
    RelaySpansAnswerer,
    TelemetryStoreRepository,
    TelemetryQuotaRepository,
    TelemetryPartitionsService,
    TelemetryRetentionService,
    TelemetryRetentionRepository,
    TelemetryQueryService,
    TelemetryQueryRepository,
    TelemetryLinksRepository,
  ],
  exports: [TelemetryRetentionService, TelemetryLinksRepository],
})
export class TelemetryModule {}
