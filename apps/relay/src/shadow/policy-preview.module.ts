import { Module } from '@nestjs/common';

import { PoliciesModule } from '../policies/policies.module';
import { ReplayExecutor } from '../replays/replay-executor';
import { DEFAULT_REPLAY_OPTIONS, REPLAY_OPTIONS } from '../replays/replay-options';
import { ReplaysController } from '../replays/replays.controller';
import { ReplaysRepository } from '../replays/replays.repository';
import { ReplaysService } from '../replays/replays.service';
import { DecisionDiffsRepository } from './decision-diffs.repository';
import { PolicyDiffRetentionJob } from './policy-diff-retention.job';
import { ShadowDecisionsListener } from './shadow-decisions.listener';
import { ShadowReportController } from './shadow-report.controller';
import { ShadowReportService } from './shadow-report.service';

/** D49, G7–G11: shadow reports, promotion and replays of recorded hops. */
@Module({
  imports: [PoliciesModule],
  controllers: [ShadowReportController, ReplaysController],
  providers: [
    DecisionDiffsRepository,
    ShadowDecisionsListener,
    ShadowReportService,
    ReplaysRepository,
    ReplaysService,
    ReplayExecutor,
    PolicyDiffRetentionJob,
    { provide: REPLAY_OPTIONS, useValue: DEFAULT_REPLAY_OPTIONS },
  ],
  exports: [PolicyDiffRetentionJob],
})
export class PolicyPreviewModule {}
