import { Logger } from 'pino';

import { Clock, systemClock } from './clock';

export interface ClaimLoopOptions<T> {
  name: string;
  /** The net for work added elsewhere: this long after the loop last looked. */
  pollIntervalMs: number;
  // Takes the next items for this replica, so that no other replica takes them meanwhile (a row
  // lease, `FOR UPDATE SKIP LOCKED`); an empty list when nothing is due.
  claim: () => Promise<readonly T[]>;
  /** Absent when the claim does the work itself, in its own transaction (F59: the outbox). */
  handle?: (item: T) => Promise<void>;
  logger: Logger;
  clock?: Clock;
  /** F59: how long a kick waits, so that what is added meanwhile goes in one claim; 0: at once. */
  kickDelayMs?: number;
  /** F59: true when a claim took less than it could, so no further claim is needed to see it. */
  isLastClaim?: (claimed: readonly T[]) => boolean;
  /**
   * F59: after a failed claim, kicks and the poll wait for a retry `firstMs` × 2 (doubled per
   * failure up to `maxMs`); logged as `<name> failed`. Without it, the next kick or poll retries.
   */
  retry?: { firstMs: number; maxMs: number };
}

/** A kick during a drain drains again after it, so nothing added meanwhile waits for the poll (F30). */
export class ClaimLoop<T> {
  private readonly clock: Clock;
  private isStopped = true;
  private isKicked = false;
  private failures = 0;
  /** The one pending wake-up (a kick's, the poll's or a retry's) and when it fires. */
  private cancelWake?: () => void;
  private wakeAt = 0;
  private draining?: Promise<void>;

  constructor(private readonly options: ClaimLoopOptions<T>) {
    this.clock = options.clock ?? systemClock;
  }

  start(): void {
    if (this.isStopped) {
      this.isStopped = false;
      this.wakeIn(this.options.pollIntervalMs);
    }
  }

  async stop(): Promise<void> {
    this.isStopped = true;
    this.cancelWake?.();
    this.cancelWake = undefined;
    await this.draining;
  }

  /** Work was added on this replica: a drain after `kickDelayMs` (at once by default). */
  kick(): void {
    this.request(this.options.kickDelayMs ?? 0);
  }

  /** A drain at once, whatever the kick delay (F59: the outbox at start, for what a crash left). */
  drainNow(): void {
    this.request(0);
  }

  async whenIdle(): Promise<void> {
    await this.draining;
  }

  private request(delayMs: number): void {
    if (this.isStopped || this.failures > 0) {
      return;
    }
    if (this.draining) {
      this.isKicked = true;
    } else if (delayMs === 0) {
      this.startDrain();
    } else {
      this.wakeIn(delayMs);
    }
  }

  /** A later wake-up never postpones an earlier one (F59: steady kicks still drain every delay). */
  private wakeIn(delayMs: number): void {
    const at = this.clock.now() + delayMs;
    if (this.cancelWake && this.wakeAt <= at) {
      return;
    }
    this.cancelWake?.();
    this.wakeAt = at;
    this.cancelWake = this.clock.after(delayMs, () => {
      this.cancelWake = undefined;
      if (!this.isStopped && !this.draining) {
        this.startDrain();
      }
    });
  }

  private startDrain(): void {
    this.cancelWake?.();
    this.cancelWake = undefined;
    this.draining = this.drain()
      .catch((error: unknown) => {
        // A caller's callback (isLastClaim) threw: the next wake-up tries again, the process lives.
        this.options.logger.error({ err: error, loop: this.options.name }, 'drain failed');
      })
      .finally(() => {
        this.draining = undefined;
        this.scheduleNext();
      });
  }

  private async drain(): Promise<void> {
    do {
      this.isKicked = false;
      if (!(await this.claimUntilDrained())) {
        return;
      }
      // With a kick delay, a kick during the drain waits its delay (scheduleNext) to gather more.
    } while (this.isKicked && !this.isStopped && !this.options.kickDelayMs);
  }

  /** False when a claim failed. */
  private async claimUntilDrained(): Promise<boolean> {
    for (;;) {
      let claimed: readonly T[];
      try {
        claimed = await this.options.claim();
        this.failures = 0;
      } catch (error) {
        this.claimFailed(error);
        return false;
      }
      if (claimed.length === 0) {
        return true;
      }
      const { handle } = this.options;
      if (handle) {
        await Promise.all(claimed.map((item) => this.handleOne(handle, item)));
      }
      if (this.isStopped || this.options.isLastClaim?.(claimed)) {
        return true;
      }
    }
  }

  private claimFailed(error: unknown): void {
    const { retry, logger, name } = this.options;
    if (!retry) {
      logger.error({ err: error, loop: name }, 'cannot claim work');
      return;
    }
    this.failures += 1;
    logger.warn({ err: error, loop: name, retryInMs: this.retryInMs(retry) }, `${name} failed`);
  }

  private retryInMs({ firstMs, maxMs }: { firstMs: number; maxMs: number }): number {
    return Math.min(firstMs * 2 ** this.failures, maxMs);
  }

  private scheduleNext(): void {
    if (this.isStopped) {
      return;
    }
    const { retry } = this.options;
    if (retry && this.failures > 0) {
      this.wakeIn(this.retryInMs(retry));
    } else if (this.isKicked) {
      this.wakeIn(this.options.kickDelayMs ?? 0);
    } else {
      this.wakeIn(this.options.pollIntervalMs);
    }
  }

  private async handleOne(handle: (item: T) => Promise<void>, item: T): Promise<void> {
    try {
      await handle(item);
    } catch (error) {
      this.options.logger.error({ err: error, loop: this.options.name }, 'claimed work failed');
    }
  }
}
