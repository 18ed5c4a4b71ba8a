import { JsMsg } from '@nats-io/jetstream';

export type { DeliverBatch } from './event-transport';

export const DEFAULT_MAX_BATCH = 500;
export const DEFAULT_BATCH_ACK_PENDING = 10_000;

/** Messages are acked only after their batch handler resolved (after its commit) (D5). */
export class BatchConsumerLoop {
  private readonly buffer: JsMsg[] = [];
  private wake?: () => void;
  private isClosed = false;
  private failure?: Error;

  constructor(
    private readonly messages: AsyncIterable<JsMsg>,
    private readonly maxBatch: number,
    private readonly deliverBatch: (messages: JsMsg[]) => Promise<void>,
    private readonly concurrency = 1,
  ) {}

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
    const inFlight = new Set<Promise<void>>();
    for (;;) {
      while (
        inFlight.size < this.concurrency &&
        this.buffer.length > 0 &&
        this.failure === undefined
      ) {
        const handled: Promise<void> = this.deliverBatch(this.buffer.splice(0, this.maxBatch))
          .catch((error: unknown) => {
            this.failure ??=
              error instanceof Error ? error : new Error('batch handler failed', { cause: error });
          })
          .finally(() => {
            inFlight.delete(handled);
            this.wake?.();
          });
        inFlight.add(handled);
      }
      if (this.failure !== undefined || (this.isClosed && this.buffer.length === 0)) {
        await Promise.all(inFlight);
        if (this.failure !== undefined) {
          throw this.failure;
        }
        return;
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
    }
  }
}
