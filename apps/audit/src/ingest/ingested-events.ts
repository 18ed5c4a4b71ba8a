import { Inject, Injectable } from '@nestjs/common';
import { AuditEventType, AuditableEventData, EventEnvelope } from '@agp/contracts';
import { isRetryableSqlError, sqlState, Tx } from '@agp/database';
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
   * it nothing.
   */
  observe(name: string, observe: IngestedEventsObserver, hears?: IngestedEventsFilter): void {
    this.observers.push({ name, observe, ...(hears ? { hears: filterOf(hears) } : {}) });
  }

  /**
   * A54: `transaction` stores a batch and calls `notify` last. When an observer fails, the whole
   * transaction is rolled back and run again without that observer: the events are stored
   * whatever an observer does, and an observer's work is kept only whole, without a savepoint
   * (two statements) per observer and batch. A retryable error fails the batch, as before.
   */
  async withObservers<T>(transaction: (notify: Notify) => Promise<T>): Promise<T> {
    const skipped = new Set<string>();
    for (;;) {
      try {
        return await transaction((tx, batch) => this.notify(tx, batch, skipped));
      } catch (error) {
        if (!(error instanceof ObserverFailure)) {
          throw error;
        }
        skipped.add(error.observer);
        this.logger.error(
          { err: error.cause, observer: error.observer, events: error.events },
          'observer of ingested events failed; the events are stored without it',
        );
      }
    }
  }

  private async notify(
    tx: Tx,
    batch: AuditEnvelope[],
    skipped: ReadonlySet<string>,
  ): Promise<void> {
    for (const { name, observe, hears } of this.observers) {
      const envelopes = skipped.has(name) ? [] : hears ? batch.filter(hears) : batch;
      if (envelopes.length === 0) {
        continue;
      }
      try {
        await observe(tx, envelopes);
      } catch (error) {
        if (isRetryableSqlError(error) || !(await stillAnswers(tx))) {
          throw error;
        }
        throw new ObserverFailure(name, envelopes.length, error);
      }
    }
  }
}

export type Notify = (tx: Tx, batch: AuditEnvelope[]) => Promise<void>;

/** Thrown out of the transaction, so that it rolls back, and caught by `withObservers`. */
class ObserverFailure extends Error {
  constructor(
    readonly observer: string,
    readonly events: number,
    cause: unknown,
  ) {
    super(`observer ${observer} failed`, { cause });
  }
}

/**
 * A57: an observer's error is its own only while the database still answers. A lost connection
 * (pg's "Connection terminated", a socket's ECONNRESET, 57P01 at a failover) fails the batch,
 * which is delivered again, instead of storing the events without that observer's work.
 */
async function stillAnswers(tx: Tx): Promise<boolean> {
  try {
    await tx.query('SELECT 1');
    return true;
  } catch (probe) {
    // Only an aborted transaction (25P02) answers this way; anything else (08006, 57P01, EPIPE,
    // no code at all) is a connection that may be gone, and the batch had better fail.
    return sqlState(probe) === '25P02';
  }
}

function filterOf(hears: IngestedEventsFilter): (envelope: AuditEnvelope) => boolean {
  if (typeof hears === 'function') {
    return hears;
  }
  const types: ReadonlySet<AuditEventType> = new Set(hears);
  return (envelope) => types.has(envelope.type);
}
