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

/** The embedded default's bus (D2). */
export class InProcessTransport implements EventTransport {
  readonly deliversInline = true;
  private readonly subscribers: Array<{
    spec: ConsumerSpec;
    deliver: Deliver;
    /** A batch subscriber's own delivery: what `publishInline` hands its events to at once. */
    deliverBatch?: DeliverBatch;
  }> = [];
  private readonly listeners = new Set<{ types: readonly string[]; listener: BroadcastListener }>();
  readonly parked: ParkedMessage[] = [];
  private isStopped = false;
  private readonly answerers = new Map<string, AnswerQuery>();

  constructor(
    private readonly logger: Logger,
    private readonly redelivery: RedeliveryPolicy = IN_PROCESS_REDELIVERY,
  ) {}

  async publish(envelope: EventEnvelope): Promise<void> {
    await this.runConsumers([envelope]);
  }

  /** F32: every listener hears each event in order. */
  publishInline(envelopes: ReadonlyArray<EventEnvelope>): Promise<void> {
    return this.runConsumers(envelopes);
  }

  private async runConsumers(envelopes: ReadonlyArray<EventEnvelope>): Promise<void> {
    if (this.isStopped) {
      // Consumers are gone: refusing keeps the outbox rows for the next start instead of losing them.
      throw new Error('in-process transport stopped');
    }
    for (const envelope of envelopes) {
      for (const { types, listener } of this.listeners) {
        if (types.includes(envelope.type)) {
          listener.onEvent(envelope);
        }
      }
    }
    for (const { spec, deliver, deliverBatch } of [...this.subscribers]) {
      const mine = envelopes.filter((envelope) => spec.types.includes(envelope.type));
      if (
        mine.length > 1 &&
        deliverBatch &&
        (await this.deliverBatchOnce(spec, deliverBatch, mine))
      ) {
        continue;
      }
      for (const envelope of mine) {
        await this.deliverWithRetry(spec, deliver, envelope);
      }
    }
  }

  async listen(types: readonly string[], listener: BroadcastListener): Promise<StopListening> {
    const entry = { types, listener };
    this.listeners.add(entry);
    return () => void this.listeners.delete(entry);
  }

  /** One process, one owner per query type (D2). */
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

  /** A batch is what one `publishInline` carries of the subscriber's types (F32). */
  async subscribeBatches(
    spec: ConsumerSpec,
    _options: BatchSubscriptionOptions,
    deliver: DeliverBatch,
  ): Promise<void> {
    this.subscribers.push({
      spec,
      deliver: (envelope) => deliver([envelope]),
      deliverBatch: deliver,
    });
  }

  private async deliverBatchOnce(
    spec: ConsumerSpec,
    deliverBatch: DeliverBatch,
    envelopes: EventEnvelope[],
  ): Promise<boolean> {
    for (let attempt = 1; attempt < this.redelivery.maxDeliveries; attempt += 1) {
      try {
        await deliverBatch(envelopes);
        return true;
      } catch (error) {
        if (error instanceof PoisonMessageError) {
          return false;
        }
        this.logger.warn(
          { consumer: spec.name, events: envelopes.length, err: error },
          'event batch failed; retrying',
        );
        await new Promise((resolve) =>
          setTimeout(resolve, redeliveryDelay(this.redelivery, attempt)),
        );
      }
    }
    return false;
  }

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
