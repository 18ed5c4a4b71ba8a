import { Logger } from 'pino';

import { Clock, systemClock } from './clock';
import { JobRuns } from './job-runs';

const HOUR_MS = 3_600_000;

export interface ScheduledJobOptions<T> {
  name: string;
  intervalMs: number;
  offsetMs?: number;
  work: (slot: Date) => Promise<T>;
  runs: JobRuns;
  logger: Logger;
  clock?: Clock;
}

/** Work every `intervalMs`, once per interval across replicas (F30). */
export class ScheduledJob<T = unknown> {
  private readonly clock: Clock;
  private readonly offsetMs: number;
  private isStopped = true;
  private cancelWakeUp?: () => void;
  private queue: Promise<unknown> = Promise.resolve();
  /** The timer's current tick, until it has set the next wake-up. */
  private wakeUp: Promise<void> = Promise.resolve();

  constructor(private readonly options: ScheduledJobOptions<T>) {
    this.clock = options.clock ?? systemClock;
    this.offsetMs = options.offsetMs ?? 0;
  }

  start(): void {
    if (this.isStopped) {
      this.isStopped = false;
      this.scheduleNext();
    }
  }

  /** No tick starts after this; resolves once the one in progress (if any) has finished. */
  async stop(): Promise<void> {
    this.isStopped = true;
    this.cancelWakeUp?.();
    this.cancelWakeUp = undefined;
    await this.whenIdle();
  }

  /** Resolves when no tick of this replica is running or waiting. */
  async whenIdle(): Promise<void> {
    await Promise.all([this.queue, this.wakeUp]);
  }

  /** The tick of the interval holding `at`, after any tick of this replica still running. */
  runAt(at: Date = new Date(this.clock.now())): Promise<T | undefined> {
    const { intervalMs } = this.options;
    const slot = new Date(Math.floor(at.getTime() / intervalMs) * intervalMs);
    const run = this.queue.then(() => this.claimAndRun(slot));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async claimAndRun(slot: Date): Promise<T | undefined> {
    const { name, runs, work, intervalMs } = this.options;
    if (!(await runs.claim(name, slot))) {
      return undefined;
    }
    const heartbeat = this.keepLease(slot);
    try {
      return await work(slot);
    } finally {
      await heartbeat.stop();
      // A slot is remembered well past any clock skew between replicas, so it never runs twice.
      await runs
        .finish(name, slot, Math.max(10 * intervalMs, HOUR_MS))
        .catch((error: unknown) => this.logFailure(error, 'cannot record the end of a tick'));
    }
  }

  private keepLease(slot: Date): { stop: () => Promise<void> } {
    const { name, runs } = this.options;
    let cancel: (() => void) | undefined;
    let renewing: Promise<void> = Promise.resolve();
    const beat = (): void => {
      cancel = this.clock.after(runs.leaseMs / 3, () => {
        renewing = runs
          .renew(name, slot)
          .catch((error: unknown) => this.logFailure(error, 'cannot renew the lease of a tick'));
        beat();
      });
    };
    beat();
    return {
      stop: async () => {
        cancel?.();
        await renewing;
      },
    };
  }

  private scheduleNext(): void {
    if (this.isStopped) {
      return;
    }
    const { intervalMs } = this.options;
    const now = this.clock.now();
    const due = (Math.floor((now - this.offsetMs) / intervalMs) + 1) * intervalMs + this.offsetMs;
    this.cancelWakeUp = this.clock.after(due - now, () => {
      this.cancelWakeUp = undefined;
      this.wakeUp = this.runAt(new Date(this.clock.now())).then(
        () => this.scheduleNext(),
        (error: unknown) => {
          this.logFailure(error, 'scheduled work failed');
          this.scheduleNext();
        },
      );
    });
  }

  private logFailure(error: unknown, message: string): void {
    this.options.logger.error({ err: error, job: this.options.name }, message);
  }
}
