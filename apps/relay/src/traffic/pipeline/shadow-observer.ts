import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { ROOT_LOGGER } from '@agp/http';
import { Logger } from 'pino';

import { sideOf } from '../../decisions/candidate-placement';
import { HopDecision } from '../../decisions/decision.types';
import { PolicyDecisionService } from '../../decisions/policy-decision.service';
import { HopAuditor } from './hop-auditor';
import { JudgedHop, shadowDecisionEvent } from './shadow-decision-events';
import { isSampled } from './shadow-sampling';
import { TrafficDirectory } from './traffic-directory';

/**
 * D49, G7–G9: judged on the next turn after the hop's own commit started, through the same
 * group commit, never awaited by the hop.
 */
@Injectable()
export class ShadowObserver implements BeforeApplicationShutdown {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly decisions: PolicyDecisionService,
    private readonly auditor: HopAuditor,
    private readonly directory: TrafficDirectory,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  observe(judged: JudgedHop, decision: HopDecision): void {
    if (!this.decisions.isShadowed(decision)) {
      return;
    }
    const work: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.judge(judged, decision))
      .catch((error: unknown) => {
        this.logger.error({ err: error, hopId: judged.hopId }, 'shadow judgement not recorded');
      })
      .finally(() => this.pending.delete(work));
    this.pending.add(work);
  }

  private async judge(judged: JudgedHop, decision: HopDecision): Promise<void> {
    const settings = await this.directory.settings(judged.hop.tenantId);
    if (!isSampled(judged.hopId, settings.shadowSampleRate)) {
      return;
    }
    const enforced = sideOf(decision);
    const events = this.decisions
      .judgeShadows(decision)
      .map(({ binding, outcome }) =>
        shadowDecisionEvent(judged, binding.bindingId, enforced, sideOf(outcome)),
      );
    if (events.length > 0) {
      await this.auditor.record(events);
    }
  }

  /** Judgements under way reach the group commit before it drains at shutdown. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}
