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
  /** When the oldest message of the buffer arrived (ms since the epoch); 0 while it is empty. */
  private bufferedSince = 0;

  constructor(
    private readonly messages: AsyncIterable<JsMsg>,
    private readonly maxBatch: number,
    private readonly deliverBatch: (messages: JsMsg[]) => Promise<void>,
    private readonly concurrency = 1,
    /** F42: how long a batch short of `maxBatch` waits for more before it goes; 0: at once. */
    private readonly lingerMs = 0,
  ) {}

  run(): Promise<void> {
    const gathering = this.gather();
    const processing = this.process();
    return Promise.all([gathering, processing]).then(() => undefined);
  }

  private async gather(): Promise<void> {
    try {
      for await (const message of this.messages) {
        if (this.buffer.length === 0) {
          this.bufferedSince = Date.now();
        }
        this.buffer.push(message);
        // The first message starts the wait, a full batch ends it.
        if (
          this.lingerMs === 0 ||
          this.buffer.length === 1 ||
          this.buffer.length >= this.maxBatch
        ) {
          this.wake?.();
        }
      }
    } finally {
      this.isClosed = true;
      this.wake?.();
    }
  }

  private async process(): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    for (;;) {
      let lingering = 0;
      while (
        inFlight.size < this.concurrency &&
        this.buffer.length > 0 &&
        this.failure === undefined
      ) {
        lingering = this.lingerLeft();
        if (lingering > 0) {
          break;
        }
        const batch = this.buffer.splice(0, this.maxBatch);
        this.bufferedSince = this.buffer.length > 0 ? Date.now() : 0;
        const handled: Promise<void> = this.deliverBatch(batch)
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
      let lingerTimer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        if (lingering > 0) {
          lingerTimer = setTimeout(resolve, lingering);
        }
      });
      clearTimeout(lingerTimer);
      this.wake = undefined;
    }
  }

  /** What is left of a short batch's wait (F42); a full or closing buffer does not wait. */
  private lingerLeft(): number {
    if (this.lingerMs === 0 || this.isClosed || this.buffer.length >= this.maxBatch) {
      return 0;
    }
    return Math.max(0, this.bufferedSince + this.lingerMs - Date.now());
  }
}
