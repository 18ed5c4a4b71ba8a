import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  OnApplicationBootstrap,
} from '@nestjs/common';

import { MONITORS_OPTIONS, MonitorsOptions } from '../monitors.options';
import { DetectorTickService } from './detector-tick.service';

/** Starts the minute tick with the application, unless the options leave it to the caller. */
@Injectable()
export class MonitorsScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(MONITORS_OPTIONS) private readonly options: MonitorsOptions,
    private readonly ticks: DetectorTickService,
  ) {}

  onApplicationBootstrap(): void {
    if (this.options.schedule !== false) {
      this.ticks.schedule.start();
    }
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.ticks.schedule.stop();
  }
}
