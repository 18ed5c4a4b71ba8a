import { Module } from '@nestjs/common';

import { EventPartitionsRepository } from './event-partitions.repository';
import { EventPartitionsService } from './event-partitions.service';
import { EventsController } from './events.controller';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';

@Module({
  controllers: [EventsController],
  providers: [EventsRepository, EventsService, EventPartitionsService, EventPartitionsRepository],
  exports: [EventPartitionsService],
})
export class EventsModule {}
