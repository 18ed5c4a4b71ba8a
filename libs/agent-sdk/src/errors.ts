export class AgentSdkError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class ConfigurationError extends AgentSdkError {
  constructor(
    message: string,
    readonly variable: string,
  ) {
    super(message);
  }
}

/** The platform refused the agent's credentials or token (401 after the one retry). */
export class AuthenticationError extends AgentSdkError {}

/** The token endpoint did not issue a token (refused credentials, or unreachable after retries). */
export class TokenRefreshError extends AuthenticationError {
  constructor(
    message: string,
    readonly statusCode?: number,
    readonly responseBody?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** An HTTP answer the library does not turn into a result (4xx other than 401, or 5xx after the retries). */
export class ApiError extends AgentSdkError {
  constructor(
    message: string,
    readonly statusCode: number,
    readonly responseBody: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** 403 on the relay's MCP path: the agent has no subscription to that server (D20, D32). */
export class McpNotSubscribedError extends ApiError {
  constructor(
    readonly mcpServerId: string,
    responseBody: unknown,
  ) {
    super(`agent is not subscribed to MCP server ${mcpServerId}`, 403, responseBody);
  }
}

/** The platform's refusals on the traffic paths (D41, D60, D61), by their stable name. */
export const REFUSAL_CODES = {
  blocked_by_policy: -31001,
  policy_error: -31002,
  review_rejected: -31003,
  review_pending: -31004,
  kill_switch: -31005,
  budget_exceeded: -31006,
  payment_refused: -31007,
  licence_invalid: -31008,
  installation_suspended: -31009,
  stream_incomplete: -31010,
  upstream_failed: -31011,
  rate_limited: -31029,
} as const;

export type RefusalCode = keyof typeof REFUSAL_CODES;

function isRefusalCode(value: unknown): value is RefusalCode {
  return typeof value === 'string' && Object.hasOwn(REFUSAL_CODES, value);
}

function memberOf(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object'
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

export function refusalCodeOf(error: unknown): RefusalCode | undefined {
  const body = memberOf(error, 'responseBody');
  const candidates = [
    memberOf(memberOf(error, 'data'), 'agpCode'),
    memberOf(memberOf(memberOf(body, 'error'), 'data'), 'agpCode'),
    memberOf(body, 'agpCode'),
    memberOf(memberOf(body, 'error'), 'agpCode'),
    memberOf(memberOf(error, 'error'), 'agpCode'),
  ];
  const found = candidates.find(isRefusalCode);
  if (found) {
    return found;
  }
  const cause = memberOf(error, 'cause');
  return cause === undefined || cause === error ? undefined : refusalCodeOf(cause);
}

/** A JSON-RPC response carried `error` (D41). */
export class McpJsonRpcError extends AgentSdkError {
  /** The platform refusal's stable name, when the relay refused the message (D41). */
  readonly agpCode?: RefusalCode;

  constructor(
    message: string,
    readonly code: number,
    readonly data?: unknown,
  ) {
    super(message);
    const agpCode = refusalCodeOf(this);
    if (agpCode) {
      this.agpCode = agpCode;
    }
  }
}

export class WebhookVerificationError extends AgentSdkError {}

/** A task polled with `tasks/get` did not reach a terminal state within the maximum wait. */
export class TaskTimeoutError extends AgentSdkError {
  constructor(
    readonly taskId: string,
    readonly lastState: string,
  ) {
    super(`task ${taskId} still ${lastState} after the maximum wait`);
  }
}
