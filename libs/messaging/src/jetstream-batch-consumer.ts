import { JsMsg } from '@nats-io/jetstream';
import { EventEnvelope } from '@agp/contracts';
import { Logger } from 'pino';

import { ConsumerSpec, DeliverBatch } from './event-transport';
import { MessageDisposition } from './message-disposition';
import { typeOfSubject } from './subjects';

/** How the transport delivers one message of a consumer: ack, redeliver or park after it. */
export type DeliverOne = (message: JsMsg, envelope: EventEnvelope) => Promise<void>;

/**
 * The batches of one batched durable subscription (`JetStreamTransport.subscribeBatches`), for
 * high-volume consumers (issue 5: the audit ingest, which must reach 20,000 events/s where one
 * transaction per event cannot). The transport opens, stops and closes it with its other durable
 * consumers, on its own connection; this is only what differs: messages are acked after the
 * handler resolved for the whole batch (after its commit), and a failed batch is retried message by
 * message with the transport's rules (backoff, then parking in the dead-letter stream, poison at
 * once). Idempotency is the handler's (D5: the event id is a unique key).
 *
 * The consumer filters on the whole event subject space and skips (acks) other types: multiple
 * filter subjects need nats-server 2.10, and skipping is cheap next to a database write.
 */
export class JetStreamBatchConsumer {
  private readonly wanted: ReadonlySet<string>;

  constructor(
    private readonly spec: ConsumerSpec,
    private readonly deliverBatch: DeliverBatch,
    private readonly prefix: string,
    private readonly disposition: MessageDisposition,
    private readonly logger: Logger,
    private readonly deliverOne: DeliverOne,
  ) {
    this.wanted = new Set(spec.types);
  }

  async handle(batch: JsMsg[]): Promise<void> {
    const parsed: Array<{ message: JsMsg; envelope: EventEnvelope }> = [];
    for (const message of batch) {
      if (!this.wanted.has(typeOfSubject(this.prefix, message.subject))) {
        this.disposition.ack(message);
        continue;
      }
      try {
        parsed.push({ message, envelope: message.json<EventEnvelope>() });
      } catch {
        await this.disposition.park(this.spec, message, 'body is not JSON');
      }
    }
    if (parsed.length === 0) {
      return;
    }
    try {
      await this.deliverBatch(parsed.map((p) => p.envelope));
    } catch (error) {
      this.logger.warn(
        { consumer: this.spec.name, size: parsed.length, err: error },
        'batch failed; retrying one by one',
      );
      for (const { message, envelope } of parsed) {
        await this.deliverOne(message, envelope);
      }
      return;
    }
    parsed.forEach((p) => this.disposition.ack(p.message));
  }
}
