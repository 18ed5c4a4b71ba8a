import { Module } from '@nestjs/common';

import { EventPartitionsRepository } from './event-partitions.repository';
import { TelemetryModule } from '../telemetry/telemetry.module';
import { EventPartitionsService } from './event-partitions.service';
import { EventsController } from './events.controller';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';

@Module({
  imports: [TelemetryModule],
  controllers: [EventsController],
  providers: [EventsRepository, EventsService, EventPartitionsService, EventPartitionsRepository],
  exports: [EventPartitionsService],
})
export class EventsModule {}
