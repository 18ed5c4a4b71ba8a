import { Module } from '@nestjs/common';

import { HitlController } from './hitl.controller';
import { HitlDeliveries } from './hitl-deliveries';
import { HitlExpiryJob } from './hitl-expiry.job';
import { HitlHolds } from './hitl-holds.service';
import { HitlRepository } from './hitl.repository';
import { HitlService } from './hitl.service';
import { HitlWaiters } from './hitl-waiters';

/** Human review (D34, issue 12): the reviewers' API, the holds the traffic paths make, expiry. */
@Module({
  controllers: [HitlController],
  providers: [HitlRepository, HitlWaiters, HitlHolds, HitlService, HitlExpiryJob, HitlDeliveries],
  exports: [HitlHolds, HitlRepository, HitlExpiryJob, HitlDeliveries],
})
export class HitlModule {}
