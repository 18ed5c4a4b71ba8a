import { Module } from '@nestjs/common';

import { EventsModule } from '../events/events.module';
import { IntegrityModule } from '../integrity/integrity.module';
import { RetentionJobRepository } from './retention-job.repository';
import { RetentionJobService } from './retention-job.service';
import { RetentionController } from './retention.controller';
import { RetentionRepository } from './retention.repository';
import { RetentionService } from './retention.service';

@Module({
  imports: [EventsModule, IntegrityModule],
  controllers: [RetentionController],
  providers: [RetentionRepository, RetentionService, RetentionJobRepository, RetentionJobService],
  exports: [RetentionJobService],
})
export class RetentionModule {}
