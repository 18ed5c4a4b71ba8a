import { IncomingHttpHeaders } from 'node:http';

import { JsonRpcMessage, rpcError } from '../json-rpc';
import { decodedHeaderValue, nameOf } from './revision-wire';

/** 2026-07-28 `HeaderMismatch` (Streamable HTTP, Server Validation). */
export const RPC_HEADER_MISMATCH = -32020;

/** T96: why the request headers contradict the body the relay judges, if they do. */
export function headerMismatchOf(
  headers: IncomingHttpHeaders,
  message: JsonRpcMessage,
): string | undefined {
  const method = headers['mcp-method'];
  if (typeof method === 'string' && method.trim() !== (message.method ?? '')) {
    return `the Mcp-Method header "${method}" does not match the body's method "${message.method ?? ''}"`;
  }
  const name = headers['mcp-name'];
  if (typeof name !== 'string') {
    return undefined;
  }
  const decoded = decodedHeaderValue(name);
  if (decoded === undefined) {
    return 'the Mcp-Name header carries characters a header value cannot, without the Base64 sentinel';
  }
  const bodyName = nameOf(message);
  return bodyName !== undefined && bodyName !== decoded
    ? `the Mcp-Name header "${decoded}" does not match the body's "${bodyName}"`
    : undefined;
}

/** HTTP 400 with the request's id (a notification or a batch: `id: null`). */
export function headerMismatchAnswer(message: JsonRpcMessage | undefined, why: string) {
  const id = message?.id ?? null;
  return {
    kind: 'json' as const,
    status: 400,
    body: rpcError(id, RPC_HEADER_MISMATCH, `Header mismatch: ${why}`),
  };
}
