import { ApiError, Page, api } from '../api/client';
import { accessToken } from '../auth/session';
import type { A2aReply } from './chat-turns';

/** An agent the signed-in person may talk to (`GET /relay/human`, traffic.md T61). */
export interface ReachableAgent {
  id: string;
  name: string;
  description?: string;
  relayPath: string;
  subscriptionId: string;
}

/** D43: the agents of the person's USER_TO_AGENT subscriptions. */
export function reachableAgents(): Promise<Page<ReachableAgent>> {
  return api<Page<ReachableAgent>>('/relay/human?pageSize=100');
}

export interface OutgoingMessage {
  agentId: string;
  messageId: string;
  text: string;
  contextId?: string;
  /** D34: a resend that delivers an approved hold. */
  hitlRequestId?: string;
}

/**
 * One A2A `message/send` (D38, protocol 0.3) to `/relay/human/{agentId}` with the person's own
 * token (D56). Refusals come back as JSON-RPC errors (HTTP 200, or 429 for a rate limit); what is
 * not JSON-RPC (a 403 problem+json) is thrown as an ApiError.
 */
export async function sendToAgent(message: OutgoingMessage): Promise<A2aReply> {
  const headers = new Headers({
    authorization: `Bearer ${await accessToken()}`,
    'content-type': 'application/json',
  });
  if (message.hitlRequestId) {
    headers.set('x-agp-hitl-request-id', message.hitlRequestId);
  }
  const response = await fetch(`/relay/human/${message.agentId}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: message.messageId,
      method: 'message/send',
      params: {
        message: {
          kind: 'message',
          role: 'user',
          // A resend is the same message (D34 recognises it by its digest).
          messageId: message.messageId,
          parts: [{ kind: 'text', text: message.text }],
          ...(message.contextId ? { contextId: message.contextId } : {}),
        },
      },
    }),
  });
  const body = (await response.json().catch(() => ({}))) as A2aReply &
    Partial<{ title: string; detail: string }>;
  if (body.result !== undefined || body.error !== undefined) {
    return body;
  }
  throw new ApiError(response.status, body.title ?? response.statusText, body.detail ?? '');
}
