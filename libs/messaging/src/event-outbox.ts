import { randomUUID } from 'node:crypto';

import { EVENT_VERSION, EventData, EventEnvelope, EventType } from '@agp/contracts';
import { Database, Tx, queryNamed } from '@agp/database';
import { EntitySubscriberInterface, QueryRunner } from 'typeorm';

import { EventTransport } from './event-transport';

const DIRECT_ACK_TIMEOUT_MS = 1_000;
const DIRECT_PAUSE_MS = 5_000;

export interface EventContext {
  tenantId: string;
  correlationId: string;
}

export function buildEvent<T extends EventType>(
  type: T,
  context: EventContext,
  data: EventData<T>,
): EventEnvelope<T, EventData<T>> {
  return {
    id: randomUUID(),
    type,
    version: EVENT_VERSION,
    occurredAt: new Date().toISOString(),
    tenantId: context.tenantId,
    correlationId: context.correlationId,
    data,
  };
}

/** How a service emits an event: in the same transaction as the state change (D5). */
export class EventOutbox {
  private onAdded: () => void = () => undefined;
  private onCommitted: (envelopes: readonly EventEnvelope[]) => void = () => undefined;
  private readonly uncommitted = new WeakMap<QueryRunner, UncommittedEvents>();
  private durableBus?: Required<Pick<EventTransport, 'publishAcknowledged'>>;
  private directPausedUntil = 0;

  constructor(private readonly database: Database) {
    const subscriber: EntitySubscriberInterface = {
      afterTransactionCommit: ({ queryRunner }) => {
        const added = this.uncommitted.get(queryRunner);
        if (!queryRunner.isTransactionActive && added) {
          this.uncommitted.delete(queryRunner);
          this.committed(added.isCertain ? added.envelopes : []);
        }
      },
      afterTransactionRollback: ({ queryRunner }) => {
        const added = this.uncommitted.get(queryRunner);
        if (!added) {
          return;
        }
        if (!queryRunner.isTransactionActive) {
          this.uncommitted.delete(queryRunner);
        } else {
          // A savepoint rolled back: which of the events survive is unknown here, so this replica
          // hears none of them at commit; the ones that were committed come back published.
          added.isCertain = false;
        }
      },
    };
    database.dataSource.subscribers.push(subscriber);
  }

  async add<T extends EventType>(
    tx: Tx,
    type: T,
    context: EventContext,
    data: EventData<T>,
  ): Promise<EventEnvelope<T, EventData<T>>> {
    const envelope = buildEvent(type, context, data);
    // F53: a fixed text per schema, sent with most state changes, so parsed once per connection.
    await queryNamed(
      tx,
      `INSERT INTO ${this.database.schema}.outbox (id, type, envelope) VALUES ($1, $2, $3)`,
      [envelope.id, type, JSON.stringify(envelope)],
    );
    if (tx.queryRunner) {
      const added = this.uncommitted.get(tx.queryRunner);
      if (added) {
        added.envelopes.push(envelope);
      } else {
        this.uncommitted.set(tx.queryRunner, { envelopes: [envelope], isCertain: true });
      }
    } else {
      this.committed([envelope]);
    }
    return envelope;
  }

  async addCommitted(envelopes: ReadonlyArray<EventEnvelope<EventType, unknown>>): Promise<void> {
    if (envelopes.length === 0) {
      return;
    }
    // One JSON array, not three array parameters: the driver would escape every envelope again.
    await this.database.commitStatement(
      `INSERT INTO ${this.database.schema}.outbox (id, type, envelope)
       SELECT (e->>'id')::uuid, e->>'type', e
         FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS batch(e, n) ORDER BY n`,
      [JSON.stringify(envelopes)],
    );
    this.committed(envelopes);
  }

  // This replica hears it from the bus, as every other does (T39, D5).
  async addDurable(envelopes: ReadonlyArray<EventEnvelope<EventType, unknown>>): Promise<void> {
    if (envelopes.length === 0) {
      return;
    }
    if (this.durableBus && Date.now() >= this.directPausedUntil) {
      try {
        await this.durableBus.publishAcknowledged(envelopes, DIRECT_ACK_TIMEOUT_MS);
        return;
      } catch {
        this.directPausedUntil = Date.now() + DIRECT_PAUSE_MS;
      }
    }
    await this.addCommitted(envelopes);
  }

  publishDurablyThrough(transport: EventTransport): void {
    const { publishAcknowledged } = transport;
    this.durableBus = publishAcknowledged
      ? { publishAcknowledged: publishAcknowledged.bind(transport) }
      : undefined;
  }

  // The relay asks to be woken when a transaction that added events has committed (waking it before
  // would find nothing yet; it still polls, for other replicas' rows).
  notifyOnAdd(listener: () => void): void {
    this.onAdded = listener;
  }

  // The process's broadcast asks to hear what this outbox commits, inside the commit, so that the
  // replica that made a change holds it before it answers (`ReplicaBroadcast.committed`).
  notifyOnCommit(listener: (envelopes: readonly EventEnvelope[]) => void): void {
    this.onCommitted = listener;
  }

  private committed(envelopes: readonly EventEnvelope[]): void {
    this.onAdded();
    this.onCommitted(envelopes);
  }
}

interface UncommittedEvents {
  envelopes: EventEnvelope[];
  /** False once a savepoint rolled back: some of the events may not be committed. */
  isCertain: boolean;
}
