import { createHash } from 'node:crypto';

import { canonicalJson } from '../../pipeline/canonical-json';
import { JsonRpcMessage } from '../json-rpc';
import { objectOr } from './revision-wire';

/**
 * T99: a 2025-era server's own request (elicitation, sampling, roots) keyed by what it asks, so
 * the same question asked again when the relay replays the call finds its earlier answer.
 */
export function inputKeyOf(request: JsonRpcMessage): string {
  const params = Object.fromEntries(
    Object.entries(objectOr(request.params)).filter(([key]) => key !== '_meta'),
  );
  const digest = createHash('sha256')
    .update(canonicalJson({ method: request.method, params }))
    .digest('base64url');
  return `agp-${digest.slice(0, 22)}`;
}

/** The answers a retried 2026 request brings: its `inputResponses` over those in `requestState`. */
export function inputAnswersOf(message: JsonRpcMessage): Record<string, unknown> {
  const params = objectOr(message.params);
  let earlier: Record<string, unknown> = {};
  if (typeof params.requestState === 'string') {
    try {
      earlier = objectOr(JSON.parse(params.requestState));
    } catch {
      earlier = {};
    }
  }
  return { ...earlier, ...objectOr(params.inputResponses) };
}

/** The request as the 2025-era server gets it: no MRTR fields (it never asked for them). */
export function withoutInputFields(message: JsonRpcMessage): JsonRpcMessage {
  const params = message.params;
  if (!params || Array.isArray(params)) {
    return message;
  }
  const { inputResponses: _responses, requestState: _state, ...rest } = params;
  return { ...message, params: rest };
}

/** 2026-07-28 InputRequiredResult for the server's request the relay has no answer to yet. */
export function inputRequiredOf(
  id: JsonRpcMessage['id'],
  request: JsonRpcMessage,
  answers: Record<string, unknown>,
): JsonRpcMessage {
  return {
    jsonrpc: '2.0',
    id,
    result: {
      resultType: 'input_required',
      inputRequests: {
        [inputKeyOf(request)]: { method: request.method, params: request.params ?? {} },
      },
      // Readable, so a policy reading `message.text` sees the earlier answers too (T99).
      requestState: JSON.stringify(answers),
    },
  };
}
