/**
 * JSON-RPC 2.0 as MCP carries it: what a message is, how to tell its kinds apart, and the error
 * codes the relay answers with (D33, D34, D35, D36; T3 in docs/decisions/traffic.md).
 */
export type JsonRpcId = string | number;

export interface JsonRpcMessage {
  jsonrpc: '2.0';
  id?: JsonRpcId | null;
  method?: string;
  params?: Record<string, unknown> | unknown[];
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export type MessageKind = 'request' | 'notification' | 'response';

export const RPC_PARSE_ERROR = -32700;
export const RPC_INVALID_REQUEST = -32600;
export const RPC_INVALID_PARAMS = -32602;
export const RPC_INTERNAL_ERROR = -32603;
/** D33: blocked by policy (and a tool outside the agent's grant, T4). */
export const RPC_BLOCKED = -32001;
/** D33: the policy evaluation failed and the tenant fails closed. */
export const RPC_EVALUATION_FAILED = -32002;
/** D34: a person rejected the held message. */
export const RPC_REJECTED = -32003;
/** D34: held for human review and still pending. */
export const RPC_HELD = -32004;
/** D35: a kill switch is engaged. */
export const RPC_KILL_SWITCH = -32005;
/** T6: the MCP server failed (down, slow, garbage, cut mid-stream). */
export const RPC_UPSTREAM_FAILED = -32010;
/** D36: over a rate limit, inside a stream. */
export const RPC_RATE_LIMITED = -32029;

export function kindOf(message: JsonRpcMessage): MessageKind {
  if (typeof message.method === 'string') {
    return message.id === undefined ? 'notification' : 'request';
  }
  return 'response';
}

/** Why a value is not a JSON-RPC 2.0 message, or undefined when it is one. */
export function invalidMessage(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return 'a JSON-RPC message must be an object';
  }
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== '2.0') {
    return 'jsonrpc must be "2.0"';
  }
  const { id, method } = message;
  if (id !== undefined && id !== null && typeof id !== 'string' && typeof id !== 'number') {
    return 'id must be a string or a number';
  }
  if (method !== undefined) {
    if (typeof method !== 'string' || method.length === 0) {
      return 'method must be a non-empty string';
    }
    const params = message.params;
    if (params !== undefined && (params === null || typeof params !== 'object')) {
      return 'params must be an object or an array';
    }
    return id === null ? 'a request id must not be null' : undefined;
  }
  if (id === undefined) {
    return 'a message needs a method (request, notification) or an id (response)';
  }
  const hasResult = 'result' in message;
  const hasError = 'error' in message;
  if (hasResult === hasError) {
    return 'a response carries exactly one of result and error';
  }
  if (hasError) {
    const error = message.error as Record<string, unknown> | null;
    if (!error || typeof error.code !== 'number' || typeof error.message !== 'string') {
      return 'error must be {code, message}';
    }
  }
  return undefined;
}

export interface ParsedBody {
  messages: JsonRpcMessage[];
  isBatch: boolean;
}

/** A POST body as one message or a batch; throws a JSON-RPC error response when it is neither. */
export function parseBody(body: unknown): ParsedBody | { invalid: JsonRpcMessage } {
  const isBatch = Array.isArray(body);
  const values = isBatch ? (body as unknown[]) : [body];
  if (values.length === 0) {
    return { invalid: rpcError(null, RPC_INVALID_REQUEST, 'an empty batch is not a request') };
  }
  for (const [index, value] of values.entries()) {
    const why = invalidMessage(value);
    if (why) {
      const where = isBatch ? `message ${index}: ` : '';
      return { invalid: rpcError(idOf(value), RPC_INVALID_REQUEST, `${where}${why}`) };
    }
  }
  return { messages: values as JsonRpcMessage[], isBatch };
}

function idOf(value: unknown): JsonRpcId | null {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

export function rpcError(
  id: JsonRpcId | null | undefined,
  code: number,
  message: string,
  data?: Record<string, unknown>,
): JsonRpcMessage {
  return {
    jsonrpc: '2.0',
    id: id ?? null,
    error: { code, message, ...(data ? { data } : {}) },
  };
}
