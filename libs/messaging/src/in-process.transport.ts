import { EventEnvelope } from '@agp/contracts';
import { Logger } from 'pino';

import {
  AnswerQuery,
  BatchSubscriptionOptions,
  BroadcastListener,
  ConsumerSpec,
  Deliver,
  DeliverBatch,
  EventTransport,
  ParkedMessage,
  PoisonMessageError,
  QueryFailure,
  StopListening,
} from './event-transport';
import { RedeliveryPolicy, redeliveryDelay } from './redelivery';

const IN_PROCESS_REDELIVERY: RedeliveryPolicy = { maxDeliveries: 4, backoffMs: [50, 200, 1_000] };

/**
 * The embedded default's bus (D2). `publish` returns only once every subscriber has processed the
 * event (or parked it), so the outbox row that fed it is deleted only then: a crash before that
 * republishes from the outbox, and idempotent consumers make the repeat harmless.
 */
export class InProcessTransport implements EventTransport {
  readonly deliversInline = true;
  private readonly subscribers: Array<{ spec: ConsumerSpec; deliver: Deliver }> = [];
  private readonly listeners = new Set<{ types: readonly string[]; listener: BroadcastListener }>();
  readonly parked: ParkedMessage[] = [];
  private isStopped = false;
  private readonly answerers = new Map<string, AnswerQuery>();

  constructor(
    private readonly logger: Logger,
    private readonly redelivery: RedeliveryPolicy = IN_PROCESS_REDELIVERY,
  ) {}

  async publish(envelope: EventEnvelope): Promise<void> {
    if (this.isStopped) {
      // Consumers are gone: refusing keeps the outbox row for the next start instead of losing it.
      throw new Error('in-process transport stopped');
    }
    for (const { types, listener } of this.listeners) {
      if (types.includes(envelope.type)) {
        listener.onEvent(envelope);
      }
    }
    const targets = this.subscribers.filter(({ spec }) => spec.types.includes(envelope.type));
    for (const { spec, deliver } of targets) {
      await this.deliverWithRetry(spec, deliver, envelope);
    }
  }

  /** One process: every listener hears each event as it is published; nothing can be missed. */
  async listen(types: readonly string[], listener: BroadcastListener): Promise<StopListening> {
    const entry = { types, listener };
    this.listeners.add(entry);
    return () => void this.listeners.delete(entry);
  }

  /**
   * One process, one owner per query type (D2): `ask` calls its answerer directly, through the same
   * JSON bodies and the same timeout as NATS request-reply, so both deployments behave alike.
   */
  async ask(type: string, body: string, timeoutMs: number): Promise<string> {
    const answerer = this.answerers.get(type);
    if (!answerer) {
      throw new QueryFailure('no-answerer', `no answerer of ${type} in this process`);
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new QueryFailure('timeout', `no answer to ${type} within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([answerer(body), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async answer(type: string, handler: AnswerQuery): Promise<StopListening> {
    if (this.answerers.has(type)) {
      throw new Error(`${type} is answered already in this process`);
    }
    this.answerers.set(type, handler);
    return () => void this.answerers.delete(type);
  }

  private async deliverWithRetry(
    spec: ConsumerSpec,
    deliver: Deliver,
    envelope: EventEnvelope,
  ): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await deliver(envelope);
        return;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        if (error instanceof PoisonMessageError || attempt >= this.redelivery.maxDeliveries) {
          this.parked.push({
            consumer: spec.name,
            subject: envelope.type,
            reason,
            deliveries: attempt,
            body: JSON.stringify(envelope),
          });
          this.logger.error({ consumer: spec.name, eventId: envelope.id, reason }, 'event parked');
          return;
        }
        await new Promise((resolve) =>
          setTimeout(resolve, redeliveryDelay(this.redelivery, attempt)),
        );
      }
    }
  }

  async subscribe(spec: ConsumerSpec, deliver: Deliver): Promise<void> {
    this.subscribers.push({ spec, deliver });
  }

  /** In-process events come one at a time: each is a batch of one. */
  subscribeBatches(
    spec: ConsumerSpec,
    _options: BatchSubscriptionOptions,
    deliver: DeliverBatch,
  ): Promise<void> {
    return this.subscribe(spec, (envelope) => deliver([envelope]));
  }

  /** Nothing durable to retire in one process. */
  async retireConsumer(): Promise<boolean> {
    return false;
  }

  async stopConsumers(): Promise<void> {
    this.isStopped = true;
    this.subscribers.length = 0;
  }

  async close(): Promise<void> {
    await this.stopConsumers();
  }

  async ping(): Promise<void> {}
}
