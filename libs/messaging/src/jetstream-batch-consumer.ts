import { JsMsg } from '@nats-io/jetstream';
import { EventEnvelope } from '@agp/contracts';
import { Logger } from 'pino';

import { ConsumerSpec, DeliverBatch } from './event-transport';
import { MessageDisposition } from './message-disposition';
import { typeOfSubject } from './subjects';

export type DeliverOne = (message: JsMsg, envelope: EventEnvelope) => Promise<void>;

/** Idempotency is the handler's (D5: the event id is a unique key, issue 5). */
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
