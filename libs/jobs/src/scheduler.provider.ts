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
  database: InjectionToken;
  inject: InjectionToken[];
  jobs: (...dependencies: never[]) => JobDeclaration[];
}

export function schedulerProvider(options: SchedulerProviderOptions): FactoryProvider<Scheduler> {
  return {
    provide: options.provide,
    inject: [options.database, ROOT_LOGGER, ...options.inject],
    useFactory: (database: Database, logger: Logger, ...dependencies: unknown[]) => {
      const scheduler = new Scheduler(database, logger);
      for (const job of options.jobs(...(dependencies as never[]))) {
        scheduler.every(job.name, job.intervalMs, job.work, job.offsetMs);
      }
      return scheduler;
    },
  };
}
