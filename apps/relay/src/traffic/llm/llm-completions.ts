import { performance } from 'node:perf_hooks';

import { Injectable, Logger } from '@nestjs/common';

import { LlmCallRecord } from '../pipeline/gateway-call-events';
import { LlmProviderRoute } from '../pipeline/llm-route';
import { upstreamRequest } from './chat-messages';
import { CompletionAnswers } from './completion-answers';
import {
  Admitted,
  Attempt,
  CallFields,
  LlmAnswer,
  readLimited,
  warningHeaders,
} from './llm-answer';
import { LlmCall, llmPaymentCallOf } from './llm-call';
import { PaidCall } from '../payments/paid-call';
import { X402Payments } from '../payments/x402-payments';
import { LlmSpend } from './llm-spend';
import { AllProvidersFailed, Answered, LlmForwarder } from './llm-forwarder';
import { LlmPathErrorCode, LlmPathException } from './llm-path.exception';
import { ProviderAnswer, ProviderFailure } from './llm-upstream';

export type { Admitted, LlmAnswer } from './llm-answer';

/** D39, T20: each call ends with its LLM_GATEWAY_CALL. */
@Injectable()
export class LlmCompletions {
  private readonly logger = new Logger(LlmCompletions.name);

  constructor(
    private readonly forwarder: LlmForwarder,
    private readonly answers: CompletionAnswers,
    private readonly spend: LlmSpend,
    private readonly payments: X402Payments,
  ) {}

  async forward(call: LlmCall, admitted: Admitted): Promise<LlmAnswer> {
    const model = admitted.toSend.model;
    const upstreamModel = call.route.gateway.modelMap[model] ?? model;
    const offeredBy = admitted.payment?.offeredBy;
    // payments.md PY16: a payment goes to the provider that asked for it, never fails over.
    const providers = providersFor(call, model).filter((p) => !offeredBy || p.id === offeredBy);
    if (providers.length === 0) {
      if (admitted.payment) {
        await this.payments.abandoned(
          llmPaymentCallOf(call, []),
          admitted.payment,
          'invalid',
          `no provider of LLM gateway "${call.route.gateway.name}" that asked for it serves the model ${upstreamModel}`,
        );
      }
      throw new LlmPathException(
        LlmPathErrorCode.ModelNotFound,
        `no provider of LLM gateway "${call.route.gateway.name}" serves the model ${upstreamModel}`,
      );
    }
    if (admitted.payment) {
      // PY10, T1: the attempt is durable before the provider can act on the payment.
      await this.payments.attempted(
        this.paidBy(call, providers[0].id, admitted).call,
        admitted.payment,
      );
    }
    const abort = new AbortController();
    call.signal?.addEventListener('abort', () => abort.abort(), { once: true });
    return this.answerFrom(
      {
        call,
        admitted,
        providers,
        abort,
        started: performance.now(),
        base: { model, upstreamModel, isStreamed: admitted.original.stream === true },
        body: JSON.stringify(upstreamRequest(admitted.toSend, upstreamModel)),
      },
      0,
      [],
    );
  }

  /** D39, T23: a provider whose answer breaks before any byte reached the agent is skipped too. */
  private async answerFrom(
    attempt: Attempt,
    from: number,
    failed: ProviderFailure[],
  ): Promise<LlmAnswer> {
    const { call, admitted } = attempt;
    let answered: Answered;
    try {
      answered = await this.forwarder.firstAnswering(
        call,
        attempt.providers.slice(from),
        {
          method: 'POST',
          path: 'chat/completions',
          body: attempt.body,
          ...(admitted.payment
            ? {
                payment: {
                  header: admitted.payment.attempt.header,
                  value: admitted.payment.attempt.value,
                },
              }
            : {}),
          correlationId: call.correlationId,
          trace: call.trace,
          signal: attempt.abort.signal,
        },
        from,
      );
    } catch (error) {
      if (!(error instanceof AllProvidersFailed)) {
        throw error;
      }
      await this.paidBy(call, error.last.id, admitted).unanswered(error.message);
      return this.allFailed(attempt, error.last, [...failed, ...error.failures]);
    }
    const index = from + answered.attempts - 1;
    const record = (fields: CallFields): void =>
      this.record(attempt, {
        ...attempt.base,
        ...fields,
        provider: answered.provider,
        attempts: index + 1,
        latencyMs: performance.now() - attempt.started,
      });
    const { answer, provider } = answered;
    const paid = this.paidBy(call, provider.id, admitted);
    // PY2, PY13: a forwarded payment's settlement recorded, the x402 headers handed back.
    const headers = {
      ...warningHeaders(admitted.warnings),
      ...(await paid.answered(answer.statusCode, answer.headers)),
    };
    if (answer.statusCode >= 400) {
      const said = await readLimited(answer, provider);
      const required = answer.statusCode === 402 && (await paid.required(answer.headers, said));
      if (required) {
        // PY16: the agent pays as it would pay the provider; the call ends here, as a 402.
        record({ outcome: 'ERROR', httpStatus: 402, reason: 'x402 payment required' });
        return { kind: 'json', status: 402, body: said, headers: { ...headers, ...required } };
      }
      record({ outcome: 'ERROR', httpStatus: answer.statusCode, reason: said.slice(0, 300) });
      const body = providerError(said);
      await this.answers.fault(call, provider, answer.statusCode, said.slice(0, 300), body);
      return { kind: 'json', status: answer.statusCode, body, headers };
    }
    const failOver = async (failure: ProviderFailure): Promise<LlmAnswer> => {
      answer.body.destroy();
      const next = attempt.providers[index + 1];
      if (!next) {
        return this.allFailed(attempt, provider, [...failed, failure]);
      }
      await this.forwarder.failedOver(call, provider, next, failure, index + 1);
      return this.answerFrom(attempt, index + 1, [...failed, failure]);
    };
    const taken = { answered, record, headers, failOver };
    if (attempt.base.isStreamed && contentTypeOf(answer) === 'text/event-stream') {
      return this.answers.stream(attempt, taken);
    }
    return this.answers.whole(attempt, taken);
  }

  /** PY16: a call's x402 side, towards the one provider it reached. */
  private paidBy(call: LlmCall, providerId: string, admitted: Admitted): PaidCall {
    return new PaidCall(this.payments, llmPaymentCallOf(call, [providerId]), admitted.payment);
  }

  /** T17: no provider answered: 502, 504 or 429, the call recorded as an ERROR of the last. */
  private async allFailed(
    attempt: Attempt,
    last: LlmProviderRoute,
    failures: ProviderFailure[],
  ): Promise<never> {
    const { call, base, started } = attempt;
    const httpStatus = failures.at(-1)?.httpStatus;
    this.record(attempt, {
      ...base,
      provider: last,
      outcome: 'ERROR',
      latencyMs: performance.now() - started,
      attempts: failures.length,
      reason: failures.at(-1)?.message,
      ...(httpStatus ? { httpStatus } : {}),
    });
    const problem = upstreamProblem(failures, call);
    await this.answers.fault(call, last, problem.status, problem.message);
    throw problem;
  }

  /** LLM_GATEWAY_CALL with its cost (SP5); the agent does not wait for it. */
  private record({ call, admitted }: Attempt, record: LlmCallRecord): void {
    this.spend.settle(call, admitted.reservation, record).catch((error: unknown) => {
      this.logger.error(
        { err: error, correlationId: call.correlationId },
        'LLM_GATEWAY_CALL not recorded',
      );
    });
  }
}

/** D39: the gateway's providers that serve `model` (after the gateway's `modelMap`), in order. */
export function providersFor(call: LlmCall, model: string): LlmProviderRoute[] {
  const upstreamModel = call.route.gateway.modelMap[model] ?? model;
  return call.route.gateway.providers.filter(
    (p) => p.models === null || p.models.includes(upstreamModel),
  );
}

function contentTypeOf(answer: ProviderAnswer): string {
  const value = answer.headers['content-type'];
  return (typeof value === 'string' ? value : '').split(';')[0].trim().toLowerCase();
}

/** A provider's own error (a 400 for an unknown parameter) as it said it, or wrapped when not JSON. */
function providerError(said: string): unknown {
  try {
    const body = JSON.parse(said) as unknown;
    if (body && typeof body === 'object' && 'error' in body) {
      return body;
    }
  } catch {
    // not JSON: wrapped below
  }
  return {
    error: { message: said.slice(0, 2_000), type: 'provider_error', code: null, param: null },
  };
}

/** T19: every provider failed: 504 when the last timed out, 429 when all were rate limited, else 502. */
function upstreamProblem(failures: ProviderFailure[], call: LlmCall): LlmPathException {
  const last = failures[failures.length - 1];
  const data = { correlationId: call.correlationId, attempts: failures.length };
  const message = `every provider of LLM gateway "${call.route.gateway.name}" failed; the last: ${last.message}`;
  if (failures.every((f) => f.httpStatus === 429)) {
    return new LlmPathException(LlmPathErrorCode.RateLimited, message, data, {
      ...(last.retryAfter ? { headers: { 'retry-after': last.retryAfter } } : {}),
    });
  }
  return new LlmPathException(
    last.kind === 'TIMEOUT' ? LlmPathErrorCode.UpstreamTimeout : LlmPathErrorCode.UpstreamFailed,
    message,
    data,
  );
}
