import { Injectable } from '@nestjs/common';
import { DomainException, HttpProblem } from '@agp/http';

import { HopPipeline } from '../pipeline/hop-pipeline';
import { Hop } from '../pipeline/hop.types';
import { HITL_HEADER, callBasisOf, holdTermsOf, resendHoldOf } from '../pipeline/traffic-call';
import { TrafficDirectory } from '../pipeline/traffic-directory';
import { TrafficCaller } from '../pipeline/traffic-intake';
import { ChatRequest, parseChatRequest, requestText } from './chat-messages';
import { Admitted, LlmAnswer, LlmCompletions } from './llm-completions';
import { heldDigestOf } from './llm-answer';
import { LlmCall, hopOf, llmAdmission } from './llm-call';
import { admissionRefused, outcomeRefused } from './llm-refusals';
import { LlmPathErrorCode, LlmPathException } from './llm-path.exception';
import { completionAsStream } from './completion-as-stream';
import { LlmSpend } from './llm-spend';
import { BudgetReservation, budgetRefusal, softReason } from '../../spend/budget-verdict';
import { paidHop } from '../payments/paid-hop';
import { JudgedPayment } from '../payments/x402-payments';
import { LlmPayments } from './llm-payments';

/** Who calls the path (T38: an agent). */
export type LlmCaller = TrafficCaller;

/** D20, D39: admission (D32, D35, D36), judgement (D33) and holds (D34) before any provider. */
@Injectable()
export class LlmRelayService {
  constructor(
    private readonly directory: TrafficDirectory,
    private readonly pipeline: HopPipeline,
    private readonly completions: LlmCompletions,
    private readonly spend: LlmSpend,
    private readonly payments: LlmPayments,
  ) {}

  async complete(caller: LlmCaller, gatewayId: string, body: unknown): Promise<LlmAnswer> {
    const call = await this.callFor(caller, gatewayId);
    const parsed = parseChatRequest(body);
    if ('errors' in parsed) {
      const fields = [...new Set(parsed.errors.map((e) => e.field))].join(', ');
      throw new LlmPathException(
        LlmPathErrorCode.InvalidRequest,
        `invalid request: ${fields}`,
        {},
        { errors: parsed.errors },
      );
    }
    const request = parsed.request;
    const asked = hopOf(call, 'REQUEST', { json: request, text: requestText(request) });
    await this.admit(call, [asked]);
    const hitlRequestId = resendHoldOf(
      caller.headers,
      () =>
        new LlmPathException(
          LlmPathErrorCode.InvalidRequest,
          `invalid request: ${HITL_HEADER}`,
          {},
          { errors: [{ field: HITL_HEADER, message: 'must be a UUID' }] },
        ),
    );
    // D60, payments.md PY4, PY16: a payment is checked before anything else judges the request.
    const payment = await this.payments.judge(call, asked, request, hitlRequestId === undefined);
    const { reservation, hop } = await this.withinBudgets(call, asked, request, payment);
    try {
      if (hitlRequestId !== undefined) {
        return await this.resend(call, hitlRequestId, request, reservation, payment);
      }
      const admitted = {
        ...(await this.judgeRequest(call, hop, request, payment)),
        reservation,
        ...(payment ? { payment } : {}),
      };
      // T1, T52: durable before a provider sees it, or at the latest before the agent's answer.
      return await this.pipeline.forward(
        call.durability,
        admitted.audited ?? Promise.resolve(),
        () => this.completions.forward(call, admitted),
      );
    } catch (error) {
      // SP8: nothing reached a provider, or its LLM_GATEWAY_CALL settles the reservation anyway.
      await this.spend.release(reservation);
      if (payment && !(error instanceof DomainException)) {
        // PY25: a refusal has already recorded its payment's end; an unexpected failure has not,
        // so the payment's reservation would otherwise be held until it expires.
        await this.payments.abandoned(call, payment, 'invalid', 'the call failed unexpectedly');
      }
      throw error;
    }
  }

  /**
   * D60, SP8–SP10: refused before any provider over a hard limit (audited, the budget named); a
   * soft limit reached makes the request hop a WARN.
   */
  private async withinBudgets(
    call: LlmCall,
    hop: Hop,
    request: ChatRequest,
    payment: JudgedPayment | undefined,
  ): Promise<{ reservation?: BudgetReservation; hop: Hop }> {
    const verdict = await this.spend.reserve(call, request);
    if (verdict.kind === 'EXCEEDED') {
      if (payment) {
        // PY17: the call is refused, so its payment never goes on.
        await this.payments.abandoned(call, payment, 'budget', verdict.reason);
      }
      const refused = this.pipeline.refusing(hop, {
        type: 'COMMUNICATION_AUDIT',
        action: 'BLOCK',
        reason: verdict.reason,
        details: { budget: verdict.budget },
      });
      await refused.audited;
      const { data } = budgetRefusal(verdict, call.correlationId, refused.decisionId);
      throw new LlmPathException(LlmPathErrorCode.BudgetExceeded, verdict.reason, data);
    }
    const reason = verdict.warnings.map(softReason).join('; ');
    return {
      ...(verdict.reservation ? { reservation: verdict.reservation } : {}),
      hop: reason ? { ...hop, imposed: { action: 'WARN', reason } } : hop,
    };
  }

  /** D39: the models the gateway offers: its map's names and what its providers list. */
  async models(caller: LlmCaller, gatewayId: string): Promise<LlmAnswer> {
    const call = await this.callFor(caller, gatewayId);
    await this.admit(call, [], 1);
    const { gateway } = call.route;
    const names = new Set([
      ...Object.keys(gateway.modelMap),
      ...gateway.providers.flatMap((p) => p.models ?? []),
    ]);
    const data = [...names].sort().map((id) => ({
      id,
      object: 'model',
      created: 0,
      owned_by: gateway.name,
    }));
    return { kind: 'json', status: 200, body: { object: 'list', data }, headers: {} };
  }

  /** D33: the request's decision; MASK sends the masked request, WARN says so in a header. */
  private async judgeRequest(
    call: LlmCall,
    asked: Hop,
    request: ChatRequest,
    payment: JudgedPayment | undefined,
  ): Promise<Admitted> {
    // PY8: a paid request is one hop with `input.payment`, its review imposed as a hold.
    const hop = payment ? paidHop(asked, payment) : asked;
    const passed = await this.pipeline.pass(hop, {
      applied: (decision) =>
        decision.maskedFields.length > 0
          ? keepEnvelope(decision.maskedMessage.json, request)
          : request,
      ...holdTermsOf(call, heldDigestOf(request, payment)),
    });
    const outcome = payment ? await this.payments.judgedHop(call, payment, passed) : passed;
    switch (outcome.kind) {
      case 'DELIVERED': {
        const { decision } = outcome;
        return {
          original: request,
          toSend: outcome.message,
          warnings: decision.action === 'WARN' ? decision.reasons : [],
          audited: outcome.audited,
        };
      }
      case 'RELEASED':
        return { original: request, toSend: keepEnvelope(outcome.message, request), warnings: [] };
      case 'REFUSED':
      case 'HELD':
        // T1: what the agent is told is in the trail first.
        await outcome.audited;
        throw outcomeRefused(outcome);
    }
  }

  /** D34: a held request goes as its decision left it, not rejudged: a person approved it. */
  private async resend(
    call: LlmCall,
    hitlRequestId: string,
    request: ChatRequest,
    reservation: BudgetReservation | undefined,
    payment: JudgedPayment | undefined,
  ): Promise<LlmAnswer> {
    const released = await this.pipeline.release<unknown>({
      tenantId: call.tenantId,
      agentId: call.agentId,
      correlationId: call.correlationId,
      hitlRequestId,
      resendDigest: heldDigestOf(request, payment),
    });
    if (!released) {
      throw HttpProblem.notFound(`no HITL request ${hitlRequestId} of this agent`);
    }
    // PY14: a reviewer's rejection of a held payment is recorded as the payment's.
    const outcome = payment ? await this.payments.judgedHop(call, payment, released) : released;
    if (outcome.kind !== 'RELEASED') {
      throw outcomeRefused(outcome);
    }
    if (outcome.direction === 'REQUEST') {
      const toSend = keepEnvelope(outcome.message, request);
      return this.completions.forward(call, {
        original: request,
        toSend,
        warnings: [],
        reservation,
        ...(payment ? { payment } : {}),
      });
    }
    // The completion was held, not the request: no provider is called again.
    await this.spend.release(reservation);
    const completion = outcome.message;
    return request.stream === true
      ? completionAsStream(completion, request.stream_options?.include_usage === true)
      : { kind: 'json', status: 200, body: completion, headers: {} };
  }

  private async callFor(caller: LlmCaller, gatewayId: string): Promise<LlmCall> {
    const basis = await callBasisOf(
      this.directory,
      caller,
      this.directory.llmRoute(caller.tenantId, caller.agentId, gatewayId),
      `no LLM gateway ${gatewayId} in this tenant`,
    );
    return {
      ...basis,
      agentId: caller.agentId,
      gatewayId,
      agentHeaders: caller.headers,
      admission: llmAdmission(this.directory, basis, caller.agentId, gatewayId),
    };
  }

  /** D32, D35, D36: a listing of models counts as one message. */
  private async admit(call: LlmCall, hops: Hop[], count = hops.length): Promise<void> {
    const refused = await this.pipeline.admit(call.admission, hops, count);
    if (refused) {
      throw admissionRefused(refused, call.correlationId);
    }
  }
}

/** T18: restored from the agent's request, so a masked request still streams from its model. */
function keepEnvelope(decided: unknown, request: ChatRequest): ChatRequest {
  const value = (decided && typeof decided === 'object' ? decided : request) as ChatRequest;
  return {
    ...value,
    model: request.model,
    ...(request.stream !== undefined ? { stream: request.stream } : {}),
    ...(request.stream_options !== undefined ? { stream_options: request.stream_options } : {}),
  };
}
