import { Module } from '@nestjs/common';

import { AgentsController } from './agents.controller';
import { AgentsListener } from './agents.listener';
import { AgentsRepository } from './agents.repository';
import { AgentsService } from './agents.service';

@Module({
  controllers: [AgentsController],
  providers: [AgentsRepository, AgentsService, AgentsListener],
})
export class AgentsModule {}
