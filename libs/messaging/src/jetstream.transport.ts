import { randomUUID } from 'node:crypto';

import {
  AckPolicy,
  ConsumerMessages,
  DeliverPolicy,
  JetStreamClient,
  JetStreamManager,
  JsMsg,
  jetstream,
  jetstreamManager,
} from '@nats-io/jetstream';
import { NatsConnection, connect, nanos } from '@nats-io/transport-node';
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
  StopListening,
} from './event-transport';
import { AcknowledgedPublishes } from './acknowledged-publishes';
import { countDeadLetters, readDeadLetters } from './dead-letters';
import { RunningConsumers, openDurableConsumer } from './durable-consumers';
import {
  BatchConsumerLoop,
  DEFAULT_BATCH_ACK_PENDING,
  DEFAULT_MAX_BATCH,
} from './batch-consumption';
import { JetStreamBatchConsumer } from './jetstream-batch-consumer';
import { MessageDisposition } from './message-disposition';
import { natsConnectionOptions } from './nats-connection';
import { answerOverNats, askOverNats } from './nats-queries';
import { RedeliveryPolicy } from './redelivery';
import { deadLetterStream, ensureStream, eventsStream } from './streams';
import { eventSubject, eventsStreamName, querySubject, typeOfSubject } from './subjects';

export interface JetStreamOptions {
  url: string;
  prefix: string;
  redelivery: RedeliveryPolicy;
  ackWaitMs?: number;
  pullExpiresMs?: number;
  duplicateWindowMs?: number;
  /** Messages a consumer holds un-acked at once. */
  batchSize?: number;
  /** How long a publish waits for the stream's acknowledgement (the relay retries after). */
  publishTimeoutMs?: number;
}

function supportsMultipleFilters(version: string | undefined): boolean {
  const [major = 0, minor = 0] = (version ?? '0.0')
    .split('.')
    .map((part) => Number.parseInt(part, 10));
  return major > 2 || (major === 2 && minor >= 10);
}

/** D5 on NATS JetStream: durable streams and consumers, explicit ack, backoff, a dead-letter stream. */
export class JetStreamTransport implements EventTransport {
  private readonly consumers = new RunningConsumers();

  private readonly disposition: MessageDisposition;
  private readonly acknowledged: AcknowledgedPublishes;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly options: JetStreamOptions,
    private readonly logger: Logger,
  ) {
    this.disposition = new MessageDisposition(js, options.prefix, options.redelivery, logger);
    this.acknowledged = new AcknowledgedPublishes(nc);
  }

  static async connect(options: JetStreamOptions, logger: Logger): Promise<JetStreamTransport> {
    const nc = await connect(natsConnectionOptions(options.url, `agp-${options.prefix}`));
    return JetStreamTransport.overConnection(nc, options, logger);
  }

  static async overConnection(
    nc: NatsConnection,
    options: JetStreamOptions,
    logger: Logger,
  ): Promise<JetStreamTransport> {
    const timeout = options.publishTimeoutMs ?? 5_000;
    const jsm = await jetstreamManager(nc, { timeout });
    const transport = new JetStreamTransport(nc, jetstream(nc, { timeout }), jsm, options, logger);
    transport.watchStatus();
    await transport.ensureStreams();
    return transport;
  }

  private async ensureStreams(): Promise<void> {
    const { prefix, duplicateWindowMs } = this.options;
    await ensureStream(this.jsm, eventsStream(prefix, duplicateWindowMs), { update: true });
    await ensureStream(this.jsm, deadLetterStream(prefix, duplicateWindowMs), { update: true });
  }

  async publish(envelope: EventEnvelope): Promise<void> {
    await this.js.publish(
      eventSubject(this.options.prefix, envelope.type),
      JSON.stringify(envelope),
      {
        msgID: envelope.id,
      },
    );
  }

  async publishAcknowledged(
    envelopes: ReadonlyArray<EventEnvelope>,
    timeoutMs: number,
  ): Promise<void> {
    if (!this.isConnected || this.nc.isClosed()) {
      throw new Error('NATS is not connected');
    }
    // Pipelined on the one connection, as the outbox relay publishes; the id is the message id,
    // so a later publish of the same event (the outbox after a timeout here) is dropped (D5).
    await this.acknowledged.publish(
      envelopes.map((envelope) => ({
        subject: eventSubject(this.options.prefix, envelope.type),
        payload: JSON.stringify(envelope),
        id: envelope.id,
      })),
      timeoutMs,
    );
  }

  // Under a message id of its own, so that the duplicate window does not drop it (D5).
  async replay(envelope: EventEnvelope): Promise<void> {
    await this.js.publish(
      eventSubject(this.options.prefix, envelope.type),
      JSON.stringify(envelope),
      { msgID: randomUUID() },
    );
  }

  async subscribeBatches(
    spec: ConsumerSpec,
    options: BatchSubscriptionOptions,
    deliver: DeliverBatch,
  ): Promise<void> {
    const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
    const maxAckPending = DEFAULT_BATCH_ACK_PENDING;
    const messages = await this.openConsumer(
      spec,
      { filter_subject: eventSubject(this.options.prefix, '>') },
      { maxAckPending, maxMessages: Math.min(maxAckPending, maxBatch * 4) },
    );
    const batches = new JetStreamBatchConsumer(
      spec,
      deliver,
      this.options.prefix,
      this.disposition,
      this.logger,
      (message, envelope) => this.deliverOne(spec, message, envelope, (e) => deliver([e])),
    );
    const loop = new BatchConsumerLoop(
      messages,
      maxBatch,
      (batch) => {
        if (this.consumers.isStopping) {
          this.consumers.handBack(...batch);
          return Promise.resolve();
        }
        return batches.handle(batch);
      },
      options.concurrentBatches,
      options.lingerMs,
    );
    this.run(spec, messages, loop.run());
  }

  async retireConsumer(name: string): Promise<boolean> {
    return this.jsm.consumers
      .delete(eventsStreamName(this.options.prefix), name)
      .catch(() => false);
  }

  // Core NATS subscriptions on the subjects JetStream stores the types under, on this transport's
  // connection: the outbox publishes each event once, after commit, and every replica hears it.
  async listen(types: readonly string[], listener: BroadcastListener): Promise<StopListening> {
    const subscriptions = types.map((type) =>
      this.nc.subscribe(eventSubject(this.options.prefix, type), {
        callback: (error, message) => {
          try {
            if (error) {
              throw error;
            }
            listener.onEvent(message.json<EventEnvelope>());
          } catch {
            listener.onGap();
          }
        },
      }),
    );
    this.gapListeners.add(listener);
    await this.nc.flush();
    return () => {
      subscriptions.forEach((subscription) => subscription.unsubscribe());
      this.gapListeners.delete(listener);
    };
  }

  ask(type: string, body: string, timeoutMs: number): Promise<string> {
    return askOverNats(this.nc, querySubject(this.options.prefix, type), body, timeoutMs);
  }

  answer(type: string, handler: AnswerQuery): Promise<StopListening> {
    return answerOverNats(this.nc, querySubject(this.options.prefix, type), handler, this.logger);
  }

  private readonly gapListeners = new Set<BroadcastListener>();
  /** False between a disconnect and the reconnect: `publishAcknowledged` refuses at once. */
  private isConnected = true;

  private watchStatus(): void {
    void (async () => {
      for await (const status of this.nc.status()) {
        if (status.type === 'disconnect') {
          this.isConnected = false;
        } else if (status.type === 'reconnect') {
          this.isConnected = true;
          this.logger.warn('NATS reconnected: broadcast listeners may have missed events');
          this.gapListeners.forEach((listener) => listener.onGap());
        }
      }
    })().catch(() => undefined);
  }

  async subscribe(spec: ConsumerSpec, deliver: Deliver): Promise<void> {
    const messages = await this.openConsumer(spec, this.filterOf(spec), {
      maxAckPending: 1_000,
      maxMessages: this.options.batchSize ?? 16,
    });
    this.run(spec, messages, this.consumeLoop(spec, messages, deliver));
  }

  /** Every durable consumer of the events stream, one by one or in batches, starts so (F19). */
  private openConsumer(
    spec: ConsumerSpec,
    filter: { filter_subject: string } | { filter_subjects: string[] },
    limits: { maxAckPending: number; maxMessages: number },
  ): Promise<ConsumerMessages> {
    const { prefix, duplicateWindowMs, redelivery, ackWaitMs, pullExpiresMs } = this.options;
    return openDurableConsumer({
      jsm: this.jsm,
      js: this.js,
      prefix,
      config: {
        durable_name: spec.name,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        ...filter,
        max_deliver: redelivery.maxDeliveries + 1,
        ack_wait: nanos(ackWaitMs ?? 30_000),
        max_ack_pending: limits.maxAckPending,
      },
      consume: {
        max_messages: limits.maxMessages,
        ...(pullExpiresMs ? { expires: pullExpiresMs } : {}),
      },
      ensureStream: () =>
        ensureStream(this.jsm, eventsStream(prefix, duplicateWindowMs), { update: true }),
      logger: this.logger,
    });
  }

  private run(spec: ConsumerSpec, messages: ConsumerMessages, loop: Promise<void>): void {
    const running = loop.catch((error: unknown) => {
      this.logger.warn({ err: error, consumer: spec.name }, 'consumer stopped');
    });
    this.consumers.add(messages, running);
  }

  private filterOf(spec: ConsumerSpec): { filter_subject: string } | { filter_subjects: string[] } {
    const subjects = spec.types.map((type) => eventSubject(this.options.prefix, type));
    if (subjects.length === 1) {
      return { filter_subject: subjects[0] };
    }
    return supportsMultipleFilters(this.nc.info?.version)
      ? { filter_subjects: subjects }
      : { filter_subject: eventSubject(this.options.prefix, '>') };
  }

  private async consumeLoop(
    spec: ConsumerSpec,
    messages: ConsumerMessages,
    deliver: Deliver,
  ): Promise<void> {
    for await (const message of messages) {
      if (this.consumers.isStopping) {
        this.consumers.handBack(message);
        continue;
      }
      await this.handle(spec, message, deliver);
    }
  }

  private async handle(spec: ConsumerSpec, message: JsMsg, deliver: Deliver): Promise<void> {
    if (!spec.types.includes(typeOfSubject(this.options.prefix, message.subject))) {
      this.disposition.ack(message);
      return;
    }
    let envelope: EventEnvelope;
    try {
      envelope = message.json<EventEnvelope>();
    } catch {
      await this.disposition.park(spec, message, 'body is not JSON');
      return;
    }
    await this.deliverOne(spec, message, envelope, deliver);
  }

  private async deliverOne(
    spec: ConsumerSpec,
    message: JsMsg,
    envelope: EventEnvelope,
    deliver: Deliver,
  ): Promise<void> {
    try {
      await deliver(envelope);
    } catch (error) {
      await this.disposition.failed(spec, message, envelope.id, error);
      return;
    }
    this.disposition.ack(message);
  }

  // Naks what was fetched but not started, so another replica gets it now, not after ack wait.
  async stopConsumers(): Promise<void> {
    await this.consumers.stop(this.nc, this.disposition);
  }

  async close(): Promise<void> {
    await this.stopConsumers();
    if (!this.nc.isClosed()) {
      await this.nc.drain();
    }
  }

  async ping(): Promise<void> {
    await this.nc.flush();
  }

  deadLetterCount(): Promise<number> {
    return countDeadLetters(this.jsm, this.options.prefix);
  }

  /** For operators and tests: the parked messages with why (oldest first, at most `limit`). */
  deadLetters(limit = 100): Promise<ParkedMessage[]> {
    return readDeadLetters(this.jsm, this.options.prefix, limit);
  }
}
