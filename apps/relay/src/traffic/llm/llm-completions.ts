import { performance } from 'node:perf_hooks';

import { Injectable, Logger } from '@nestjs/common';

import { HopAuditor } from '../pipeline/hop-auditor';
import { HopPipeline } from '../pipeline/hop-pipeline';
import { LlmProviderRoute } from '../pipeline/llm-route';
import { TrafficDirectory } from '../pipeline/traffic-directory';
import { TrafficGuard } from '../pipeline/traffic-guard';
import { SseWriter } from '../pipeline/sse-writer';
import { ChatStream, ChatStreamHooks, ChatStreamResult, StreamFailedEarly } from './chat-stream';
import {
  ChatRequest,
  completionText,
  resendDigestOf,
  upstreamRequest,
  usageOf,
} from './chat-messages';
import { LlmCallRecord, gatewayCallEvent } from './llm-call-events';
import { LlmCall, guardSubjectOf, hopOf } from './llm-call';
import { AllProvidersFailed, Answered, LlmForwarder } from './llm-forwarder';
import { LlmHolds, heldRefusal, refusalOf } from './llm-holds';
import { LlmPathErrorCode, LlmPathException } from './llm-path.exception';
import {
  MAX_COMPLETION_BYTES,
  ProviderAnswer,
  ProviderFailure,
  providerFailureOf,
  providerLabel,
} from './llm-upstream';

export interface LlmJsonAnswer {
  kind: 'json';
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** What the controller sends the agent: a JSON body, or a stream it starts on the first event. */
export type LlmAnswer =
  | LlmJsonAnswer
  | {
      kind: 'stream';
      headers: Record<string, string>;
      /**
       * `start` takes the response over; a refusal before it is thrown as a problem (T20). A
       * failover before it (T23) may end in a JSON answer instead, which is returned.
       */
      run(start: () => SseWriter): Promise<LlmJsonAnswer | undefined>;
    };

/** The agent's request, what goes upstream after its decision, and what to tell the agent. */
export interface Admitted {
  original: ChatRequest;
  toSend: ChatRequest;
  warnings: string[];
}

/** One call on its way through the gateway's providers (D39). */
interface Attempt {
  call: LlmCall;
  admitted: Admitted;
  /** The providers that serve the model, in the gateway's order. */
  providers: LlmProviderRoute[];
  abort: AbortController;
  started: number;
  base: Pick<LlmCallRecord, 'model' | 'upstreamModel' | 'isStreamed'>;
  /** The chat request as every provider is sent it. */
  body: string;
}

type CallFields = Pick<LlmCallRecord, 'outcome'> & Partial<LlmCallRecord>;

/** The provider that answered, with what records the call and what fails it over (T23). */
interface Taken {
  answered: Answered;
  record(fields: CallFields): void;
  headers: Record<string, string>;
  failOver(failure: ProviderFailure): Promise<LlmAnswer>;
}

/**
 * The upstream half of the LLM path (D39): the model mapped and the providers that serve it, the
 * failover, and every completion judged before it reaches the agent, whole or in windows (T20).
 * Each call ends with its LLM_GATEWAY_CALL.
 */
@Injectable()
export class LlmCompletions {
  private readonly logger = new Logger(LlmCompletions.name);

  constructor(
    private readonly forwarder: LlmForwarder,
    private readonly pipeline: HopPipeline,
    private readonly holds: LlmHolds,
    private readonly auditor: HopAuditor,
    private readonly guard: TrafficGuard,
    private readonly directory: TrafficDirectory,
  ) {}

  async forward(call: LlmCall, admitted: Admitted): Promise<LlmAnswer> {
    const model = admitted.toSend.model;
    const upstreamModel = call.route.gateway.modelMap[model] ?? model;
    const providers = call.route.gateway.providers.filter(
      (p) => p.models === null || p.models.includes(upstreamModel),
    );
    if (providers.length === 0) {
      throw new LlmPathException(
        LlmPathErrorCode.ModelNotFound,
        `no provider of LLM gateway "${call.route.gateway.name}" serves the model ${upstreamModel}`,
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

  /**
   * D39's failover from the provider at `from` on (`failed`: what the ones before it did), and the
   * answer of the first that answers carried to the agent. T23: a provider whose answer breaks,
   * stalls or is not a completion before any byte of it has reached the agent is skipped too.
   */
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
          correlationId: call.correlationId,
          signal: attempt.abort.signal,
        },
        from,
      );
    } catch (error) {
      if (!(error instanceof AllProvidersFailed)) {
        throw error;
      }
      return this.allFailed(attempt, error.last, [...failed, ...error.failures]);
    }
    const index = from + answered.attempts - 1;
    const record = (fields: CallFields): void =>
      this.record(call, {
        ...attempt.base,
        ...fields,
        provider: answered.provider,
        attempts: index + 1,
        latencyMs: performance.now() - attempt.started,
      });
    const headers = warningHeaders(admitted.warnings);
    const { answer, provider } = answered;
    if (answer.statusCode >= 400) {
      const said = await readLimited(answer, provider);
      record({ outcome: 'ERROR', httpStatus: answer.statusCode, reason: said.slice(0, 300) });
      const body = providerError(said);
      await this.auditFault(call, provider, answer.statusCode, said.slice(0, 300), body);
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
      return this.stream(attempt, taken);
    }
    return this.whole(attempt, taken);
  }

  /** T17: no provider answered: 502, 504 or 429, the call recorded as an ERROR of the last. */
  private async allFailed(
    { call, base, started }: Attempt,
    last: LlmProviderRoute,
    failures: ProviderFailure[],
  ): Promise<never> {
    const httpStatus = failures.at(-1)?.httpStatus;
    this.record(call, {
      ...base,
      provider: last,
      outcome: 'ERROR',
      latencyMs: performance.now() - started,
      attempts: failures.length,
      reason: failures.at(-1)?.message,
      ...(httpStatus ? { httpStatus } : {}),
    });
    const problem = upstreamProblem(failures, call);
    await this.auditFault(call, last, problem.status, problem.message);
    throw problem;
  }

  /** A completion answered whole: one RESPONSE hop (D33), then the agent gets it (T1). */
  private async whole(
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
    const hop = hopOf(
      call,
      'RESPONSE',
      { json: completion, text: completionText(completion) },
      {
        llmProviderId: provider.id,
      },
    );
    const verdict = await this.pipeline.judge(hop);
    const { decision } = verdict;
    await verdict.audited;
    if (!verdict.isDelivered) {
      record({ ...seen, outcome: 'BLOCKED', action: decision.action });
      throw refusalOf(decision, verdict.decisionId, call);
    }
    const decided = decision.maskedFields.length > 0 ? decision.maskedMessage.json : completion;
    if (decision.action === 'HUMAN_REVIEW_REQUIRED') {
      const outcome = await this.holds.holdAndWait(
        call,
        hop,
        decided,
        verdict,
        resendDigestOf(admitted.original),
      );
      const refusal = heldRefusal(outcome, call);
      record({ ...seen, outcome: refusal ? 'HELD' : 'SUCCESS', action: decision.action });
      if (refusal) {
        throw refusal;
      }
      return { kind: 'json', status: 200, body: outcome.request?.message, headers };
    }
    record({ ...seen, outcome: 'SUCCESS', action: decision.action });
    const warned =
      decision.action === 'WARN' ? [...admitted.warnings, ...decision.reasons] : admitted.warnings;
    return { kind: 'json', status: 200, body: decided, headers: warningHeaders(warned) };
  }

  /** A streamed completion, judged in windows (T20). */
  private stream(
    { call, admitted, abort, started }: Attempt,
    { answered: { answer, provider }, record, headers, failOver }: Taken,
  ): LlmAnswer {
    const hooks: ChatStreamHooks = {
      judge: async (window, text, windowNo) => {
        const hop = hopOf(
          call,
          'RESPONSE',
          { json: window, text },
          {
            llmProviderId: provider.id,
            streamWindow: windowNo,
          },
        );
        const verdict = await this.pipeline.judge(hop);
        await verdict.audited;
        return verdict.isDelivered
          ? { kind: 'deliver', decision: verdict.decision, decisionId: verdict.decisionId }
          : {
              kind: 'refuse',
              refusal: refusalOf(verdict.decision, verdict.decisionId, call),
              action: verdict.decision.action,
              outcome: 'BLOCKED',
            };
      },
      hold: async (held, decision, decisionId) => {
        const hop = hopOf(
          call,
          'RESPONSE',
          { json: held, text: completionText(held) },
          {
            llmProviderId: provider.id,
          },
        );
        const outcome = await this.holds.holdAndWait(
          call,
          hop,
          held,
          { decision, decisionId },
          resendDigestOf(admitted.original),
        );
        const refusal = heldRefusal(outcome, call);
        return refusal
          ? { kind: 'refuse', refusal, action: 'HUMAN_REVIEW_REQUIRED', outcome: 'HELD' }
          : { kind: 'released', completion: outcome.request?.message };
      },
      stopReason: () => this.stopReason(call),
    };
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
            await this.auditFault(call, provider, 502, result.reason ?? 'the stream failed');
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

  /**
   * T6 on the LLM path: a provider's fault (every provider failed, an error answered, a broken
   * body or stream) is a RESPONSE hop audited as ERROR with `details.outcome`, as on MCP, so the
   * tenant's error counts see it beside the call's own LLM_GATEWAY_CALL.
   */
  private auditFault(
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

  private async stopReason(call: LlmCall): Promise<string | undefined> {
    const engaged = await this.guard.killSwitchFor(guardSubjectOf(call));
    if (engaged) {
      return `kill switch ${engaged.id} (${engaged.scope}): ${engaged.reason}`;
    }
    const route = await this.directory.llmRoute(call.tenantId, call.agentId, call.gatewayId);
    return route?.subscription
      ? undefined
      : 'the agent is no longer subscribed to this LLM gateway';
  }

  /** LLM_GATEWAY_CALL, committed with the hops' group commit; the agent does not wait for it. */
  private record(call: LlmCall, record: LlmCallRecord): void {
    this.auditor.record([gatewayCallEvent(call, record)]).catch((error: unknown) => {
      this.logger.error(
        { err: error, correlationId: call.correlationId },
        'LLM_GATEWAY_CALL not recorded',
      );
    });
  }
}

/** D33: WARN's reasons in `X-Agp-Warning`, as printable ASCII (a header carries nothing else). */
function warningHeaders(warnings: string[]): Record<string, string> {
  if (warnings.length === 0) {
    return {};
  }
  return { 'x-agp-warning': warnings.join('; ').replace(/[^\x20-\x7e]/g, '?') };
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

async function readLimited(answer: ProviderAnswer, provider: LlmProviderRoute): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of answer.body) {
    size += (chunk as Buffer).length;
    if (size > MAX_COMPLETION_BYTES) {
      answer.body.destroy();
      throw new LlmPathException(
        LlmPathErrorCode.UpstreamFailed,
        `${providerLabel(provider)} answered more than ${MAX_COMPLETION_BYTES} bytes`,
      );
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
