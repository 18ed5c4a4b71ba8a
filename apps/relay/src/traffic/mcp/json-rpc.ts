import { UnreadableBody } from '../pipeline/json-rpc-body';
import { Refusal, refusalData } from '../pipeline/refusal-codes';

/** JSON-RPC 2.0 as MCP and A2A carry it; platform refusals are D41's (refusal-codes.ts). */
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

/** D61: the MCP SDK's own answers for a bad body (HTTP 400, `id: null`: −32700, −32600). */
export function parseBody(body: unknown): ParsedBody | { invalid: JsonRpcMessage } {
  if (body instanceof UnreadableBody) {
    return { invalid: rpcError(null, RPC_PARSE_ERROR, 'Parse error: Invalid JSON') };
  }
  const isBatch = Array.isArray(body);
  const values = isBatch ? (body as unknown[]) : [body];
  if (values.length === 0) {
    return {
      invalid: rpcError(
        null,
        RPC_INVALID_REQUEST,
        'Invalid Request: an empty batch is not a request',
      ),
    };
  }
  for (const [index, value] of values.entries()) {
    const why = invalidMessage(value);
    if (why) {
      const where = isBatch ? `message ${index}: ` : '';
      return {
        invalid: rpcError(null, RPC_PARSE_ERROR, 'Parse error: Invalid JSON-RPC message', {
          reason: `${where}${why}`,
        }),
      };
    }
  }
  return { messages: values as JsonRpcMessage[], isBatch };
}

/** The id to answer a request by, or null when it has none a JSON-RPC answer could carry. */
export function idOf(value: unknown): JsonRpcId | null {
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

/** A refusal of the platform (D41) as a JSON-RPC error: its code, `data.agpCode` beside `data`. */
export function rpcRefusal(
  id: JsonRpcId | null | undefined,
  refusal: Refusal,
  data: Record<string, unknown> = {},
  message: string = refusal.message,
): JsonRpcMessage {
  return rpcError(id, refusal.code, message, refusalData(refusal, data));
}
