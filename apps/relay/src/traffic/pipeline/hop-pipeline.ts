import { performance } from 'node:perf_hooks';

import { Injectable } from '@nestjs/common';

import { decisionInputOf } from '../../decisions/decision-input';
import { PolicyDecisionService } from '../../decisions/policy-decision.service';
import { HitlHolds, HoldOutcome } from '../../hitl/hitl-holds.service';
import { Durability } from '../../traffic-settings/traffic-settings.types';
import { Admission, AdmissionRefusal } from './admission';
import { EvaluationTaps } from './evaluation-taps';
import { GatewayCallParties, ProviderFault, failoverEvent } from './gateway-call-events';
import { Carried, disclosureEvents } from './disclosure-events';
import { decidedHopEvents, refusedHopEvent } from './hop-audit-events';
import { HopAuditor } from './hop-auditor';
import { withImposed } from './imposed-decision';
import { Hop, HopOutcome, HopVerdict, PassTerms, Refusal, ReleaseOutcome } from './hop.types';
import { LlmProviderRoute } from './llm-route';
import { platformHopEvent } from './platform-hop-event';
import { PaymentEvent, PaymentParties, PaymentRecord, paymentEvent } from './payment-events';
import { decisionRefusal, holdRefusal } from './refusal-answers';
import { REFUSALS } from './refusal-codes';
import { ShadowObserver } from './shadow-observer';
import { TrafficGuard, killSwitchReason } from './traffic-guard';
import { HopTracer } from '../tracing/hop-tracer';

/** Who resends a held message (D34), by the id of its hold. */
export interface Resend {
  tenantId: string;
  agentId: string;
  correlationId: string;
  hitlRequestId: string;
  resendDigest: string;
}

/**
 * Issue 31, STYLE § 14: admit (D32, D35, D36) → decide (D22) → hold (D34) → audit (D33, D40).
 * Protocol code never does these itself; README.md beside this file says how a path plugs in.
 */
@Injectable()
export class HopPipeline {
  constructor(
    private readonly decisions: PolicyDecisionService,
    private readonly auditor: HopAuditor,
    private readonly guard: TrafficGuard,
    private readonly hitl: HitlHolds,
    private readonly shadows: ShadowObserver,
    private readonly tracer: HopTracer,
    private readonly taps: EvaluationTaps,
  ) {}

  /** Each refusal is audited as BLOCK before it returns (RATE_LIMIT once per key per minute). */
  async admit(
    admission: Admission,
    hops: Hop[],
    count = hops.length,
  ): Promise<AdmissionRefusal | undefined> {
    const { correlationId } = admission;
    if (!admission.subscriptionId) {
      const caller = admission.callerLabel ?? `agent ${admission.agentId}`;
      const reason = `${caller} is not subscribed to ${admission.targetLabel}`;
      await this.refuseAll(hops, { type: 'COMMUNICATION_AUDIT', action: 'BLOCK', reason });
      return { kind: 'NOT_SUBSCRIBED', reason };
    }
    const engaged = await this.guard.killSwitchFor(admission);
    if (engaged) {
      const reason = killSwitchReason(engaged);
      const decisionId = await this.refuseAll(hops, {
        type: 'COMMUNICATION_AUDIT',
        action: 'BLOCK',
        reason,
        details: { killSwitchId: engaged.id },
      });
      const data = {
        reasons: [reason],
        killSwitchId: engaged.id,
        ...(decisionId ? { decisionId } : {}),
        correlationId,
      };
      const answer = { refusal: REFUSALS.killSwitch, message: REFUSALS.killSwitch.message, data };
      return { kind: 'KILL_SWITCH', reason, killSwitchId: engaged.id, answer };
    }
    const limited = count > 0 ? await this.guard.rateLimitFor(admission, count) : undefined;
    if (!limited) {
      return undefined;
    }
    const reason = `over the rate limit of ${limited.perMinute} messages per minute (${limited.key})`;
    if (limited.isFirstInWindow) {
      await this.refuseAll(hops.slice(0, 1), {
        type: 'RATE_LIMIT',
        action: 'BLOCK',
        reason,
        details: { key: limited.key, perMinute: limited.perMinute },
      });
    }
    const data = { reasons: [reason], retryAfter: limited.retryAfterSeconds, correlationId };
    const answer = { refusal: REFUSALS.rateLimited, message: REFUSALS.rateLimited.message, data };
    return { kind: 'RATE_LIMITED', reason, retryAfterSeconds: limited.retryAfterSeconds, answer };
  }

  /** Decide and audit a hop, then deliver it, refuse it, or hold it for a person (D33, D34). */
  async pass<M>(hop: Hop, terms: PassTerms<M>): Promise<HopOutcome<M>> {
    return this.settle(hop, await this.judge(hop), terms);
  }

  /** T20: a stream judges window by window before it knows whether to hold. */
  async judge(passed: Hop): Promise<HopVerdict> {
    // G16: a LIVE evaluation's hop is marked in its records and reported to its run.
    const tap = this.taps.tapOf(passed);
    const hop = tap ? tap.marked(passed) : passed;
    const started = performance.now();
    const decided = await this.decisions.decide(decisionInputOf(hop));
    // T86: what the relay imposes (a drifted tool, D51) joins the policies' decision.
    const decision = hop.imposed ? withImposed(decided, hop.imposed) : decided;
    const latencyMs = performance.now() - started;
    // T90: the hop's own span (off: undefined), whose ids its events record.
    const span = this.tracer.start(hop);
    const events = decidedHopEvents(
      span ? { ...hop, traceIds: span.ids } : hop,
      decision,
      latencyMs,
    );
    const audited = this.auditor.record(events);
    span?.end(decision, events[0].id, audited);
    // A caller that stops early (its agent went away) must not leave a rejection unobserved.
    audited.catch(() => undefined);
    tap?.hops.push({ hop, decision, decisionId: events[0].id });
    // D49: SHADOW bindings are judged after this hop goes on, never in its way (G7).
    this.shadows.observe({ hop, hopId: events[0].id, hopAt: events[0].occurredAt }, decision);
    return { decision, isDelivered: !decision.isBlocked, decisionId: events[0].id, audited };
  }

  /** What a decided hop comes to: delivered, refused, or held (D34: wait for a person). */
  async settle<M>(hop: Hop, verdict: HopVerdict, terms: PassTerms<M>): Promise<HopOutcome<M>> {
    const { decision, decisionId, audited } = verdict;
    if (!verdict.isDelivered) {
      const answer = decisionRefusal(decision, decisionId, hop.correlationId);
      return { kind: 'REFUSED', cause: 'DECISION', answer, decision, audited };
    }
    if (decision.action === 'HUMAN_REVIEW_REQUIRED') {
      return this.hold(hop, verdict, terms.applied(decision), terms);
    }
    return { kind: 'DELIVERED', message: terms.applied(decision), decision, decisionId, audited };
  }

  /** D34: records durable, then the hold in one transaction; released exactly once if approved. */
  async hold<M>(
    hop: Hop,
    verdict: Pick<HopVerdict, 'decision' | 'decisionId' | 'audited'>,
    held: unknown,
    terms: Omit<PassTerms<M>, 'applied'>,
  ): Promise<ReleaseOutcome<M>> {
    await verdict.audited;
    const request = await this.hitl.hold(
      {
        tenantId: hop.tenantId,
        protocol: hop.protocol,
        direction: hop.direction,
        agent: hop.agent,
        source: hop.source,
        sink: hop.sink,
        ...(hop.method ? { method: hop.method } : {}),
        ...(hop.tool ? { tool: hop.tool } : {}),
        message: held,
        resendDigest: terms.resendDigest,
        reasons: verdict.decision.reasons,
        policyIds: [...new Set(verdict.decision.bindings.map((b) => b.groupId))],
        decisionId: verdict.decisionId,
        correlationId: hop.correlationId,
        expirySeconds: terms.hitl.expirySeconds,
      },
      terms.deliverOnApproval,
    );
    const observed = this.taps.tapOf(hop)?.hops.find((h) => h.decisionId === verdict.decisionId);
    if (observed) {
      observed.hitlRequestId = request.id;
    }
    if (terms.deliverOnApproval) {
      const pending = { kind: 'PENDING', request, retryAfterSeconds: 30 } as const;
      return stillHeld(pending, hop.correlationId);
    }
    const outcome = await this.hitl.awaitDecision(request, terms.hitl.waitSeconds, terms.signal);
    return outcomeOfHold(outcome, hop.correlationId);
  }

  /** D34: undefined when the agent has no such hold (a 404 in every dialect). */
  async release<M>(resend: Resend): Promise<ReleaseOutcome<M> | undefined> {
    const outcome = await this.hitl.releaseOnResend(
      resend.tenantId,
      resend.agentId,
      resend.hitlRequestId,
      resend.resendDigest,
      resend.correlationId,
    );
    return outcome && outcomeOfHold(outcome, resend.correlationId);
  }

  /**
   * T52, T1, T39: the agent never gets an answer whose request could still be lost; a record that
   * cannot be made durable fails the call.
   */
  async forward<T>(
    durability: Durability,
    audited: Promise<unknown>,
    send: () => Promise<T>,
  ): Promise<T> {
    if (durability === 'BEFORE_FORWARD') {
      await audited;
      return send();
    }
    // Awaited below in any case; a failure before then must not count as unhandled.
    audited.catch(() => undefined);
    try {
      return await send();
    } finally {
      await audited;
    }
  }

  /** Records a hop refused outside policy (an upstream fault, a stream's end); durable on return. */
  refuse(hop: Hop, refusal: Refusal): Promise<void> {
    return this.refusing(hop, refusal).audited;
  }

  /** The same, with the id of the refusal's event: the `decisionId` its sender is told (D33). */
  refusing(refused: Hop, refusal: Refusal): { decisionId: string; audited: Promise<void> } {
    const tap = this.taps.tapOf(refused);
    const hop = tap ? tap.marked(refused) : refused;
    const span = this.tracer.start(hop);
    const event = refusedHopEvent(span ? { ...hop, traceIds: span.ids } : hop, refusal);
    const audited = this.auditor.record([event]);
    span?.end(refusal, event.id, audited);
    audited.catch(() => undefined);
    tap?.hops.push({ hop, refusal, decisionId: event.id });
    return { decisionId: event.id, audited };
  }

  /** T103: a message of the platform's own to a server, or its answer; durable on return. */
  recordPlatformHop(hop: Hop, reason: string): Promise<void> {
    return this.auditor.record([platformHopEvent(hop, reason)]);
  }

  /** D39: LLM_GATEWAY_FAILOVER, `failed` skipped for `next`; `attempt` counts from 1. */
  recordFailover(
    parties: GatewayCallParties,
    failed: LlmProviderRoute,
    next: LlmProviderRoute,
    fault: ProviderFault,
    attempt: number,
  ): Promise<void> {
    return this.auditor.record([failoverEvent(parties, failed, next, fault, attempt)]);
  }

  /** D48: an X402_* event (payments.md PY10), committed with the hops' group commit. */
  recordPayment(parties: PaymentParties, record: PaymentRecord): Promise<void> {
    return this.recordPaymentEvent(paymentEvent(parties, record));
  }

  /** An X402_* event built by the caller (one whose id the spend ledger names, SP12). */
  recordPaymentEvent(event: PaymentEvent): Promise<void> {
    return this.auditor.record([event]);
  }

  /** D45, T71: what a delivery to a person carried, durable before the caller hears of it (T1). */
  recordDisclosures(
    hop: Hop,
    conversationKey: string,
    carried: Carried,
    form: string,
  ): Promise<void> {
    return this.auditor.record(disclosureEvents(hop, conversationKey, carried, form));
  }

  private async refuseAll(hops: Hop[], refusal: Refusal): Promise<string | undefined> {
    const refused = hops.map((hop) => this.refusing(hop, refusal));
    await Promise.all(refused.map((r) => r.audited));
    return refused[0]?.decisionId;
  }
}

/** A hold's end as an outcome: released, refused (rejected, not releasable) or still held. */
function outcomeOfHold<M>(outcome: HoldOutcome, correlationId: string): ReleaseOutcome<M> {
  const audited = Promise.resolve();
  switch (outcome.kind) {
    case 'RELEASED':
      return {
        kind: 'RELEASED',
        message: outcome.request.message,
        direction: outcome.request.direction,
        audited,
      };
    case 'PENDING':
      return stillHeld(outcome, correlationId);
    case 'REJECTED':
    case 'REFUSED':
      return {
        kind: 'REFUSED',
        cause: 'REVIEW',
        answer: holdRefusal(outcome, correlationId),
        audited,
      };
  }
}

function stillHeld<M>(
  outcome: Extract<HoldOutcome, { kind: 'PENDING' }>,
  correlationId: string,
): ReleaseOutcome<M> {
  return {
    kind: 'HELD',
    answer: holdRefusal(outcome, correlationId),
    request: outcome.request,
    retryAfterSeconds: outcome.retryAfterSeconds,
    audited: Promise.resolve(),
  };
}
