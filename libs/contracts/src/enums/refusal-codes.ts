/**
 * The platform's own refusals on the traffic paths (D41, D60, D61): one table, so a JSON-RPC
 * `error.code`, its stable `data.agpCode` and the problem+json `agpCode` of the LLM path can never
 * disagree. The codes sit outside JSON-RPC's reserved range (−32768 … −32000), which the official
 * MCP SDK (−32000 connection closed, −32001 request timeout) and A2A (−32001 … −32009: task not
 * found, not cancelable, …) already use: a client built on either SDK must never read "blocked by
 * policy" as a timeout or a missing task. D41 overrides the −32001 … −32005, −32010 and −32029 of
 * D33–D36.
 */
export interface Refusal {
  /** The JSON-RPC `error.code`. */
  readonly code: number;
  /** The stable name, `data.agpCode` in JSON-RPC and `agpCode` in problem+json. */
  readonly agpCode: string;
  /** The JSON-RPC `error.message` when the site has nothing more precise to say. */
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
  /**
   * Beside D41 (the project's docs/decisions/traffic.md, T45): the upstream gave no usable answer at all
   * (refused, timed out, not JSON-RPC); on the A2A path with HTTP 502 or 504 (T35).
   */
  upstreamFailed: { code: -31011, agpCode: 'upstream_failed', message: 'upstream failed' },
  /** D36: over a rate limit (HTTP 429 with `Retry-After`, the same body inside a stream). */
  rateLimited: { code: -31029, agpCode: 'rate_limited', message: 'rate limited' },
} as const satisfies Record<string, Refusal>;

export type RefusalName = keyof typeof REFUSALS;
