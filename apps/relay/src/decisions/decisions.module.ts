import { DynamicModule, Module } from '@nestjs/common';

import { DecisionCache } from './decision-cache';
import { DECISION_OPTIONS, DecisionOptions } from './decision-options';
import { DecisionsController } from './decisions.controller';
import { DecisionsService } from './decisions.service';
import { EndpointDirectoryRepository } from './endpoint-directory.repository';
import { PolicyDecisionService } from './policy-decision.service';
import { PolicyEngine } from './policy-engine';
import { PolicySnapshotRepository } from './policy-snapshot.repository';

@Module({})
export class DecisionsModule {
  static forRoot(options: DecisionOptions): DynamicModule {
    return {
      module: DecisionsModule,
      global: true,
      controllers: [DecisionsController],
      providers: [
        { provide: DECISION_OPTIONS, useValue: options },
        { provide: PolicyEngine, useValue: new PolicyEngine() },
        DecisionCache,
        PolicySnapshotRepository,
        EndpointDirectoryRepository,
        PolicyDecisionService,
        DecisionsService,
      ],
      exports: [
        PolicyEngine,
        DecisionCache,
        PolicyDecisionService,
        EndpointDirectoryRepository,
        PolicySnapshotRepository,
        DECISION_OPTIONS,
      ],
    };
  }
}
