import { Injectable } from '@nestjs/common';
import { MessageDirection } from '@agp/contracts';
import { HttpProblem } from '@agp/http';

import { HopPipeline } from '../pipeline/hop-pipeline';
import { a2aRouteWithDouble } from '../pipeline/sandbox-doubles';
import { callBasisOf, resendHoldOf } from '../pipeline/traffic-call';
import { TrafficDirectory } from '../pipeline/traffic-directory';
import { TrafficCaller } from '../pipeline/traffic-intake';
import { JsonRpcMessage, rpcError, rpcRefusal } from '../mcp/json-rpc';
import { a2aFramingError } from './a2a-framing';
import { resendDigestOf } from '../mcp/mcp-messages';
import { A2aCall, a2aAdmission, a2aHopOf, paymentCallOf } from './a2a-call';
import { A2aDirectory, A2aParty } from './a2a-directory';
import { InstalledAgents } from './installed-agents';
import { A2aAnswer, A2aExchange } from './a2a-exchange';
import { A2aHops, asA2a } from './a2a-hops';
import { AgentCardJson } from './agent-card';
import { AgentCards } from './agent-cards.service';
import { A2aUpstreamFailure } from './a2a-upstream';
import { PersonDeliveries } from './person-delivery';
import { PushGovernance } from './push/push-governance';
import { pushRequestOf } from './push/push-configs';
import { PaidCall } from '../payments/paid-call';
import { paidResendDigest } from '../payments/paid-hop';
import { JudgedPayment, X402Payments } from '../payments/x402-payments';
import { RefusalAnswer } from '../pipeline/refusal-answers';
import { InstalledSales } from './installed-sales';

/** A2A § 8.2: PushNotificationNotSupportedError. */
const A2A_PUSH_NOT_SUPPORTED = -32003;

/**
 * Who calls the path (T38: an agent; D43: or a person on `/relay/human/{agentId}`; MK16: or, on
 * the publisher's side, an installation, with the licence its installer's call goes under).
 */
export type A2aCaller = TrafficCaller & {
  user?: A2aCall['user'];
  installation?: { licence?: string };
};

/** D20, D38: admission (D32, D35, D36) and judgement (D33) before anything reaches the target. */
@Injectable()
export class A2aRelayService {
  constructor(
    private readonly routes: A2aDirectory,
    private readonly directory: TrafficDirectory,
    private readonly pipeline: HopPipeline,
    private readonly hops: A2aHops,
    private readonly exchange: A2aExchange,
    private readonly cards: AgentCards,
    private readonly pushes: PushGovernance,
    private readonly persons: PersonDeliveries,
    private readonly payments: X402Payments,
    private readonly installed: InstalledAgents,
    private readonly sales: InstalledSales,
  ) {
    installed.attach((caller, targetId, body) => this.post(caller, targetId, body));
  }

  async post(caller: A2aCaller, targetId: string, body: unknown): Promise<A2aAnswer> {
    const call = await this.callFor(caller, targetId);
    const framing = a2aFramingError(body);
    if (framing) {
      // D61, A2A 1.0 § 9: a framing error is a JSON-RPC answer with HTTP 200, as the SDK's is.
      return { kind: 'json', status: 200, body: framing };
    }
    const request = body as JsonRpcMessage;
    const refused = await this.admit(call, request, 'REQUEST');
    if (refused) {
      return refused;
    }
    const notInstalled = await this.installed.refusal(call, request);
    if (notInstalled) {
      return { kind: 'json', status: 200, body: notInstalled };
    }
    if (call.user && pushRequestOf(request) !== undefined) {
      return { kind: 'json', status: 200, body: await this.refusePush(call, request) };
    }
    const push = await this.pushes.admit(call, request);
    if (push.kind === 'refused') {
      return { kind: 'json', status: 200, body: push.answer };
    }
    const askedFor = { method: request.method!, resendDigest: resendDigestOf(request) };
    // T73, T74: what the answer to a person will carry, known before the answer is judged.
    const toPerson = await this.persons.plan(call, request);
    const hitlRequestId = resendHoldOf(caller.headers);
    // PY20: on the publisher's side of a PER_CALL listing, the platform sells the call.
    const selling = call.route.perCall;
    // D60, payments.md PY4: a payment is checked before anything else judges the request; a
    // seller's side gates nothing (PY22: what it is paid is not its spend).
    const payment = await this.payments.judge(
      paymentCallOf(call),
      caller.headers,
      hitlRequestId === undefined && !selling,
    );
    if (selling && !payment) {
      return this.sales.offer(call, request, selling);
    }
    if (payment?.kind === 'refused') {
      return {
        kind: 'json',
        status: 200,
        body: await this.refusePayment(call, request, payment.answer),
      };
    }
    let forward: JsonRpcMessage;
    let audited: Promise<void> = Promise.resolve();
    let cardFailure: A2aUpstreamFailure | undefined;
    if (hitlRequestId !== undefined) {
      const released = await this.resend(call, hitlRequestId, request, payment);
      if (released.kind === 'answer') {
        // T74: an answer held for a reviewer reaches the person as any answer does.
        const body = toPerson ? toPerson.view().delivered(released.body) : released.body;
        const answer: A2aAnswer = { kind: 'json', status: 200, body };
        return toPerson ? toPerson.settle(answer) : answer;
      }
      forward = released.body;
    } else {
      cardFailure = await this.knowCard(call);
      const judged = await this.hops.judgeRequest(call, push.plan.hopMessage, payment);
      if (judged.kind === 'refused') {
        // T1: what the caller is answered is in the trail first.
        await judged.audited;
        return { kind: 'json', status: 200, body: judged.answer };
      }
      forward = judged.message;
      audited = judged.audited;
    }
    // T1, T52: durable before the target acts on it, or at the latest before the caller's answer.
    return this.pipeline.forward(call.durability, audited, async () => {
      let card: AgentCardJson;
      try {
        if (cardFailure) {
          throw cardFailure;
        }
        card =
          call.card ??
          (await this.cards.cardOf(call.tenantId, call.correlationId, call.route.target));
      } catch (error) {
        if (error instanceof A2aUpstreamFailure) {
          return this.exchange.failed(call, request.id!, askedFor, error);
        }
        throw error;
      }
      const sent = await push.plan.forward(forward);
      const view = toPerson ? toPerson.view(push.plan.answerView) : push.plan.answerView;
      if (selling && payment) {
        return this.sales.sell(call, request, selling, payment, () =>
          this.exchange.forward(call, card, sent, askedFor, view),
        );
      }
      const paid = new PaidCall(this.payments, paymentCallOf(call), payment);
      if (payment) {
        // PY10, T1: the attempt is durable before the payee can act on the payment.
        await this.payments.attempted(paid.call, payment);
      }
      const answer = await this.exchange.forward(call, card, sent, askedFor, view, paid);
      return toPerson ? toPerson.settle(answer) : answer;
    });
  }

  /**
   * GR37: the card's data schemas check the request, so a target whose card was never fetched has
   * it fetched before the request is judged (the forward needs it next anyway); a fetch that fails
   * is answered by the forward, after the judgement, as before.
   */
  private async knowCard(call: A2aCall): Promise<A2aUpstreamFailure | undefined> {
    if (call.route.target.card) {
      return undefined;
    }
    try {
      call.card = await this.cards.cardOf(call.tenantId, call.correlationId, call.route.target);
      return undefined;
    } catch (error) {
      if (error instanceof A2aUpstreamFailure) {
        return error;
      }
      throw error;
    }
  }

  /** Admission in A2A: 403 (D32), −31005 (D35), 429 with −31029 the A2A SDK reads (D36). */
  async admit(
    call: A2aCall,
    message: JsonRpcMessage | undefined,
    direction: MessageDirection,
    method?: string,
  ): Promise<A2aAnswer | undefined> {
    const hops = message ? [a2aHopOf(call, direction, message, method)] : [];
    const refused = await this.pipeline.admit(call.admission, hops, 1);
    switch (refused?.kind) {
      case undefined:
        return undefined;
      case 'NOT_SUBSCRIBED':
        throw new HttpProblem(403, 'forbidden', refused.reason);
      case 'KILL_SWITCH':
        return {
          kind: 'json',
          status: 200,
          body: rpcRefusal(message?.id, refused.answer.refusal, refused.answer.data),
        };
      case 'RATE_LIMITED':
        return {
          kind: 'json',
          status: 429,
          headers: { 'retry-after': String(refused.retryAfterSeconds) },
          body: rpcRefusal(message?.id, refused.answer.refusal, refused.answer.data),
        };
    }
  }

  /** T62, T1: no pushes for a person's client; audited as BLOCK before the answer. */
  private async refusePush(call: A2aCall, request: JsonRpcMessage): Promise<JsonRpcMessage> {
    const reason = 'push notifications are not offered on the human path';
    const { decisionId, audited } = this.pipeline.refusing(a2aHopOf(call, 'REQUEST', request), {
      type: 'COMMUNICATION_AUDIT',
      action: 'BLOCK',
      reason,
    });
    await audited;
    return rpcError(
      request.id ?? null,
      A2A_PUSH_NOT_SUPPORTED,
      'Push Notification is not supported',
      {
        reasons: [reason],
        decisionId,
        correlationId: call.correlationId,
      },
    );
  }

  /** PY4: a payment refused before policy never goes on; its hop is audited as BLOCK first. */
  private async refusePayment(
    call: A2aCall,
    request: JsonRpcMessage,
    answer: RefusalAnswer,
  ): Promise<JsonRpcMessage> {
    const reasons = answer.data.reasons as string[];
    const { decisionId, audited } = this.pipeline.refusing(a2aHopOf(call, 'REQUEST', request), {
      type: 'COMMUNICATION_AUDIT',
      action: 'BLOCK',
      reason: reasons.join('; '),
    });
    await audited;
    return rpcRefusal(request.id, answer.refusal, { ...answer.data, decisionId }, answer.message);
  }

  /** D38, T61: the subscription decides; a person's card points at the human path. */
  async card(caller: A2aCaller, targetId: string): Promise<AgentCardJson> {
    const call = await this.callFor(caller, targetId);
    if (!call.route.subscription) {
      throw new HttpProblem(403, 'forbidden', notSubscribed(call));
    }
    try {
      const card = await this.cards.cardOf(call.tenantId, call.correlationId, call.route.target);
      return this.cards.served(targetId, card, call.user ? 'human' : 'a2a');
    } catch (error) {
      if (error instanceof A2aUpstreamFailure) {
        throw new HttpProblem(502, 'agent-card-unavailable', error.message);
      }
      throw error;
    }
  }

  /** D34: a resend releases an approved hold once; a held answer needs no second target call. */
  private async resend(
    call: A2aCall,
    hitlRequestId: string,
    request: JsonRpcMessage,
    payment: JudgedPayment | undefined,
  ): Promise<{ kind: 'forward' | 'answer'; body: JsonRpcMessage }> {
    const released = await this.pipeline.release<JsonRpcMessage>({
      tenantId: call.tenantId,
      agentId: call.callerId,
      correlationId: call.correlationId,
      hitlRequestId,
      resendDigest: paidResendDigest(resendDigestOf(request), payment),
    });
    if (!released) {
      throw HttpProblem.notFound(`no HITL request ${hitlRequestId} of this agent`);
    }
    // PY14: a reviewer's rejection of a held payment is recorded as the payment's.
    const outcome = payment
      ? await this.payments.judgedHop(paymentCallOf(call), payment, released)
      : released;
    const settled = asA2a(request, outcome);
    if (settled.kind === 'refused') {
      return { kind: 'answer', body: settled.answer };
    }
    return outcome.kind === 'RELEASED' && outcome.direction === 'REQUEST'
      ? { kind: 'forward', body: settled.message }
      : { kind: 'answer', body: settled.message };
  }

  async callFor(caller: A2aCaller, targetId: string): Promise<A2aCall> {
    const party: A2aParty = caller.user ? 'USER' : caller.installation ? 'INSTALLATION' : 'AGENT';
    const basis = await callBasisOf(
      this.directory,
      caller,
      this.routes.route(caller.tenantId, caller.agentId, targetId, party),
      `no agent ${targetId} in this tenant`,
    );
    const double = caller.evaluation?.double;
    if (double) {
      basis.route = await a2aRouteWithDouble(
        this.routes,
        caller.tenantId,
        caller.agentId,
        basis.route,
        double,
        (target) => this.cards.cardOf(caller.tenantId, caller.correlationId, target),
      );
    }
    return {
      ...basis,
      callerId: caller.agentId,
      targetId,
      headers: caller.headers,
      ...(caller.user ? { user: caller.user } : {}),
      ...(caller.installation?.licence ? { licence: caller.installation.licence } : {}),
      admission: a2aAdmission(this.routes, basis, caller.agentId, targetId, party),
    };
  }
}

/** D32's refusal of a caller without an AGENT_TO_AGENT (a person: USER_TO_AGENT) subscription. */
function notSubscribed(call: A2aCall): string {
  return `${call.user ? 'user' : 'agent'} ${call.callerId} is not subscribed to agent ${call.targetId}`;
}
