import { performance } from 'node:perf_hooks';

import { Injectable } from '@nestjs/common';

import { DecisionInput } from '../../decisions/decision.types';
import { PolicyDecisionService } from '../../decisions/policy-decision.service';
import { decidedHopEvents, refusedHopEvent } from './hop-audit-events';
import { HopAuditor } from './hop-auditor';
import { Hop, HopVerdict, Refusal } from './hop.types';

/**
 * The one place every protocol's hops go through (STYLE § 14): decide (D22, in-process), audit
 * (D33, D40, group commit) and say whether the message may go on. Protocol code parses, applies
 * the verdict to its own message shape and forwards; it never decides or audits by itself.
 */
@Injectable()
export class HopPipeline {
  constructor(
    private readonly decisions: PolicyDecisionService,
    private readonly auditor: HopAuditor,
  ) {}

  async judge(hop: Hop): Promise<HopVerdict> {
    const started = performance.now();
    const decision = await this.decisions.decide(inputOf(hop));
    const latencyMs = performance.now() - started;
    const events = decidedHopEvents(hop, decision, latencyMs);
    const audited = this.auditor.record(events);
    // A caller that stops early (its agent went away) must not leave a rejection unobserved.
    audited.catch(() => undefined);
    return { decision, isDelivered: !decision.isBlocked, decisionId: events[0].id, audited };
  }

  /** Records a hop refused before policy; resolves once the record is durable. */
  refuse(hop: Hop, refusal: Refusal): Promise<void> {
    return this.refusing(hop, refusal).audited;
  }

  /** The same, with the id of the refusal's event: the `decisionId` its sender is told (D33). */
  refusing(hop: Hop, refusal: Refusal): { decisionId: string; audited: Promise<void> } {
    const event = refusedHopEvent(hop, refusal);
    const audited = this.auditor.record([event]);
    audited.catch(() => undefined);
    return { decisionId: event.id, audited };
  }
}

function inputOf(hop: Hop): DecisionInput {
  return {
    tenant: { id: hop.tenantId, ...(hop.tenantSlug ? { slug: hop.tenantSlug } : {}) },
    protocol: hop.protocol,
    direction: hop.direction,
    source: hop.source,
    sink: hop.sink,
    ...(hop.user ? { user: hop.user } : {}),
    ...(hop.method ? { method: hop.method } : {}),
    ...(hop.tool ? { tool: { name: hop.tool } } : {}),
    message: hop.message,
    correlationId: hop.correlationId,
    time: new Date().toISOString(),
  };
}
