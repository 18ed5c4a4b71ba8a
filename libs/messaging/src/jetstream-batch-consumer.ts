import { JsMsg } from '@nats-io/jetstream';
import { EventEnvelope } from '@agp/contracts';
import { Logger } from 'pino';

import { ConsumerSpec, DeliverBatch } from './event-transport';
import { MessageDisposition } from './message-disposition';
import { typeOfSubject } from './subjects';

export type DeliverOne = (message: JsMsg, envelope: EventEnvelope) => Promise<void>;

interface ParsedMessage {
  message: JsMsg;
  envelope: EventEnvelope;
}

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
    const parsed: ParsedMessage[] = [];
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
        'batch failed; retrying it in halves',
      );
      await this.deliverInHalves(parsed);
      return;
    }
    parsed.forEach((p) => this.disposition.ack(p.message));
  }

  /**
   * F61: a failed batch is split in halves until each failing part is one event, which goes to
   * `deliverOne` (retried, then parked). k poison events in n cost about 2k·log₂(n/k) transactions
   * instead of n, so a producer's stray invalid event no longer turns a batch of 1,000 into 1,000
   * transactions (A43). Order is kept: the earlier half is delivered first.
   */
  private async deliverInHalves(parsed: ParsedMessage[]): Promise<void> {
    if (parsed.length === 1) {
      const [only] = parsed as [ParsedMessage];
      await this.deliverOne(only.message, only.envelope);
      return;
    }
    const middle = Math.ceil(parsed.length / 2);
    for (const half of [parsed.slice(0, middle), parsed.slice(middle)]) {
      if (half.length === 1) {
        await this.deliverInHalves(half);
        continue;
      }
      try {
        await this.deliverBatch(half.map((p) => p.envelope));
      } catch {
        await this.deliverInHalves(half);
        continue;
      }
      half.forEach((p) => this.disposition.ack(p.message));
    }
  }
}
