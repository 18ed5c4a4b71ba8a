import {
  AckPolicy,
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
  BatchConsumerLoop,
  DEFAULT_BATCH_ACK_PENDING,
  DEFAULT_MAX_BATCH,
  DeliverBatch,
} from './batch-consumption';
import { ConsumerSpec } from './event-transport';
import { MessageDisposition } from './message-disposition';
import { RunningConsumers, openDurableConsumer } from './durable-consumers';
import { natsConnectionOptions } from './nats-connection';
import { RedeliveryPolicy } from './redelivery';
import { ensureStream, eventsStream } from './streams';
import { eventsStreamName, typeOfSubject } from './subjects';

export interface JetStreamBatchOptions extends BatchConsumerOptions {
  url: string;
}

/** A batch consumer's settings, whatever connection it reads on. */
export interface BatchConsumerOptions {
  prefix: string;
  redelivery: RedeliveryPolicy;
  ackWaitMs?: number;
  /** How long a pull waits for messages (nats.js default 30 s); also how soon a consumer made again is read from. */
  pullExpiresMs?: number;
  /** Most events handed to the handler in one call (one transaction). */
  maxBatch?: number;
  /** Batches handled at once (default 1); each is its own transaction. */
  concurrentBatches?: number;
  /** Most messages held un-acked; bounds the memory of a consumer that falls behind. */
  maxAckPending?: number;
}

/**
 * Batched JetStream consumption for high-volume consumers (issue 5: the audit ingest, which must
 * reach 20,000 events/s where one transaction per event cannot), made by
 * `JetStreamTransport.subscribeBatches` on the transport's connection. Messages are acked after the handler resolves
 * (after its commit); a failed batch is retried message by message with the transport's rules:
 * backoff, then parking in the dead-letter stream, poison at once. Idempotency is the handler's
 * (D5: the event id is a unique key).
 *
 * The consumer filters on the whole event subject space and skips (acks) other types: multiple
 * filter subjects need nats-server 2.10, and skipping is cheap next to a database write.
 */
export class JetStreamBatchConsumer {
  private readonly consumers = new RunningConsumers();
  private closing?: Promise<void>;

  private readonly disposition: MessageDisposition;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly options: BatchConsumerOptions,
    private readonly logger: Logger,
    private readonly ownsConnection: boolean,
  ) {
    this.disposition = new MessageDisposition(js, options.prefix, options.redelivery, logger);
  }

  static async connect(
    options: JetStreamBatchOptions,
    logger: Logger,
  ): Promise<JetStreamBatchConsumer> {
    const nc = await connect(natsConnectionOptions(options.url, `agp-${options.prefix}-batch`));
    const jsm = await jetstreamManager(nc);
    return new JetStreamBatchConsumer(nc, jetstream(nc), jsm, options, logger, true);
  }

  /** On the transport's own connection (one road to NATS): closing leaves the connection open. */
  static async overConnection(
    nc: NatsConnection,
    options: BatchConsumerOptions,
    logger: Logger,
  ): Promise<JetStreamBatchConsumer> {
    const jsm = await jetstreamManager(nc);
    return new JetStreamBatchConsumer(nc, jetstream(nc), jsm, options, logger, false);
  }

  async subscribe(spec: ConsumerSpec, deliverBatch: DeliverBatch): Promise<void> {
    // The stream normally exists (the transport creates it and owns its settings); a consumer may start first.
    const ensure = (): Promise<void> =>
      ensureStream(this.jsm, eventsStream(this.options.prefix), { update: false });
    await ensure();
    const maxBatch = this.options.maxBatch ?? DEFAULT_MAX_BATCH;
    const maxAckPending = this.options.maxAckPending ?? DEFAULT_BATCH_ACK_PENDING;
    const messages = await openDurableConsumer({
      jsm: this.jsm,
      js: this.js,
      prefix: this.options.prefix,
      config: {
        durable_name: spec.name,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        filter_subject: `${this.options.prefix}.events.>`,
        max_deliver: this.options.redelivery.maxDeliveries + 1,
        ack_wait: nanos(this.options.ackWaitMs ?? 30_000),
        max_ack_pending: maxAckPending,
      },
      consume: {
        max_messages: Math.min(maxAckPending, maxBatch * 4),
        ...(this.options.pullExpiresMs ? { expires: this.options.pullExpiresMs } : {}),
      },
      ensureStream: ensure,
      logger: this.logger,
    });
    const wanted = new Set(spec.types);
    const loop = new BatchConsumerLoop(
      messages,
      maxBatch,
      (batch) => this.handleBatch(spec, wanted, batch, deliverBatch),
      this.options.concurrentBatches,
    );
    const running = loop.run().catch((error: unknown) => {
      // The connection was closed under it: un-acked messages come back after ack wait anyway.
      this.logger.warn({ err: error, consumer: spec.name }, 'batch consumer stopped');
    });
    this.consumers.add(messages, running);
  }

  /**
   * Deletes a durable consumer of the events stream that nothing reads any more (a consumer a
   * previous release had); true when there was one. Replicas may race to it: one deletes, the
   * others find it gone.
   */
  async retireConsumer(name: string): Promise<boolean> {
    return this.jsm.consumers
      .delete(eventsStreamName(this.options.prefix), name)
      .catch(() => false);
  }

  private async handleBatch(
    spec: ConsumerSpec,
    wanted: ReadonlySet<string>,
    batch: JsMsg[],
    deliverBatch: DeliverBatch,
  ): Promise<void> {
    if (this.consumers.isStopping) {
      this.consumers.handBack(...batch);
      return;
    }
    const parsed: Array<{ message: JsMsg; envelope: EventEnvelope }> = [];
    for (const message of batch) {
      if (!wanted.has(typeOfSubject(this.options.prefix, message.subject))) {
        this.disposition.ack(message);
        continue;
      }
      try {
        parsed.push({ message, envelope: message.json<EventEnvelope>() });
      } catch {
        await this.disposition.park(spec, message, 'body is not JSON');
      }
    }
    if (parsed.length === 0) {
      return;
    }
    try {
      await deliverBatch(parsed.map((p) => p.envelope));
    } catch (error) {
      this.logger.warn(
        { consumer: spec.name, size: parsed.length, err: error },
        'batch failed; retrying one by one',
      );
      for (const { message, envelope } of parsed) {
        await this.handleOne(spec, message, envelope, deliverBatch);
      }
      return;
    }
    parsed.forEach((p) => this.disposition.ack(p.message));
  }

  private async handleOne(
    spec: ConsumerSpec,
    message: JsMsg,
    envelope: EventEnvelope,
    deliverBatch: DeliverBatch,
  ): Promise<void> {
    try {
      await deliverBatch([envelope]);
    } catch (error) {
      await this.disposition.failed(spec, message, envelope.id, error);
      return;
    }
    this.disposition.ack(message);
  }

  /** Stops pulling; the batch in hand finishes (and is acked), gathered ones go back. */
  async stop(): Promise<void> {
    await this.consumers.stop(this.nc, this.disposition);
  }

  /** Idempotent: a process may be asked to shut down twice (signal handler and shutdown hook). */
  async close(): Promise<void> {
    this.closing ??= this.stop().then(async () => {
      if (this.ownsConnection && !this.nc.isClosed() && !this.nc.isDraining()) {
        await this.nc.drain();
      }
    });
    await this.closing;
  }
}
