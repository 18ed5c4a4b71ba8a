import { Module } from '@nestjs/common';

import { EventPartitionsRepository } from './event-partitions.repository';
import { TelemetryModule } from '../telemetry/telemetry.module';
import { EventPartitionsService } from './event-partitions.service';
import { EventsController } from './events.controller';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';
import { RecordedHopsAnswerer } from './recorded-hops.answerer';
import { RecordedHopsRepository } from './recorded-hops.repository';

@Module({
  imports: [TelemetryModule],
  controllers: [EventsController],
  providers: [
    EventsRepository,
    EventsService,
    EventPartitionsService,
    EventPartitionsRepository,
    // D49 replay asks the trail for recorded hops (governance.md G10).
    RecordedHopsRepository,
    RecordedHopsAnswerer,
  ],
  exports: [EventPartitionsService],
})
export class EventsModule {}
