import { Module } from '@nestjs/common';

import { AgentSubscriptionsController } from './agent-subscriptions.controller';
import { SubscriptionsController } from './subscriptions.controller';
import { SubscriptionsRepository } from './subscriptions.repository';
import { SubscriptionsService } from './subscriptions.service';

/** D32, D21: subscriptions and tool grants, and the client library's reads of them. */
@Module({
  controllers: [SubscriptionsController, AgentSubscriptionsController],
  providers: [SubscriptionsRepository, SubscriptionsService],
  exports: [SubscriptionsService],
})
export class SubscriptionsModule {}
