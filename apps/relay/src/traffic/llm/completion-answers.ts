import { Injectable } from '@nestjs/common';

import { HopPipeline } from '../pipeline/hop-pipeline';
import { LlmProviderRoute } from '../pipeline/llm-route';
import { decisionRefusal } from '../pipeline/refusal-answers';
import { StreamWatch } from '../pipeline/stream-watch';
import { holdTermsOf } from '../pipeline/traffic-call';
import { ChatStream, ChatStreamHooks, ChatStreamResult, StreamFailedEarly } from './chat-stream';
import { completionText, usageOf } from './chat-messages';
import { Attempt, LlmAnswer, Taken, heldDigestOf, readLimited, warningHeaders } from './llm-answer';
import { LlmCall, hopOf } from './llm-call';
import { LlmPathErrorCode, LlmPathException } from './llm-path.exception';
import { decisionRefused, outcomeRefused } from './llm-refusals';
import { ProviderFailure, providerFailureOf, providerLabel } from './llm-upstream';
import { SchemaValidator } from '../../validation/schema-validator';
import {
  answerHasSchemas,
  llmAnswerValidation,
  streamedAnswerValidation,
} from '../../validation/llm-validation';
import { ValidationResult, validationOf } from '../../validation/validation.types';
import { MAX_WHOLE_CHARS } from './chat-chunks';
import { WholeAnswer } from './stream-window';

/** T20, D34, T6: provider faults are audited as ERROR hops; the pipeline decides and holds. */
@Injectable()
export class CompletionAnswers {
  constructor(
    private readonly pipeline: HopPipeline,
    private readonly watch: StreamWatch,
    private readonly validator: SchemaValidator,
  ) {}

  /** A completion answered whole: one RESPONSE hop (D33), then the agent gets it (T1). */
  async whole(
    { call, admitted, abort }: Attempt,
    { answered: { answer, provider }, record, headers, failOver }: Taken,
  ): Promise<LlmAnswer> {
    let completion: unknown;
    try {
      completion = JSON.parse(await readLimited(answer, provider));
    } catch (error) {
      if (abort.signal.aborted) {
        record({ outcome: 'ERROR', httpStatus: answer.statusCode, reason: 'the agent went away' });
        throw new LlmPathException(LlmPathErrorCode.UpstreamFailed, 'the agent went away');
      }
      return failOver(
        error instanceof SyntaxError
          ? new ProviderFailure(
              'BROKEN',
              `${providerLabel(provider)} answered a body that is not JSON`,
            )
          : providerFailureOf(error, provider, 'BROKEN'),
      );
    }
    const usage = usageOf(completion);
    const upstreamModel = (completion as { model?: unknown }).model;
    const seen = {
      ...(usage ? { usage } : {}),
      ...(typeof upstreamModel === 'string' ? { upstreamModel } : {}),
      httpStatus: answer.statusCode,
    };
    const text = completionText(completion);
    const answered = hopOf(
      call,
      'RESPONSE',
      { json: completion, text },
      { llmProviderId: provider.id },
    );
    // GR23: the answer against the request's response_format.
    const validation = validationOf(
      llmAnswerValidation(admitted.original, completion, this.validator.check),
    );
    const hop = validation ? { ...answered, validation } : answered;
    const outcome = await this.pipeline.pass(hop, {
      applied: (decision) =>
        decision.maskedFields.length > 0 ? decision.maskedMessage.json : completion,
      ...holdTermsOf(call, heldDigestOf(admitted.original, admitted.payment)),
    });
    await outcome.audited;
    switch (outcome.kind) {
      case 'DELIVERED': {
        const { decision } = outcome;
        record({ ...seen, outcome: 'SUCCESS', action: decision.action });
        const warned =
          decision.action === 'WARN'
            ? [...admitted.warnings, ...decision.reasons]
            : admitted.warnings;
        return {
          kind: 'json',
          status: 200,
          body: outcome.message,
          // PY13: the settlement's x402 headers stay beside the warnings.
          headers: { ...headers, ...warningHeaders(warned) },
        };
      }
      case 'RELEASED':
        record({ ...seen, outcome: 'SUCCESS', action: 'HUMAN_REVIEW_REQUIRED' });
        return { kind: 'json', status: 200, body: outcome.message, headers };
      case 'REFUSED':
      case 'HELD':
        record({
          ...seen,
          ...(outcome.kind === 'REFUSED' && outcome.decision
            ? { outcome: 'BLOCKED', action: outcome.decision.action }
            : { outcome: 'HELD', action: 'HUMAN_REVIEW_REQUIRED' }),
        });
        throw outcomeRefused(outcome);
    }
  }

  /** A streamed completion, judged in windows (T20). */
  stream(
    { call, admitted, abort, started }: Attempt,
    { answered: { answer, provider }, record, headers, failOver }: Taken,
  ): LlmAnswer {
    const hooks = this.hooksFor(call, provider, admitted);
    return {
      kind: 'stream',
      headers,
      run: async (start) => {
        const stream = new ChatStream(
          start,
          hooks,
          admitted.original.stream_options?.include_usage === true,
        );
        let result: ChatStreamResult;
        try {
          result = await stream.run(answer.body, abort.signal);
        } catch (error) {
          if (!(error instanceof StreamFailedEarly)) {
            abort.abort();
            throw error;
          }
          // T23: the agent has nothing of this provider yet: the next one answers instead.
          const next = await failOver(providerFailureOf(error.fault, provider, 'BROKEN'));
          return next.kind === 'json' ? next : next.run(start);
        }
        try {
          if (result.outcome === 'ERROR') {
            await this.fault(call, provider, 502, result.reason ?? 'the stream failed');
          }
          record({
            outcome: result.outcome === 'CANCELLED' ? 'ERROR' : result.outcome,
            action: result.action,
            windows: result.windows,
            httpStatus: answer.statusCode,
            ...(result.usage ? { usage: result.usage } : {}),
            ...(result.upstreamModel ? { upstreamModel: result.upstreamModel } : {}),
            ...(result.firstTokenAt !== undefined
              ? { firstTokenMs: result.firstTokenAt - started }
              : {}),
            ...(result.reason ? { reason: result.reason } : {}),
          });
        } finally {
          abort.abort();
        }
        return undefined;
      },
    };
  }

  /** T6: audited as ERROR, as on MCP, so error counts see it beside LLM_GATEWAY_CALL. */
  fault(
    call: LlmCall,
    provider: LlmProviderRoute,
    httpStatus: number,
    reason: string,
    body: unknown = { error: { message: reason } },
  ): Promise<void> {
    const hop = hopOf(
      call,
      'RESPONSE',
      { json: body, text: reason },
      { llmProviderId: provider.id },
    );
    return this.pipeline.refuse(hop, {
      type: 'COMMUNICATION_AUDIT',
      action: 'ERROR',
      reason,
      details: { outcome: 'ERROR', httpStatus },
    });
  }

  private streamValidation(request: unknown, whole: WholeAnswer): ValidationResult[] {
    const oversized = { choices: whole.oversized, limit: MAX_WHOLE_CHARS };
    return streamedAnswerValidation(request, whole.completion, oversized, this.validator.check);
  }

  /** A stream's windows judged (T20), held (D34) and watched (T2) through the pipeline. */
  private hooksFor(
    call: LlmCall,
    provider: LlmProviderRoute,
    admitted: Attempt['admitted'],
  ): ChatStreamHooks {
    const request = admitted.original;
    const resendDigest = heldDigestOf(request, admitted.payment);
    return {
      checksWhole: answerHasSchemas(request),
      judge: async (window, text, windowNo, whole) => {
        const details = { llmProviderId: provider.id, streamWindow: windowNo };
        const windowHop = hopOf(call, 'RESPONSE', { json: window, text }, details);
        // GR35: the stream's last window carries the check of the answer it came to.
        const validation = whole && validationOf(this.streamValidation(request, whole));
        const verdict = await this.pipeline.judge(
          validation ? { ...windowHop, validation } : windowHop,
        );
        await verdict.audited;
        const { decision, decisionId } = verdict;
        if (verdict.isDelivered) {
          return { kind: 'deliver', decision, decisionId };
        }
        const { data } = decisionRefusal(decision, decisionId, call.correlationId);
        return {
          kind: 'refuse',
          refusal: decisionRefused(decision, data),
          action: decision.action,
          outcome: 'BLOCKED',
        };
      },
      hold: async (held, decision, decisionId) => {
        const text = completionText(held);
        const hop = hopOf(call, 'RESPONSE', { json: held, text }, { llmProviderId: provider.id });
        const outcome = await this.pipeline.hold(
          hop,
          { decision, decisionId, audited: Promise.resolve() },
          held,
          holdTermsOf(call, resendDigest),
        );
        return outcome.kind === 'RELEASED'
          ? { kind: 'released', completion: outcome.message }
          : {
              kind: 'refuse',
              refusal: outcomeRefused(outcome),
              action: 'HUMAN_REVIEW_REQUIRED',
              outcome: 'HELD',
            };
      },
      stopReason: () => this.watch.stopReason(call.admission),
    };
  }
}
