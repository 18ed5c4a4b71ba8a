import { UnreadableBody } from '../pipeline/json-rpc-body';
import {
  JsonRpcMessage,
  RPC_INVALID_REQUEST,
  RPC_PARSE_ERROR,
  idOf,
  invalidMessage,
  kindOf,
  rpcError,
} from '../mcp/json-rpc';

/**
 * D61, A2A 1.0 § 9: the JSON-RPC error a POST body gets when it is not one JSON-RPC request, in
 * the words of the A2A SDK's server (`Invalid JSON payload.` for −32700), or undefined when it is
 * one. A2A has no batches (T30), and a response is not a request.
 */
export function a2aFramingError(body: unknown): JsonRpcMessage | undefined {
  if (body instanceof UnreadableBody) {
    return rpcError(null, RPC_PARSE_ERROR, 'Invalid JSON payload.');
  }
  const invalid = Array.isArray(body)
    ? 'the A2A path takes one JSON-RPC request per POST, not a batch'
    : (invalidMessage(body) ??
      (kindOf(body as JsonRpcMessage) === 'request'
        ? undefined
        : 'a JSON-RPC request is expected'));
  return invalid ? rpcError(idOf(body), RPC_INVALID_REQUEST, invalid) : undefined;
}
