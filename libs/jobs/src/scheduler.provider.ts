import { FactoryProvider, InjectionToken } from '@nestjs/common';
import { Database } from '@agp/database';
import { ROOT_LOGGER } from '@agp/http';
import { Logger } from 'pino';

import { Scheduler } from './scheduler';

export interface JobDeclaration {
  name: string;
  intervalMs: number;
  work: (slot: Date) => Promise<unknown>;
  offsetMs?: number;
}

export interface SchedulerProviderOptions {
  provide: InjectionToken;
  /** The service's `Database`: its schema's `job_runs` holds the claims. */
  database: InjectionToken;
  /** What `jobs` is called with, in this order. */
  inject: InjectionToken[];
  jobs: (...dependencies: never[]) => JobDeclaration[];
}

/**
 * A service's scheduled jobs as one Nest provider: started with the application, stopped (waiting
 * for the ticks in progress) before it closes, through the `Scheduler`'s lifecycle hooks.
 */
export function schedulerProvider(options: SchedulerProviderOptions): FactoryProvider<Scheduler> {
  return {
    provide: options.provide,
    inject: [options.database, ROOT_LOGGER, ...options.inject],
    useFactory: (database: Database, logger: Logger, ...dependencies: unknown[]) => {
      const scheduler = new Scheduler(database, logger);
      // `inject` and `jobs` are declared side by side; Nest resolves them in that order.
      for (const job of options.jobs(...(dependencies as never[]))) {
        scheduler.every(job.name, job.intervalMs, job.work, job.offsetMs);
      }
      return scheduler;
    },
  };
}
