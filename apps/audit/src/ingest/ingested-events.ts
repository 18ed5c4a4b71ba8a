import { Inject, Injectable } from '@nestjs/common';
import { AuditEventType, AuditableEventData, EventEnvelope } from '@agp/contracts';
import { isRetryableSqlError, Tx } from '@agp/database';
import { ROOT_LOGGER } from '@agp/http';
import { Logger } from 'pino';

export type AuditEnvelope = EventEnvelope<AuditEventType, AuditableEventData>;

export type IngestedEventsObserver = (tx: Tx, envelopes: AuditEnvelope[]) => Promise<void>;

/** Which events an observer hears: a list of types (A29), or any test of an event (A32). */
export type IngestedEventsFilter =
  readonly AuditEventType[] | ((envelope: AuditEnvelope) => boolean);

interface Observer {
  name: string;
  observe: IngestedEventsObserver;
  hears?: (envelope: AuditEnvelope) => boolean;
}

/** What is kept in step with the audit trail (M16). */
@Injectable()
export class IngestedEvents {
  private readonly observers: Observer[] = [];

  constructor(@Inject(ROOT_LOGGER) private readonly logger: Logger) {}

  /**
   * A29, A32: with `hears`, the observer hears only those events, and a batch without one costs
   * it nothing (not even its savepoint).
   */
  observe(name: string, observe: IngestedEventsObserver, hears?: IngestedEventsFilter): void {
    this.observers.push({ name, observe, ...(hears ? { hears: filterOf(hears) } : {}) });
  }

  async notify(tx: Tx, batch: AuditEnvelope[]): Promise<void> {
    for (const { name, observe, hears } of this.observers) {
      const envelopes = hears ? batch.filter(hears) : batch;
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

function filterOf(hears: IngestedEventsFilter): (envelope: AuditEnvelope) => boolean {
  if (typeof hears === 'function') {
    return hears;
  }
  const types: ReadonlySet<AuditEventType> = new Set(hears);
  return (envelope) => types.has(envelope.type);
}
