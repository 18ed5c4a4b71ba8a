import { EventEnvelope } from '@agp/contracts';

/** Delivers one event to a consumer; throwing means "not done", and the transport redelivers. */
export type Deliver = (envelope: EventEnvelope) => Promise<void>;

export interface ConsumerSpec {
  /** Durable name, unique per service and purpose (`relay-agents`); replicas share it. */
  name: string;
  types: readonly string[];
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
  subscribe(spec: ConsumerSpec, deliver: Deliver): Promise<void>;
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
