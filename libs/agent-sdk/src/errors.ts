/**
 * The client library's exceptions (specification, Errors: "Client-library exceptions"). Every one
 * is an {@link AgentSdkError}, so `catch (e) { if (e instanceof AgentSdkError) … }` catches them all.
 */
export class AgentSdkError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A configuration value is missing or malformed; the message names the variable. */
export class ConfigurationError extends AgentSdkError {
  constructor(
    message: string,
    /** The variable (or option) at fault, e.g. `SVC_AGENT_ID`. */
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

/** A JSON-RPC response carried `error` (a policy block of D33, an unknown tool, …). */
export class McpJsonRpcError extends AgentSdkError {
  constructor(
    message: string,
    readonly code: number,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** A webhook failed verification (missing header, bad timestamp, outside the window, bad signature). */
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
