import { createHash } from 'node:crypto';

import { canonicalJson } from '../../pipeline/canonical-json';
import { JsonRpcMessage } from '../json-rpc';
import { objectOr } from './revision-wire';

/** Where a 2026 client's retry names the 2025 call the relay holds for it (T102). */
const HELD_CALL = 'agpHeldCall';

/** T99: a 2025-era server's own request (elicitation, sampling, roots) keyed by what it asks. */
export function inputKeyOf(request: JsonRpcMessage): string {
  return `agp-${digestOf(request).slice(0, 22)}`;
}

/**
 * T102: what a retry must repeat to resume a held call: the method and params the call was made
 * with, without `_meta` and the MRTR fields (MRTR retries the same request with answers added).
 */
export function requestBindingOf(request: JsonRpcMessage): string {
  return digestOf(withoutInputFields(request));
}

/** True when a 2026 request is a retry carrying answers or a request state (T102). */
export function isInputRetry(message: JsonRpcMessage): boolean {
  const params = objectOr(message.params);
  return params.inputResponses !== undefined || params.requestState !== undefined;
}

/** The held call a retry's `requestState` names, when it names one. */
export function heldCallOf(message: JsonRpcMessage): string | undefined {
  const state = objectOr(message.params).requestState;
  if (typeof state !== 'string') {
    return undefined;
  }
  try {
    const id = objectOr(JSON.parse(state))[HELD_CALL];
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
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

/** 2026-07-28 InputRequiredResult for the server's request, naming the call held for it (T102). */
export function inputRequiredOf(
  id: JsonRpcMessage['id'],
  request: JsonRpcMessage,
  heldCallId: string,
): JsonRpcMessage {
  return {
    jsonrpc: '2.0',
    id,
    result: {
      resultType: 'input_required',
      inputRequests: {
        [inputKeyOf(request)]: { method: request.method, params: request.params ?? {} },
      },
      requestState: JSON.stringify({ [HELD_CALL]: heldCallId }),
    },
  };
}

function digestOf(request: JsonRpcMessage): string {
  const params = Object.fromEntries(
    Object.entries(objectOr(request.params)).filter(([key]) => key !== '_meta'),
  );
  return createHash('sha256')
    .update(canonicalJson({ method: request.method, params }))
    .digest('base64url');
}
