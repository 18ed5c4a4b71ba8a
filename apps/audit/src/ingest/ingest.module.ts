import { Module } from '@nestjs/common';

import { EventsModule } from '../events/events.module';
import { IngestListener } from './ingest.listener';
import { IngestRepository } from './ingest.repository';
import { IngestService } from './ingest.service';

@Module({
  imports: [EventsModule],
  providers: [IngestRepository, IngestService, IngestListener],
  exports: [IngestService],
})
export class IngestModule {}
