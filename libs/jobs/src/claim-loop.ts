import { Logger } from 'pino';

import { Clock, systemClock } from './clock';

export interface ClaimLoopOptions<T> {
  name: string;
  pollIntervalMs: number;
  // Takes the next items for this replica, so that no other replica takes them meanwhile (a row
  // lease, `FOR UPDATE SKIP LOCKED`); an empty list when nothing is due.
  claim: () => Promise<readonly T[]>;
  handle: (item: T) => Promise<void>;
  logger: Logger;
  clock?: Clock;
}

/** A kick during a drain drains again after it, so nothing added meanwhile waits for the poll (F30). */
export class ClaimLoop<T> {
  private readonly clock: Clock;
  private isStopped = true;
  private isKicked = false;
  private cancelPoll?: () => void;
  private draining?: Promise<void>;

  constructor(private readonly options: ClaimLoopOptions<T>) {
    this.clock = options.clock ?? systemClock;
  }

  start(): void {
    if (this.isStopped) {
      this.isStopped = false;
      this.schedulePoll();
    }
  }

  async stop(): Promise<void> {
    this.isStopped = true;
    this.cancelPoll?.();
    this.cancelPoll = undefined;
    await this.draining;
  }

  kick(): void {
    if (this.isStopped) {
      return;
    }
    this.isKicked = true;
    this.draining ??= this.drain().finally(() => {
      this.draining = undefined;
    });
  }

  async whenIdle(): Promise<void> {
    await this.draining;
  }

  private async drain(): Promise<void> {
    while (this.isKicked && !this.isStopped) {
      this.isKicked = false;
      for (;;) {
        const claimed = await this.options.claim().catch((error: unknown) => {
          this.options.logger.error({ err: error, loop: this.options.name }, 'cannot claim work');
          return [];
        });
        if (claimed.length === 0) {
          break;
        }
        await Promise.all(claimed.map((item) => this.handleOne(item)));
        if (this.isStopped) {
          return;
        }
      }
    }
  }

  private async handleOne(item: T): Promise<void> {
    try {
      await this.options.handle(item);
    } catch (error) {
      this.options.logger.error({ err: error, loop: this.options.name }, 'claimed work failed');
    }
  }

  private schedulePoll(): void {
    this.cancelPoll = this.clock.after(this.options.pollIntervalMs, () => {
      if (!this.isStopped) {
        this.kick();
        this.schedulePoll();
      }
    });
  }
}
