import { Module } from '@nestjs/common';

import { DetectionPatternsController } from './detection-patterns.controller';
import { DetectionPatternsService } from './detection-patterns.service';

/** D53; its repository is the global DecisionsModule's, which compiles the sets (GR17). */
@Module({
  controllers: [DetectionPatternsController],
  providers: [DetectionPatternsService],
})
export class DetectionPatternsModule {}
