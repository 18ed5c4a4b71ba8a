import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { AUDIT_EVENT_TYPES } from '@agp/contracts';
import { ROOT_LOGGER } from '@agp/http';
import {
  DEFAULT_REDELIVERY,
  EVENT_TRANSPORT,
  EventTransport,
  JetStreamBatchConsumer,
  JetStreamTransport,
} from '@agp/messaging';
import { Logger } from 'pino';

import { AUDIT_ENV } from '../common/audit-env.token';
import { AuditEnv } from '../config/audit.env';
import { IngestService } from './ingest.service';

/** Durable consumer name: replicas share it, so each event is stored by one of them. */
export const INGEST_CONSUMER = 'audit-ingest';
/** The monitors' rollups had a durable consumer of their own until M16. */
const RETIRED_ROLLUPS_CONSUMER = 'audit-monitor-rollups';

/**
 * Every audit event type, from every service's outbox (D5, issue 5 item 2). On JetStream the events
 * come in batches (one transaction each); on the in-process bus one at a time.
 */
@Injectable()
export class IngestListener implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private batchConsumer?: JetStreamBatchConsumer;

  constructor(
    @Inject(IngestService) private readonly ingest: IngestService,
    @Inject(EVENT_TRANSPORT) private readonly transport: EventTransport,
    @Inject(AUDIT_ENV) private readonly env: AuditEnv,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const spec = { name: INGEST_CONSUMER, types: AUDIT_EVENT_TYPES };
    if (this.transport instanceof JetStreamTransport && this.env.NATS_URL) {
      this.batchConsumer = await JetStreamBatchConsumer.connect(
        {
          url: this.env.NATS_URL,
          prefix: this.env.NATS_PREFIX,
          redelivery: DEFAULT_REDELIVERY,
          maxBatch: this.env.AUDIT_INGEST_BATCH,
          concurrentBatches: this.env.AUDIT_INGEST_CONCURRENCY,
        },
        this.logger,
      );
      await this.batchConsumer.subscribe(spec, (batch) =>
        this.ingest.ingest(batch).then(() => undefined),
      );
      // M16: the rollups' own durable consumer is retired; a server an older release ran keeps it.
      if (await this.batchConsumer.retireConsumer(RETIRED_ROLLUPS_CONSUMER)) {
        this.logger.info(
          { consumer: RETIRED_ROLLUPS_CONSUMER },
          'retired durable consumer deleted',
        );
      }
      return;
    }
    await this.transport.subscribe(spec, (envelope) =>
      this.ingest.ingest([envelope]).then(() => undefined),
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.batchConsumer?.close();
  }
}
