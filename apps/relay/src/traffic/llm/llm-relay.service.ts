import { Injectable } from '@nestjs/common';
import { HttpProblem } from '@agp/http';

import { HopPipeline } from '../pipeline/hop-pipeline';
import { Hop } from '../pipeline/hop.types';
import { HITL_HEADER, callBasisOf, resendHoldOf } from '../pipeline/traffic-call';
import { TrafficDirectory } from '../pipeline/traffic-directory';
import { TrafficCaller } from '../pipeline/traffic-intake';
import { TrafficGuard } from '../pipeline/traffic-guard';
import { ChatRequest, parseChatRequest, requestText, resendDigestOf } from './chat-messages';
import { Admitted, LlmAnswer, LlmCompletions } from './llm-completions';
import { LlmCall, guardSubjectOf, hopOf } from './llm-call';
import { LlmHolds, heldRefusal, refusalOf } from './llm-holds';
import { LlmPathErrorCode, LlmPathException } from './llm-path.exception';
import { completionAsStream } from './completion-as-stream';

/** Who calls the path (T38: an agent). */
export type LlmCaller = TrafficCaller;

/**
 * The LLM path (D20, D39): `POST /relay/llm/{gatewayId}/v1/chat/completions` and `GET .../v1/models`.
 * Before anything reaches a provider: the gateway and the subscription (D32, 403), the kill
 * switches (D35), the rate limits (D36), then the chat request judged as a hop (D33), held for a
 * person when its decision says so (D34).
 */
@Injectable()
export class LlmRelayService {
  constructor(
    private readonly directory: TrafficDirectory,
    private readonly guard: TrafficGuard,
    private readonly pipeline: HopPipeline,
    private readonly holds: LlmHolds,
    private readonly completions: LlmCompletions,
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
    const hop = hopOf(call, 'REQUEST', { json: request, text: requestText(request) });
    await this.admit(call, [hop]);
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
    if (hitlRequestId !== undefined) {
      return this.resend(call, hitlRequestId, request);
    }
    return this.completions.forward(call, await this.judgeRequest(call, hop, request));
  }

  /** D39: the models the gateway offers: its map's names and what its providers list. */
  async models(caller: LlmCaller, gatewayId: string): Promise<LlmAnswer> {
    const call = await this.callFor(caller, gatewayId);
    await this.admit(call, []);
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
  private async judgeRequest(call: LlmCall, hop: Hop, request: ChatRequest): Promise<Admitted> {
    const verdict = await this.pipeline.judge(hop);
    const { decision } = verdict;
    await verdict.audited;
    if (!verdict.isDelivered) {
      throw refusalOf(decision, verdict.decisionId, call);
    }
    const decided =
      decision.maskedFields.length > 0
        ? keepEnvelope(decision.maskedMessage.json, request)
        : request;
    if (decision.action === 'HUMAN_REVIEW_REQUIRED') {
      const outcome = await this.holds.holdAndWait(
        call,
        hop,
        decided,
        verdict,
        resendDigestOf(request),
      );
      const refusal = heldRefusal(outcome, call);
      if (refusal) {
        throw refusal;
      }
      return {
        original: request,
        toSend: keepEnvelope(outcome.request?.message, request),
        warnings: [],
      };
    }
    return {
      original: request,
      toSend: decided,
      warnings: decision.action === 'WARN' ? decision.reasons : [],
    };
  }

  /**
   * D34: the same request again with `X-Agp-Hitl-Request-Id` releases an approved hold once: a
   * held request goes to the providers as its decision left it (not judged again: a person
   * approved it); a held completion is answered from the hold, without calling a provider again.
   */
  private async resend(
    call: LlmCall,
    hitlRequestId: string,
    request: ChatRequest,
  ): Promise<LlmAnswer> {
    const outcome = await this.holds.releaseOnResend(call, hitlRequestId, resendDigestOf(request));
    if (!outcome) {
      throw HttpProblem.notFound(`no HITL request ${hitlRequestId} of this agent`);
    }
    const refusal = heldRefusal(outcome, call);
    if (refusal) {
      throw refusal;
    }
    if (outcome.request?.direction === 'REQUEST') {
      const toSend = keepEnvelope(outcome.request.message, request);
      return this.completions.forward(call, { original: request, toSend, warnings: [] });
    }
    const completion = outcome.request?.message;
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
    return { ...basis, agentId: caller.agentId, gatewayId, agentHeaders: caller.headers };
  }

  /**
   * Before any policy: the subscription (D32: 403, audited as BLOCK), an engaged kill switch on the
   * tenant, the agent or the gateway (D35: 403 `kill-switch`, audited as BLOCK), the rate limits
   * (D36: 429 with Retry-After, RATE_LIMIT once per key per minute).
   */
  private async admit(call: LlmCall, hops: Hop[]): Promise<void> {
    if (!call.route.subscription) {
      const reason = `agent ${call.agentId} is not subscribed to LLM gateway ${call.gatewayId}`;
      await this.refuseAll(hops, 'COMMUNICATION_AUDIT', reason);
      throw new LlmPathException(LlmPathErrorCode.NotSubscribed, reason, {
        correlationId: call.correlationId,
      });
    }
    const subject = guardSubjectOf(call);
    const engaged = await this.guard.killSwitchFor(subject);
    if (engaged) {
      const reason = `kill switch ${engaged.id} (${engaged.scope}): ${engaged.reason}`;
      await this.refuseAll(hops, 'COMMUNICATION_AUDIT', reason, { killSwitchId: engaged.id });
      throw new LlmPathException(LlmPathErrorCode.KillSwitch, reason, {
        reasons: [reason],
        killSwitchId: engaged.id,
        correlationId: call.correlationId,
      });
    }
    const limited = await this.guard.rateLimitFor(subject, Math.max(hops.length, 1));
    if (limited) {
      const reason = `over the rate limit of ${limited.perMinute} messages per minute (${limited.key})`;
      if (limited.isFirstInWindow) {
        await this.refuseAll(hops.slice(0, 1), 'RATE_LIMIT', reason, {
          key: limited.key,
          perMinute: limited.perMinute,
        });
      }
      throw new LlmPathException(
        LlmPathErrorCode.RateLimited,
        reason,
        { correlationId: call.correlationId },
        { headers: { 'retry-after': String(limited.retryAfterSeconds) } },
      );
    }
  }

  private async refuseAll(
    hops: Hop[],
    type: 'COMMUNICATION_AUDIT' | 'RATE_LIMIT',
    reason: string,
    details?: Record<string, unknown>,
  ): Promise<void> {
    await Promise.all(
      hops.map((hop) =>
        this.pipeline.refuse(hop, {
          type,
          action: 'BLOCK',
          reason,
          ...(details ? { details } : {}),
        }),
      ),
    );
  }
}

/**
 * T18: a mask cannot change what the call is (`model`, `stream`, `stream_options`): they are
 * restored from the agent's request, so a masked request still streams from the model it named.
 */
function keepEnvelope(decided: unknown, request: ChatRequest): ChatRequest {
  const value = (decided && typeof decided === 'object' ? decided : request) as ChatRequest;
  return {
    ...value,
    model: request.model,
    ...(request.stream !== undefined ? { stream: request.stream } : {}),
    ...(request.stream_options !== undefined ? { stream_options: request.stream_options } : {}),
  };
}
