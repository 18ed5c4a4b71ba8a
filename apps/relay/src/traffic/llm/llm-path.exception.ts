import { DomainException, FieldError, assertUnreachable } from '@agp/http';

import { REFUSALS, Refusal } from '../pipeline/refusal-codes';

export enum LlmPathErrorCode {
  InvalidRequest = 'validation-error',
  NotSubscribed = 'forbidden',
  KillSwitch = 'kill-switch',
  Blocked = 'blocked-by-policy',
  EvaluationFailed = 'policy-evaluation-failed',
  Rejected = 'rejected-by-reviewer',
  Held = 'held-for-review',
  ModelNotFound = 'model-not-found',
  RateLimited = 'rate-limited',
  BudgetExceeded = 'budget-exceeded',
  PaymentRefused = 'payment-refused',
  UpstreamFailed = 'upstream-failed',
  UpstreamTimeout = 'upstream-timeout',
}

interface LlmPathError {
  status: number;
  type: string;
  code: string;
  /** D41: the platform's refusal, whose `agpCode` the body carries as JSON-RPC paths do. */
  refusal?: Refusal;
}

/** T19, D41: OpenAI's `type` and `code`, so its SDKs raise the right error class. */
function openAiError(code: LlmPathErrorCode): LlmPathError {
  switch (code) {
    case LlmPathErrorCode.InvalidRequest:
      return { status: 400, type: 'invalid_request_error', code: 'invalid_request' };
    case LlmPathErrorCode.NotSubscribed:
      return { status: 403, type: 'permission_error', code: 'not_subscribed' };
    case LlmPathErrorCode.KillSwitch:
      return {
        status: 403,
        type: 'permission_error',
        code: 'kill_switch',
        refusal: REFUSALS.killSwitch,
      };
    case LlmPathErrorCode.Blocked:
      return {
        status: 403,
        type: 'policy_violation',
        code: 'blocked_by_policy',
        refusal: REFUSALS.blockedByPolicy,
      };
    case LlmPathErrorCode.EvaluationFailed:
      return {
        status: 403,
        type: 'policy_violation',
        code: 'policy_evaluation_failed',
        refusal: REFUSALS.policyError,
      };
    case LlmPathErrorCode.Rejected:
      return {
        status: 403,
        type: 'policy_violation',
        code: 'rejected_by_reviewer',
        refusal: REFUSALS.reviewRejected,
      };
    case LlmPathErrorCode.Held:
      return {
        status: 409,
        type: 'policy_violation',
        code: 'held_for_review',
        refusal: REFUSALS.reviewPending,
      };
    case LlmPathErrorCode.ModelNotFound:
      return { status: 404, type: 'invalid_request_error', code: 'model_not_found' };
    case LlmPathErrorCode.RateLimited:
      return {
        status: 429,
        type: 'rate_limit_error',
        code: 'rate_limited',
        refusal: REFUSALS.rateLimited,
      };
    case LlmPathErrorCode.BudgetExceeded:
      // SP15: OpenAI's own answer for spent quota (429 `insufficient_quota`), D60's `agpCode`.
      return {
        status: 429,
        type: 'insufficient_quota',
        code: 'budget_exceeded',
        refusal: REFUSALS.budgetExceeded,
      };
    case LlmPathErrorCode.PaymentRefused:
      // payments.md PY17: an x402 payment the relay will not forward (D41 −31007's name).
      return {
        status: 403,
        type: 'policy_violation',
        code: 'payment_refused',
        refusal: REFUSALS.paymentRefused,
      };
    case LlmPathErrorCode.UpstreamFailed:
      return {
        status: 502,
        type: 'api_error',
        code: 'upstream_failed',
        refusal: REFUSALS.upstreamFailed,
      };
    case LlmPathErrorCode.UpstreamTimeout:
      return {
        status: 504,
        type: 'api_error',
        code: 'upstream_timeout',
        refusal: REFUSALS.upstreamFailed,
      };
    default:
      return assertUnreachable(code);
  }
}

/** The OpenAI error object of a refusal: the one shape an SDK reads, in a body or a stream. */
export function openAiErrorOf(
  code: LlmPathErrorCode,
  message: string,
): { message: string; type: string; code: string; param: null; agpCode?: string } {
  const { type, code: openAiCode, refusal } = openAiError(code);
  return { message, type, code: openAiCode, param: null, ...agpCodeOf(refusal) };
}

/** D41: the refusal's stable name, for a body's members and its `error`. */
function agpCodeOf(refusal: Refusal | undefined): { agpCode?: string } {
  return refusal ? { agpCode: refusal.agpCode } : {};
}

/** T19, D12, D33: OpenAI's `error` too, so an OpenAI SDK raises its own class with our message. */
export class LlmPathException extends DomainException {
  readonly status: number;
  override readonly extensions: Readonly<Record<string, unknown>>;

  constructor(
    code: LlmPathErrorCode,
    message: string,
    data: Record<string, unknown> = {},
    options: { errors?: FieldError[]; headers?: Record<string, string>; status?: number } = {},
  ) {
    super(code, message, options.errors, options.headers);
    this.status = options.status ?? openAiError(code).status;
    // The members go in `error` too: an OpenAI SDK keeps only `error` of a body (`APIError.error`).
    const { refusal } = openAiError(code);
    this.extensions = {
      ...agpCodeOf(refusal),
      ...data,
      error: { ...openAiErrorOf(code, message), ...data },
    };
  }
}
