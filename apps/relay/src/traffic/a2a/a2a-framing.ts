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

/** D61, A2A 1.0 § 9: the A2A SDK server's words; no batches (T30), and a response is no request. */
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
