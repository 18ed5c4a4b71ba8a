import { Inject, Injectable } from '@nestjs/common';
import { AuditEventType, AuditableEventData, EventEnvelope } from '@agp/contracts';
import { isRetryableSqlError, Tx } from '@agp/database';
import { ROOT_LOGGER } from '@agp/http';
import { Logger } from 'pino';

export type AuditEnvelope = EventEnvelope<AuditEventType, AuditableEventData>;

export type IngestedEventsObserver = (tx: Tx, envelopes: AuditEnvelope[]) => Promise<void>;

/** What is kept in step with the audit trail (M16). */
@Injectable()
export class IngestedEvents {
  private readonly observers: Array<{ name: string; observe: IngestedEventsObserver }> = [];

  constructor(@Inject(ROOT_LOGGER) private readonly logger: Logger) {}

  observe(name: string, observe: IngestedEventsObserver): void {
    this.observers.push({ name, observe });
  }

  async notify(tx: Tx, envelopes: AuditEnvelope[]): Promise<void> {
    for (const { name, observe } of this.observers) {
      await tx.query('SAVEPOINT ingested_events');
      try {
        await observe(tx, envelopes);
        await tx.query('RELEASE SAVEPOINT ingested_events');
      } catch (error) {
        if (isRetryableSqlError(error)) {
          throw error;
        }
        await tx.query('ROLLBACK TO SAVEPOINT ingested_events');
        this.logger.error(
          { err: error, observer: name, events: envelopes.length },
          'observer of ingested events failed; the events are stored without it',
        );
      }
    }
  }
}
