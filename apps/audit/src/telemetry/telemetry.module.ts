import { Module } from '@nestjs/common';

import { TelemetryIngestController } from './ingest/telemetry-ingest.controller';
import { TelemetryIngestService } from './ingest/telemetry-ingest.service';
import { TelemetryQuotaRepository } from './ingest/telemetry-quota.repository';
import { TelemetryStoreRepository } from './ingest/telemetry-store.repository';
import { TelemetryPartitionsService } from './telemetry-partitions.service';
import { TelemetryRetentionService } from './telemetry-retention.service';

/** Telemetry (issue 37, D46, D54): agents' OTLP traces and logs, stored per tenant and queried. */
@Module({
  controllers: [TelemetryIngestController],
  providers: [
    TelemetryIngestService,
    TelemetryStoreRepository,
    TelemetryQuotaRepository,
    TelemetryPartitionsService,
    TelemetryRetentionService,
  ],
  exports: [TelemetryRetentionService],
})
export class TelemetryModule {}
