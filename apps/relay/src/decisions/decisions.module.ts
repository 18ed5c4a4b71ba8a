import { DynamicModule, Module } from '@nestjs/common';

import { DetectionPatternsRepository } from '../detection-patterns/detection-patterns.repository';
import { ToolDefinitionsRepository } from '../mcp-tools/tool-definitions.repository';
import { TrafficSettingsRepository } from '../traffic-settings/traffic-settings.repository';
import { DecisionCache } from './decision-cache';
import { DryRunFacts } from './dry-run-facts';
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
        DetectionPatternsRepository,
        EndpointDirectoryRepository,
        PolicyDecisionService,
        DecisionsService,
        // GR36: what the dry run reads to prepare the input a live hop would give.
        ToolDefinitionsRepository,
        TrafficSettingsRepository,
        DryRunFacts,
      ],
      exports: [
        PolicyEngine,
        DecisionCache,
        PolicyDecisionService,
        EndpointDirectoryRepository,
        PolicySnapshotRepository,
        DetectionPatternsRepository,
        DECISION_OPTIONS,
      ],
    };
  }
}
