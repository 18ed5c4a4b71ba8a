import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { ROOT_LOGGER } from '@agp/http';
import { Logger } from 'pino';

import { MONITORS_OPTIONS, MonitorsOptions } from '../monitors.options';
import { DetectorTickService } from './detector-tick.service';
import { MINUTE_MS } from './time-window';

/** Every replica wakes a second after each minute; the tick lease lets only one of them work. */
@Injectable()
export class MonitorsScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running: Promise<unknown> = Promise.resolve();
  private isStopped = false;

  constructor(
    @Inject(MONITORS_OPTIONS) private readonly options: MonitorsOptions,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    private readonly ticks: DetectorTickService,
  ) {}

  onApplicationBootstrap(): void {
    if (this.options.schedule !== false) {
      this.scheduleNext();
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.isStopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private scheduleNext(): void {
    const delay = MINUTE_MS - (Date.now() % MINUTE_MS) + 1_000;
    this.timer = setTimeout(() => {
      this.running = this.ticks
        .tick()
        .catch((error: unknown) => this.logger.error({ err: error }, 'monitor tick failed'))
        .finally(() => {
          if (!this.isStopped) {
            this.scheduleNext();
          }
        });
    }, delay);
    this.timer.unref();
  }
}
