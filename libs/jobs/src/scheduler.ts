import { Database } from '@agp/database';
import { Logger } from 'pino';

import { Clock } from './clock';
import { JobRuns } from './job-runs';
import { ScheduledJob } from './scheduled-job';

export class Scheduler {
  private readonly jobs: Array<ScheduledJob<unknown>> = [];
  private readonly runs: JobRuns;

  constructor(
    database: Database,
    private readonly logger: Logger,
    private readonly clock?: Clock,
  ) {
    this.runs = new JobRuns(database);
  }

  /** Declares `work` every `intervalMs`, once per interval across replicas. */
  every<T>(
    name: string,
    intervalMs: number,
    work: (slot: Date) => Promise<T>,
    offsetMs?: number,
  ): ScheduledJob<T> {
    const job = new ScheduledJob({
      name,
      intervalMs,
      offsetMs,
      work,
      runs: this.runs,
      logger: this.logger,
      clock: this.clock,
    });
    this.jobs.push(job);
    return job;
  }

  start(): void {
    for (const job of this.jobs) {
      job.start();
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.jobs.map((job) => job.stop()));
  }

  onApplicationBootstrap(): void {
    this.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.stop();
  }
}
