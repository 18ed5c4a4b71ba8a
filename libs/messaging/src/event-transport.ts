import { EventEnvelope } from '@agp/contracts';

/** Delivers one event to a consumer; throwing means "not done", and the transport redelivers. */
export type Deliver = (envelope: EventEnvelope) => Promise<void>;

/** Delivers a batch to a consumer in one call (one transaction); throwing retries it one by one. */
export type DeliverBatch = (envelopes: EventEnvelope[]) => Promise<void>;

/** A batched durable subscription's sizing (the audit ingest's). */
export interface BatchSubscriptionOptions {
  /** Most events in one call. */
  maxBatch?: number;
  /** Batches handled at once, each its own transaction. */
  concurrentBatches?: number;
}

export interface ConsumerSpec {
  /** Durable name, unique per service and purpose (`relay-agents`); replicas share it. */
  name: string;
  types: readonly string[];
}

/**
 * A replica's ear on events, every replica hearing each one (`EventBroadcast`, event-broadcast.ts).
 * Not durable: `onGap` says events may have been missed (a reconnect), so a listener drops all.
 */
export interface BroadcastListener {
  onEvent(envelope: EventEnvelope): void;
  onGap(): void;
}

/** Stops a broadcast listener. */
export type StopListening = () => void;

/** Answers one query (a JSON request body) with a JSON reply body (`OwnerQueries`, owner-queries.ts). */
export type AnswerQuery = (body: string) => Promise<string>;

/** Why an owner gave no answer: none listens, none answered in time, or the bus is unreachable. */
export type QueryFailureReason = 'no-answerer' | 'timeout' | 'unreachable';

/** A request that reached no owner, or whose answer did not come back in time. */
export class QueryFailure extends Error {
  constructor(
    readonly reason: QueryFailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'QueryFailure';
  }
}

/** Why a message was parked instead of delivered again. */
export interface ParkedMessage {
  consumer: string;
  subject: string;
  reason: string;
  deliveries: number;
  body: string;
}

/**
 * The one event-bus interface with two implementations (D2, D5): NATS JetStream across processes,
 * in-process for the embedded default. Only the outbox relay publishes; consumers subscribe.
 */
export interface EventTransport {
  /**
   * True when `publish` runs the consumers before it returns (in-process). The outbox relay then
   * publishes outside its transaction: on the embedded one-session database (PGlite) a consumer's
   * transaction would otherwise wait for the relay's, which waits for the consumer.
   */
  readonly deliversInline?: boolean;
  publish(envelope: EventEnvelope): Promise<void>;
  /**
   * In-process only: publishes committed events in their order, handing a batch subscriber all
   * of its events at once (one transaction for the lot instead of one each, F32). Resolves, like
   * `publish`, once every subscriber has processed or parked every event.
   */
  publishInline?(envelopes: ReadonlyArray<EventEnvelope>): Promise<void>;
  /**
   * Publishes a batch and resolves once the stream has stored every envelope (JetStream's publish
   * acknowledgement), within `timeoutMs`; rejects at once while the connection is down. Absent
   * on the in-process bus, which stores nothing (`EventOutbox.addDurable`).
   */
  publishAcknowledged?(envelopes: ReadonlyArray<EventEnvelope>, timeoutMs: number): Promise<void>;
  subscribe(spec: ConsumerSpec, deliver: Deliver): Promise<void>;
  /**
   * A durable subscription delivering batches (JetStream, and in-process what one outbox drain
   * publishes, F32): for a consumer whose volume one transaction per event cannot carry.
   */
  subscribeBatches(
    spec: ConsumerSpec,
    options: BatchSubscriptionOptions,
    deliver: DeliverBatch,
  ): Promise<void>;
  /** Deletes a durable consumer nothing reads any more; true when there was one. */
  retireConsumer(name: string): Promise<boolean>;
  /**
   * Hears every published event of `types` on this replica: what `EventBroadcast` is built on.
   * Apps inject `EVENT_BROADCAST`, which also hears this replica's commits at once.
   */
  listen(types: readonly string[], listener: BroadcastListener): Promise<StopListening>;
  /**
   * Request-reply (issue 30): `ask` sends a query to one replica of whichever service `answer`s its
   * type and resolves with the reply body, or rejects with `QueryFailure` (no answerer, no answer
   * within `timeoutMs`). Apps inject `OWNER_QUERIES`, which types and validates both ends.
   */
  ask(type: string, body: string, timeoutMs: number): Promise<string>;
  answer(type: string, handler: AnswerQuery): Promise<StopListening>;
  /** Stops pulling, lets in-flight deliveries finish and hands un-acked messages back. */
  stopConsumers(): Promise<void>;
  close(): Promise<void>;
  ping(): Promise<void>;
}

/** A payload that can never be processed: park it at once rather than redeliver it. */
export class PoisonMessageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PoisonMessageError';
  }
}

export const EVENT_TRANSPORT = Symbol('EVENT_TRANSPORT');
