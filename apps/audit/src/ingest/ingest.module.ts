import { Module } from '@nestjs/common';

import { EventsModule } from '../events/events.module';
import { IngestListener } from './ingest.listener';
import { IngestRepository } from './ingest.repository';
import { IngestService } from './ingest.service';
import { IngestedEventsModule } from './ingested-events.module';

@Module({
  imports: [EventsModule, IngestedEventsModule],
  providers: [IngestRepository, IngestService, IngestListener],
  exports: [IngestService],
})
export class IngestModule {}
