import { BudgetReservation } from '../../spend/budget-verdict';
import { paidResendDigest } from '../payments/paid-hop';
import { JudgedPayment } from '../payments/x402-payments';
import { LlmCallRecord } from '../pipeline/gateway-call-events';
import { LlmProviderRoute } from '../pipeline/llm-route';
import { SseWriter } from '../pipeline/sse-writer';
import { readBodyWithin } from '../pipeline/upstream-body';
import { ChatRequest, resendDigestOf } from './chat-messages';
import { LlmCall } from './llm-call';
import { Answered } from './llm-forwarder';
import { LlmPathErrorCode, LlmPathException } from './llm-path.exception';
import {
  MAX_COMPLETION_BYTES,
  ProviderAnswer,
  ProviderFailure,
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
      /** T20, T23: `start` takes the response over; a failover before it may answer JSON. */
      run(start: () => SseWriter): Promise<LlmJsonAnswer | undefined>;
    };

/**
 * PY14, PY27: what a hold of this call (its request's or its answer's) is released to: a resend of
 * the same request with the same payment, the paid call a reviewer approved.
 */
export function heldDigestOf(request: ChatRequest, payment: JudgedPayment | undefined): string {
  return paidResendDigest(resendDigestOf(request), payment);
}

/** The agent's request, what goes upstream after its decision, and what to tell the agent. */
export interface Admitted {
  original: ChatRequest;
  toSend: ChatRequest;
  warnings: string[];
  /** The request's records; durable before it goes on or before its answer does (T52). */
  audited?: Promise<void>;
  /** SP8: what the call holds against its budgets until its LLM_GATEWAY_CALL settles it. */
  reservation?: BudgetReservation;
  /** payments.md PY16: a judged x402 payment, forwarded only to the provider that asked for it. */
  payment?: JudgedPayment;
}

/** One call on its way through the gateway's providers (D39). */
export interface Attempt {
  call: LlmCall;
  admitted: Admitted;
  providers: LlmProviderRoute[];
  abort: AbortController;
  started: number;
  base: Pick<LlmCallRecord, 'model' | 'upstreamModel' | 'isStreamed'>;
  body: string;
}

export type CallFields = Pick<LlmCallRecord, 'outcome'> & Partial<LlmCallRecord>;

/** The provider that answered, with what records the call and what fails it over (T23). */
export interface Taken {
  answered: Answered;
  record(fields: CallFields): void;
  headers: Record<string, string>;
  failOver(failure: ProviderFailure): Promise<LlmAnswer>;
}

/** D33: WARN's reasons in `X-Agp-Warning`, as printable ASCII (a header carries nothing else). */
export function warningHeaders(warnings: string[]): Record<string, string> {
  if (warnings.length === 0) {
    return {};
  }
  return { 'x-agp-warning': warnings.join('; ').replace(/[^\x20-\x7e]/g, '?') };
}

export function readLimited(answer: ProviderAnswer, provider: LlmProviderRoute): Promise<string> {
  return readBodyWithin(
    answer,
    MAX_COMPLETION_BYTES,
    () =>
      new LlmPathException(
        LlmPathErrorCode.UpstreamFailed,
        `${providerLabel(provider)} answered more than ${MAX_COMPLETION_BYTES} bytes`,
      ),
  );
}
