import {
  AckPolicy,
  ConsumerMessages,
  DeliverPolicy,
  JetStreamClient,
  JetStreamManager,
  JsMsg,
  RetentionPolicy,
  StorageType,
  jetstream,
  jetstreamManager,
} from '@nats-io/jetstream';
import { NatsConnection, connect, headers, nanos } from '@nats-io/transport-node';
import { EventEnvelope } from '@agp/contracts';
import { Logger } from 'pino';

import { BatchConsumerLoop, DEFAULT_BATCH_ACK_PENDING, DEFAULT_MAX_BATCH, DeliverBatch } from './batch-consumption';
import { ConsumerSpec, PoisonMessageError } from './event-transport';
import { RedeliveryPolicy, redeliveryDelay } from './redelivery';
import { deadLetterSubject, eventsStreamName, typeOfSubject } from './subjects';

export interface JetStreamBatchOptions {
  url: string;
  prefix: string;
  redelivery: RedeliveryPolicy;
  ackWaitMs?: number;
  /** Most events handed to the handler in one call (one transaction). */
  maxBatch?: number;
  /** Most messages held un-acked; bounds the memory of a consumer that falls behind. */
  maxAckPending?: number;
}

const DAY_MS = 86_400_000;

/**
 * Batched JetStream consumption for high-volume consumers (issue 5: the audit ingest, which must
 * reach 20,000 events/s where one transaction per event cannot). It has its own connection so
 * that it adds to the transport without changing it. Messages are acked after the handler resolves
 * (after its commit); a failed batch is retried message by message with the transport's rules:
 * backoff, then parking in the dead-letter stream, poison at once. Idempotency is the handler's
 * (D5: the event id is a unique key).
 *
 * The consumer filters on the whole event subject space and skips (acks) other types: multiple
 * filter subjects need nats-server 2.10, and skipping is cheap next to a database write.
 */
export class JetStreamBatchConsumer {
  private readonly running: Array<{ messages: ConsumerMessages; loop: Promise<void> }> = [];
  private isStopping = false;
  private closing?: Promise<void>;
  /** Gathered but not started when the consumer stopped: nak'd once pulling has really stopped. */
  private readonly handedBack: JsMsg[] = [];

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly options: JetStreamBatchOptions,
    private readonly logger: Logger,
  ) {}

  static async connect(options: JetStreamBatchOptions, logger: Logger): Promise<JetStreamBatchConsumer> {
    const nc = await connect({
      servers: options.url,
      name: `agp-${options.prefix}-batch`,
      reconnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
    });
    const jsm = await jetstreamManager(nc);
    return new JetStreamBatchConsumer(nc, jetstream(nc), jsm, options, logger);
  }

  async subscribe(spec: ConsumerSpec, deliverBatch: DeliverBatch): Promise<void> {
    const stream = eventsStreamName(this.options.prefix);
    await this.ensureStream(stream);
    const maxBatch = this.options.maxBatch ?? DEFAULT_MAX_BATCH;
    const maxAckPending = this.options.maxAckPending ?? DEFAULT_BATCH_ACK_PENDING;
    const config = {
      durable_name: spec.name,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: `${this.options.prefix}.events.>`,
      max_deliver: this.options.redelivery.maxDeliveries + 1,
      ack_wait: nanos(this.options.ackWaitMs ?? 30_000),
      max_ack_pending: maxAckPending,
    };
    try {
      await this.jsm.consumers.add(stream, config);
    } catch {
      await this.jsm.consumers.update(stream, spec.name, config);
    }
    const consumer = await this.js.consumers.get(stream, spec.name);
    const messages = await consumer.consume({ max_messages: Math.min(maxAckPending, maxBatch * 4) });
    const wanted = new Set(spec.types);
    const loop = new BatchConsumerLoop(messages, maxBatch, (batch) => this.handleBatch(spec, wanted, batch, deliverBatch));
    const running = loop.run().catch((error: unknown) => {
      // The connection was closed under it: un-acked messages come back after ack wait anyway.
      this.logger.warn({ err: error, consumer: spec.name }, 'batch consumer stopped');
    });
    this.running.push({ messages, loop: running });
  }

  /** The stream normally exists (the transport creates it); a consumer may start first. */
  private async ensureStream(name: string): Promise<void> {
    try {
      await this.jsm.streams.info(name);
    } catch {
      await this.jsm.streams
        .add({
          name,
          subjects: [`${this.options.prefix}.events.>`],
          storage: StorageType.File,
          retention: RetentionPolicy.Limits,
          max_age: nanos(7 * DAY_MS),
          duplicate_window: nanos(10 * 60_000),
        })
        .catch(async (error: unknown) => {
          await this.jsm.streams.info(name).catch(() => {
            throw error;
          });
        });
    }
  }

  private async handleBatch(
    spec: ConsumerSpec,
    wanted: ReadonlySet<string>,
    batch: JsMsg[],
    deliverBatch: DeliverBatch,
  ): Promise<void> {
    if (this.isStopping) {
      this.handedBack.push(...batch);
      return;
    }
    const parsed: Array<{ message: JsMsg; envelope: EventEnvelope }> = [];
    for (const message of batch) {
      if (!wanted.has(typeOfSubject(this.options.prefix, message.subject))) {
        this.settle(() => message.ack());
        continue;
      }
      try {
        parsed.push({ message, envelope: message.json<EventEnvelope>() });
      } catch {
        await this.park(spec, message, 'body is not JSON');
      }
    }
    if (parsed.length === 0) {
      return;
    }
    try {
      await deliverBatch(parsed.map((p) => p.envelope));
    } catch (error) {
      this.logger.warn({ consumer: spec.name, size: parsed.length, err: error }, 'batch failed; retrying one by one');
      for (const { message, envelope } of parsed) {
        await this.handleOne(spec, message, envelope, deliverBatch);
      }
      return;
    }
    parsed.forEach((p) => this.settle(() => p.message.ack()));
  }

  /** Ack, nak or term; if the connection is gone the server redelivers after ack wait anyway. */
  private settle(action: () => void): void {
    try {
      action();
    } catch (error) {
      this.logger.warn({ err: error }, 'could not settle a message; it will be redelivered');
    }
  }

  private async handleOne(spec: ConsumerSpec, message: JsMsg, envelope: EventEnvelope, deliverBatch: DeliverBatch): Promise<void> {
    const deliveries = message.info.deliveryCount;
    try {
      await deliverBatch([envelope]);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (error instanceof PoisonMessageError || deliveries >= this.options.redelivery.maxDeliveries) {
        await this.park(spec, message, reason);
        return;
      }
      this.logger.warn({ consumer: spec.name, eventId: envelope.id, deliveries, reason }, 'event redelivery');
      this.settle(() => message.nak(redeliveryDelay(this.options.redelivery, deliveries)));
      return;
    }
    this.settle(() => message.ack());
  }

  /** Same parking as the transport: a copy with why in the dead-letter stream, then terminated. */
  private async park(spec: ConsumerSpec, message: JsMsg, reason: string): Promise<void> {
    const h = headers();
    h.set('Agp-Consumer', spec.name);
    h.set('Agp-Original-Subject', message.subject);
    h.set('Agp-Reason', reason.slice(0, 500));
    h.set('Agp-Deliveries', String(message.info.deliveryCount));
    try {
      await this.js.publish(deadLetterSubject(this.options.prefix, spec.name), message.data, {
        headers: h,
        msgID: `${spec.name}:${message.info.streamSequence}`,
      });
      // No reason on the TERM: nats-server < 2.11 ignores a TERM carrying one and redelivers.
      this.settle(() => message.term());
      this.logger.error({ consumer: spec.name, subject: message.subject, reason }, 'event parked');
    } catch (error) {
      this.logger.error({ err: error, consumer: spec.name }, 'parking failed');
      this.settle(() => message.nak(redeliveryDelay(this.options.redelivery, message.info.deliveryCount)));
    }
  }

  /**
   * Stops pulling; the batch in hand finishes (and is acked), gathered ones go back — nak'd only
   * after a round trip, once the server has dropped the pending pull requests (a nak sent earlier
   * can be redelivered into one of them and then waits for ack wait; see JetStreamTransport).
   */
  async stop(): Promise<void> {
    this.isStopping = true;
    await Promise.all(this.running.map(({ messages }) => messages.close()));
    await Promise.all(this.running.map(({ loop }) => loop));
    this.running.length = 0;
    const handedBack = this.handedBack.splice(0);
    if (handedBack.length > 0 && !this.nc.isClosed()) {
      await this.nc.flush().catch(() => undefined);
      handedBack.forEach((message) => this.settle(() => message.nak()));
    }
  }

  /** Idempotent: a process may be asked to shut down twice (signal handler and shutdown hook). */
  async close(): Promise<void> {
    this.closing ??= this.stop().then(async () => {
      if (!this.nc.isClosed() && !this.nc.isDraining()) {
        await this.nc.drain();
      }
    });
    await this.closing;
  }
}
