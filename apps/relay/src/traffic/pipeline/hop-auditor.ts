import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { EventEnvelope, EventType } from '@agp/contracts';
import { EventOutbox } from '@agp/messaging';

import { RELAY_OUTBOX } from '../../database/tokens';

interface Pending {
  envelopes: ReadonlyArray<EventEnvelope<EventType, unknown>>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Rows per statement: enough to carry a busy second, small enough to keep one insert short. */
const MAX_BATCH_EVENTS = 2_000;

/**
 * Issue 11 § 6, T1, T39: hops arriving during a commit share the next one, so the cost per hop
 * falls as traffic rises and no hop waits on a timer.
 */
@Injectable()
export class HopAuditor implements OnApplicationShutdown {
  private queue: Pending[] = [];
  private isFlushing = false;
  private drained: Promise<void> = Promise.resolve();

  constructor(@Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox) {}

  record(envelopes: ReadonlyArray<EventEnvelope<EventType, unknown>>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ envelopes, resolve, reject });
      if (!this.isFlushing) {
        this.isFlushing = true;
        // setImmediate: hops queued in the same turn of the event loop join the first commit.
        this.drained = new Promise((done) => setImmediate(() => void this.flush().then(done)));
      }
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.takeBatch();
      try {
        await this.outbox.addDurable(batch.flatMap((p) => p.envelopes));
        batch.forEach((p) => p.resolve());
      } catch (error) {
        batch.forEach((p) => p.reject(error));
      }
    }
    this.isFlushing = false;
  }

  private takeBatch(): Pending[] {
    let events = 0;
    let count = 0;
    while (count < this.queue.length && (count === 0 || events < MAX_BATCH_EVENTS)) {
      events += this.queue[count].envelopes.length;
      count += 1;
    }
    return this.queue.splice(0, count);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.drained;
  }
}
