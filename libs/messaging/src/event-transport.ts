import { EventEnvelope } from '@agp/contracts';

/** Delivers one event to a consumer; throwing means "not done", and the transport redelivers. */
export type Deliver = (envelope: EventEnvelope) => Promise<void>;

/** Delivers a batch to a consumer in one call (one transaction); throwing retries it in halves down to one event (F61). */
export type DeliverBatch = (envelopes: EventEnvelope[]) => Promise<void>;

export interface BatchSubscriptionOptions {
  maxBatch?: number;
  /** Batches handled at once, each its own transaction. */
  concurrentBatches?: number;
  /** F42: how long a short batch waits for more events (fewer, larger transactions); 0 by default. */
  lingerMs?: number;
}

export interface ConsumerSpec {
  /** Durable name, unique per service and purpose (`relay-agents`); replicas share it. */
  name: string;
  types: readonly string[];
}

/** Not durable: `onGap` says events may have been missed (a reconnect), so a listener drops all. */
export interface BroadcastListener {
  onEvent(envelope: EventEnvelope): void;
  onGap(): void;
}

export type StopListening = () => void;

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

/** Only the outbox relay publishes; consumers subscribe (D2, D5). */
export interface EventTransport {
  readonly deliversInline?: boolean;
  publish(envelope: EventEnvelope): Promise<void>;
  /** Resolves, like `publish`, once every subscriber has processed or parked every event (F32). */
  publishInline?(envelopes: ReadonlyArray<EventEnvelope>): Promise<void>;
  // Resolves once the stream stored every envelope; rejects at once while disconnected.
  publishAcknowledged?(envelopes: ReadonlyArray<EventEnvelope>, timeoutMs: number): Promise<void>;
  subscribe(spec: ConsumerSpec, deliver: Deliver): Promise<void>;
  // A durable subscription delivering batches (JetStream, and in-process what one outbox drain
  // publishes, F32): for a consumer whose volume one transaction per event cannot carry.
  subscribeBatches(
    spec: ConsumerSpec,
    options: BatchSubscriptionOptions,
    deliver: DeliverBatch,
  ): Promise<void>;
  retireConsumer(name: string): Promise<boolean>;
  /** Apps inject `EVENT_BROADCAST`, which also hears this replica's commits at once. */
  listen(types: readonly string[], listener: BroadcastListener): Promise<StopListening>;
  // Request-reply (issue 30): one replica of the answering service replies, else `QueryFailure`.
  ask(type: string, body: string, timeoutMs: number): Promise<string>;
  answer(type: string, handler: AnswerQuery): Promise<StopListening>;
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
