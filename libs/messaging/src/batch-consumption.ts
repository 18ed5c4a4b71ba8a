import { ConsumerMessages, JsMsg } from '@nats-io/jetstream';
import { EventEnvelope } from '@agp/contracts';

/**
 * Delivers a batch of events to a consumer that handles them in one transaction. Throwing means
 * "none of them done": the transport then retries them one by one, so a poison message is isolated
 * and parked without holding the others back.
 */
export type DeliverBatch = (envelopes: EventEnvelope[]) => Promise<void>;

export const DEFAULT_MAX_BATCH = 500;
export const DEFAULT_BATCH_ACK_PENDING = 10_000;

/**
 * Gathers messages from a JetStream `consume()` iterator into batches: whatever has arrived (up to
 * `maxBatch`) is handed over as soon as the previous batch is done, so a busy stream gets large
 * batches and a quiet one gets prompt single deliveries. Messages are acked only after the batch
 * handler resolved (after its commit); un-acked ones come back after ack_wait, and the consumer's
 * idempotency makes that harmless (D5).
 */
export class BatchConsumerLoop {
  private readonly buffer: JsMsg[] = [];
  private wake?: () => void;
  private isClosed = false;

  constructor(
    private readonly messages: ConsumerMessages,
    private readonly maxBatch: number,
    private readonly deliverBatch: (messages: JsMsg[]) => Promise<void>,
  ) {}

  /** Resolves when the iterator has ended and every gathered message has been handled. */
  run(): Promise<void> {
    const gathering = this.gather();
    const processing = this.process();
    return Promise.all([gathering, processing]).then(() => undefined);
  }

  private async gather(): Promise<void> {
    try {
      for await (const message of this.messages) {
        this.buffer.push(message);
        this.wake?.();
      }
    } finally {
      this.isClosed = true;
      this.wake?.();
    }
  }

  private async process(): Promise<void> {
    for (;;) {
      if (this.buffer.length === 0) {
        if (this.isClosed) {
          return;
        }
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
        this.wake = undefined;
        continue;
      }
      const batch = this.buffer.splice(0, this.maxBatch);
      await this.deliverBatch(batch);
    }
  }
}
