/** The platform's own refusals on the traffic paths (D41, D60, D61, D33, D36). */
export interface Refusal {
  readonly code: number;
  readonly agpCode: string;
  readonly message: string;
}

export const REFUSALS = {
  /** D33: blocked by policy (and a tool outside the agent's grant, T4; a refused release, T7). */
  blockedByPolicy: { code: -31001, agpCode: 'blocked_by_policy', message: 'blocked by policy' },
  /** D33: the policy evaluation failed and the tenant fails closed (D22). */
  policyError: { code: -31002, agpCode: 'policy_error', message: 'policy evaluation failed' },
  /** D34: a person rejected the held message. */
  reviewRejected: {
    code: -31003,
    agpCode: 'review_rejected',
    message: 'rejected by a reviewer',
  },
  /** D34: held for human review and still pending (`data.hitlRequestId`, `retryAfter`). */
  reviewPending: { code: -31004, agpCode: 'review_pending', message: 'held for human review' },
  /** D35: a kill switch on the tenant, the caller or the target is engaged. */
  killSwitch: { code: -31005, agpCode: 'kill_switch', message: 'kill switch engaged' },
  /** D60: over a budget's hard limit. */
  budgetExceeded: { code: -31006, agpCode: 'budget_exceeded', message: 'budget exceeded' },
  /** D60: a payment refused by policy, budget, reviewer or payee. */
  paymentRefused: { code: -31007, agpCode: 'payment_refused', message: 'payment refused' },
  /** D60: the marketplace licence does not hold. */
  licenceInvalid: { code: -31008, agpCode: 'licence_invalid', message: 'licence invalid' },
  /** D60: the marketplace installation is suspended. */
  installationSuspended: {
    code: -31009,
    agpCode: 'installation_suspended',
    message: 'installation suspended',
  },
  /** D61: the upstream closed (or broke) a stream before it had answered (T6, T35). */
  streamIncomplete: {
    code: -31010,
    agpCode: 'stream_incomplete',
    message: 'the stream ended before its answer',
  },
  /** Beside D41 (the project's docs/decisions/traffic.md, T45, T35). */
  upstreamFailed: { code: -31011, agpCode: 'upstream_failed', message: 'upstream failed' },
  /** D36: over a rate limit (HTTP 429 with `Retry-After`, the same body inside a stream). */
  rateLimited: { code: -31029, agpCode: 'rate_limited', message: 'rate limited' },
} as const satisfies Record<string, Refusal>;

export type RefusalName = keyof typeof REFUSALS;
