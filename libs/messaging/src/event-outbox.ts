import { randomUUID } from 'node:crypto';

import { EVENT_VERSION, EventData, EventEnvelope, EventType } from '@agp/contracts';
import { Database, Tx } from '@agp/database';
import { EntitySubscriberInterface, QueryRunner } from 'typeorm';

import { EventTransport } from './event-transport';

/** How long a direct publish waits for JetStream's acknowledgement before the outbox takes over. */
const DIRECT_ACK_TIMEOUT_MS = 1_000;
/** After a direct publish failed, events go to the outbox for this long before NATS is tried again. */
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

/**
 * How a service emits an event: in the same transaction as the state change (D5). The relay
 * publishes it after commit; a crash or a NATS outage in between loses nothing.
 */
export class EventOutbox {
  private onAdded: () => void = () => undefined;
  private onCommitted: (envelopes: readonly EventEnvelope[]) => void = () => undefined;
  /**
   * What each open transaction added: the relay is woken, and this replica's broadcast listeners
   * hear the events, when it commits, not before.
   */
  private readonly uncommitted = new WeakMap<QueryRunner, UncommittedEvents>();
  /** The bus `addDurable` publishes to directly (JetStream), when it can acknowledge. */
  private durableBus?: Required<Pick<EventTransport, 'publishAcknowledged'>>;
  private directPausedUntil = 0;

  constructor(private readonly database: Database) {
    const subscriber: EntitySubscriberInterface = {
      afterTransactionCommit: ({ queryRunner }) => {
        // A released savepoint inside the transaction is reported as a commit too.
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
    await tx.query(
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

  /**
   * Events built with `buildEvent` stored in one statement that commits on its own: durable when
   * the promise resolves. What a caller that must not answer before its events are durable batches
   * many callers into (the relay's traffic hops, group commit). One round trip on PostgreSQL; a
   * transaction of its own on the embedded PGlite (`Database.commitStatement`).
   */
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

  /**
   * Events that change no state of this service, durable when the promise resolves (the traffic
   * hops' audit, T39): acknowledged by JetStream, which stores them (the same acknowledgement on
   * which the outbox relay deletes a row, so they are exactly as durable as an outbox row once
   * published), or, when the bus cannot acknowledge in time or is in-process, committed to the
   * outbox (`addCommitted`). A publish that timed out may still have been stored: the outbox
   * then publishes the same event id again, which JetStream's duplicate window and the
   * consumers' inboxes drop (D5). Listeners of this replica hear a directly published event from
   * the bus, as every other replica does.
   */
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

  /** `addDurable` publishes through this bus first when it acknowledges what it stores. */
  publishDurablyThrough(transport: EventTransport): void {
    const { publishAcknowledged } = transport;
    this.durableBus = publishAcknowledged
      ? { publishAcknowledged: publishAcknowledged.bind(transport) }
      : undefined;
  }

  /**
   * The relay asks to be woken when a transaction that added events has committed (waking it
   * before would find nothing yet; it still polls, for other replicas' rows).
   */
  notifyOnAdd(listener: () => void): void {
    this.onAdded = listener;
  }

  /**
   * The process's broadcast asks to hear what this outbox commits, inside the commit, so that the
   * replica that made a change holds it before it answers (`ReplicaBroadcast.committed`).
   */
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
