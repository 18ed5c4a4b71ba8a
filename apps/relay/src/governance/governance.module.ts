import { Module } from '@nestjs/common';

import { GovernanceActivityController } from './governance-activity.controller';
import { GovernanceActivityService } from './governance-activity.service';
import { GovernanceEvents } from './governance-events';
import { GovernanceOwnersListener } from './governance-owners.listener';
import { GovernanceRecordsService } from './governance-records.service';
import { GovernanceController } from './governance.controller';
import { GovernanceRepository } from './governance.repository';
import { RiskTiersService } from './risk-tiers.service';

/** Governance records of the registry (issue 17); the audit service's detectors read their events. */
@Module({
  controllers: [GovernanceController, GovernanceActivityController],
  providers: [
    GovernanceRepository,
    GovernanceEvents,
    RiskTiersService,
    GovernanceRecordsService,
    GovernanceActivityService,
    GovernanceOwnersListener,
  ],
})
export class GovernanceModule {}
