import { JetStreamClient, JsMsg } from '@nats-io/jetstream';
import { NatsConnection, headers } from '@nats-io/transport-node';
import { Logger } from 'pino';

import { ConsumerSpec, PoisonMessageError } from './event-transport';
import { RedeliveryPolicy, redeliveryDelay } from './redelivery';
import { deadLetterSubject } from './subjects';

/** Ack, redeliver with backoff, or park (poison at once, else after bounded deliveries, F6). */
export class MessageDisposition {
  constructor(
    private readonly js: JetStreamClient,
    private readonly prefix: string,
    private readonly redelivery: RedeliveryPolicy,
    private readonly logger: Logger,
  ) {}

  settle(action: () => void): void {
    try {
      action();
    } catch (error) {
      this.logger.warn({ err: error }, 'could not settle a message; it will be redelivered');
    }
  }

  ack(message: JsMsg): void {
    this.settle(() => message.ack());
  }

  async failed(spec: ConsumerSpec, message: JsMsg, eventId: string, error: unknown): Promise<void> {
    const deliveries = message.info.deliveryCount;
    const reason = error instanceof Error ? error.message : String(error);
    if (error instanceof PoisonMessageError || deliveries >= this.redelivery.maxDeliveries) {
      await this.park(spec, message, reason);
      return;
    }
    this.logger.warn({ consumer: spec.name, eventId, deliveries, reason }, 'event redelivery');
    this.settle(() => message.nak(redeliveryDelay(this.redelivery, deliveries)));
  }

  /** Poison: copied to the dead-letter stream with why, then terminated so the others go through. */
  async park(spec: ConsumerSpec, message: JsMsg, reason: string): Promise<void> {
    const h = headers();
    h.set('Agp-Consumer', spec.name);
    h.set('Agp-Original-Subject', message.subject);
    h.set('Agp-Reason', reason.slice(0, 500));
    h.set('Agp-Deliveries', String(message.info.deliveryCount));
    try {
      await this.js.publish(deadLetterSubject(this.prefix, spec.name), message.data, {
        headers: h,
        msgID: `${spec.name}:${message.info.streamSequence}`,
      });
      // No reason on the TERM (it is in the dead-letter headers): nats-server < 2.11 ignores a
      // TERM that carries one and redelivers the message after ack wait.
      this.settle(() => message.term());
      this.logger.error({ consumer: spec.name, subject: message.subject, reason }, 'event parked');
    } catch (error) {
      // Could not park: leave it for redelivery rather than lose it.
      this.logger.error({ err: error, consumer: spec.name }, 'parking failed');
      this.settle(() => message.nak(redeliveryDelay(this.redelivery, message.info.deliveryCount)));
    }
  }

  // Messages fetched but not started when consumption stopped go back at once rather than after ack
  // wait, but only after a round trip, once the server has dropped the pending pull requests: a nak
  // sent earlier can be redelivered straight into one of them, to an inbox nobody reads.
  async handBack(nc: NatsConnection, messages: JsMsg[]): Promise<void> {
    if (messages.length > 0 && !nc.isClosed()) {
      await nc.flush().catch(() => undefined);
      messages.forEach((message) => this.settle(() => message.nak()));
    }
  }
}
