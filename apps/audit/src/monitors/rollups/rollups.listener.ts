import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  OnModuleInit,
  Optional,
} from '@nestjs/common';
import { ROOT_LOGGER } from '@agp/http';
import {
  DEFAULT_REDELIVERY,
  EVENT_TRANSPORT,
  EventConsumers,
  EventTransport,
  JetStreamBatchConsumer,
  JetStreamTransport,
} from '@agp/messaging';
import { Logger } from 'pino';

import { AUDIT_ENV } from '../../common/audit-env.token';
import { AuditEnv } from '../../config/audit.env';
import { AUDIT_CONSUMERS, AUDIT_SERVICE } from '../../database/tokens';
import { TRAFFIC_EVENT_TYPES } from './rollup-counters';
import { RollupsService } from './rollups.service';

const NAME = 'monitor-rollups';
/** The durable name on JetStream and the inbox's consumer name, whichever path delivers (D5). */
export const ROLLUPS_CONSUMER = `${AUDIT_SERVICE}-${NAME}`;

/**
 * The `audit-monitor-rollups` durable consumer (M4). On JetStream it takes batches (one transaction
 * and one upsert per batch, like the audit ingest); on the in-process bus one event at a time
 * through `EventConsumers`. Both record each event id in the inbox first, so redelivery counts
 * nothing twice.
 */
@Injectable()
export class RollupsListener implements OnModuleInit, BeforeApplicationShutdown {
  private batchConsumer?: JetStreamBatchConsumer;

  constructor(
    @Inject(AUDIT_CONSUMERS) private readonly consumers: EventConsumers,
    @Inject(EVENT_TRANSPORT) private readonly transport: EventTransport,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    private readonly rollups: RollupsService,
    @Optional() @Inject(AUDIT_ENV) private readonly env?: AuditEnv,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.transport instanceof JetStreamTransport && this.env?.NATS_URL) {
      this.batchConsumer = await JetStreamBatchConsumer.connect(
        {
          url: this.env.NATS_URL,
          prefix: this.env.NATS_PREFIX,
          redelivery: DEFAULT_REDELIVERY,
          maxBatch: this.env.AUDIT_INGEST_BATCH,
        },
        this.logger,
      );
      await this.batchConsumer.subscribe(
        { name: ROLLUPS_CONSUMER, types: TRAFFIC_EVENT_TYPES },
        (batch) => this.rollups.recordBatch(ROLLUPS_CONSUMER, batch),
      );
      return;
    }
    this.consumers.register(NAME, TRAFFIC_EVENT_TYPES, (event, tx) =>
      this.rollups.record(tx, event),
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.batchConsumer?.close();
  }
}
