import { Inject, Injectable } from '@nestjs/common';
import { AuditEventType, AuditableEventData, EventEnvelope } from '@agp/contracts';
import { isRetryableSqlError, Tx } from '@agp/database';
import { ROOT_LOGGER } from '@agp/http';
import { Logger } from 'pino';

export type AuditEnvelope = EventEnvelope<AuditEventType, AuditableEventData>;

export type IngestedEventsObserver = (tx: Tx, envelopes: AuditEnvelope[]) => Promise<void>;

interface Observer {
  name: string;
  observe: IngestedEventsObserver;
  types?: ReadonlySet<AuditEventType>;
}

/** What is kept in step with the audit trail (M16). */
@Injectable()
export class IngestedEvents {
  private readonly observers: Observer[] = [];

  constructor(@Inject(ROOT_LOGGER) private readonly logger: Logger) {}

  /** A29: with `types`, the observer hears only those, and a batch without one costs it nothing. */
  observe(name: string, observe: IngestedEventsObserver, types?: readonly AuditEventType[]): void {
    this.observers.push({ name, observe, ...(types ? { types: new Set(types) } : {}) });
  }

  async notify(tx: Tx, batch: AuditEnvelope[]): Promise<void> {
    for (const { name, observe, types } of this.observers) {
      const envelopes = types ? batch.filter((envelope) => types.has(envelope.type)) : batch;
      if (envelopes.length === 0) {
        continue;
      }
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
