import { DynamicModule, Module } from '@nestjs/common';

import { AgentsRepository } from '../agents/agents.repository';
import { HitlModule } from '../hitl/hitl.module';
import { TrafficModule } from '../traffic/traffic.module';
import { EvaluationPacksController } from './evaluation-packs.controller';
import { EvaluationPacksRepository } from './evaluation-packs.repository';
import { EvaluationPacksService } from './evaluation-packs.service';
import { EvaluationRunsController } from './evaluation-runs.controller';
import { EvaluationRunsRepository } from './evaluation-runs.repository';
import { EvaluationRunsService } from './evaluation-runs.service';
import { EvaluationsController } from './evaluations.controller';
import { EvaluationsService } from './evaluations.service';
import { PolicyChangeListener } from './policy-change.listener';
import { EvaluationScheduleJob } from './evaluation-schedule.job';
import { RUN_POLL_INTERVAL, RunExecutor } from './run-executor';
import { LiveEvaluations } from './live/live-evaluations';

/** Evaluation packs, evaluations, runs (issue 6 §5). */
@Module({})
export class EvaluationPacksModule {
  static forRoot(options: { runPollIntervalMs: number }): DynamicModule {
    return {
      module: EvaluationPacksModule,
      // Global so the ready-made guardrail policies (GR11) reach the packs' services without a
      // second instance of this configured module.
      global: true,
      // G16: LIVE runs drive the traffic paths; holds are withdrawn through HITL (G18).
      imports: [TrafficModule, HitlModule],
      exports: [EvaluationPacksService, EvaluationsService, EvaluationScheduleJob],
      controllers: [EvaluationPacksController, EvaluationsController, EvaluationRunsController],
      providers: [
        { provide: RUN_POLL_INTERVAL, useValue: options.runPollIntervalMs },
        EvaluationPacksRepository,
        EvaluationRunsRepository,
        EvaluationPacksService,
        EvaluationsService,
        EvaluationRunsService,
        RunExecutor,
        LiveEvaluations,
        AgentsRepository,
        EvaluationScheduleJob,
        PolicyChangeListener,
      ],
    };
  }
}
