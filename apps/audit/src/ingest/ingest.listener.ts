import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { AUDIT_EVENT_TYPES } from '@agp/contracts';
import { ROOT_LOGGER } from '@agp/http';
import { EVENT_TRANSPORT, EventTransport } from '@agp/messaging';
import { Logger } from 'pino';

import { AUDIT_ENV } from '../common/audit-env.token';
import { AuditEnv } from '../config/audit.env';
import { IngestService } from './ingest.service';

/** Durable consumer name: replicas share it, so each event is stored by one of them. */
export const INGEST_CONSUMER = 'audit-ingest';
/** The monitors' rollups had a durable consumer of their own until M16. */
const RETIRED_ROLLUPS_CONSUMER = 'audit-monitor-rollups';

// Deduplication is the events table's primary key under the chain-head lock (A1), not the inbox: a
// batch of thousands would otherwise cost thousands of inbox rows per commit (D5, issue 5).
@Injectable()
export class IngestListener implements OnApplicationBootstrap {
  constructor(
    @Inject(IngestService) private readonly ingest: IngestService,
    @Inject(EVENT_TRANSPORT) private readonly transport: EventTransport,
    @Inject(AUDIT_ENV) private readonly env: AuditEnv,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.transport.subscribeBatches(
      { name: INGEST_CONSUMER, types: AUDIT_EVENT_TYPES },
      {
        maxBatch: this.env.AUDIT_INGEST_BATCH,
        concurrentBatches: this.env.AUDIT_INGEST_CONCURRENCY,
        lingerMs: this.env.AUDIT_INGEST_LINGER_MS,
      },
      (batch) => this.ingest.ingest(batch).then(() => undefined),
    );
    // M16: the rollups' own durable consumer is retired; a server an older release ran keeps it.
    if (await this.transport.retireConsumer(RETIRED_ROLLUPS_CONSUMER)) {
      this.logger.info({ consumer: RETIRED_ROLLUPS_CONSUMER }, 'retired durable consumer deleted');
    }
  }
}
