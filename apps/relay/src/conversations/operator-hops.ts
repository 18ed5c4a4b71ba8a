import { ConversationRecord } from '@agp/contracts';

import { EndpointRef } from '../decisions/decision.types';
import { Admission } from '../traffic/pipeline/admission';
import { Hop } from '../traffic/pipeline/hop.types';

/** Who posts, into which conversation, under which request (D13). */
export interface OperatorPost {
  tenantId: string;
  correlationId: string;
  operator: EndpointRef;
  conversation: ConversationRecord;
  text: string;
  captureContent: boolean;
}

/** CV11: every hop of an operator names its conversation, so the trail files it there. */
function base(
  post: OperatorPost,
): Pick<Hop, 'tenantId' | 'correlationId' | 'agent' | 'user' | 'captureContent'> {
  return {
    tenantId: post.tenantId,
    correlationId: post.correlationId,
    agent: post.operator,
    user: { id: post.operator.id },
    captureContent: post.captureContent,
  };
}

function pinned(post: OperatorPost): Record<string, unknown> {
  return {
    operatorMessage: true,
    conversationKey: `${post.conversation.keyKind}:${post.conversation.key}`,
  };
}

/** CV12: into a channel thread, towards the person, as the agent's replies go (D43, CH8). */
export function threadHop(
  post: OperatorPost,
  channel: { id: string; name: string; kind: string },
  threadId: string,
): Hop {
  const json = { text: post.text, threadId };
  return {
    ...base(post),
    protocol: 'CHANNEL',
    direction: 'RESPONSE',
    source: post.operator,
    sink: { type: 'CHANNEL', id: channel.id, name: channel.name },
    method: 'message',
    message: { json, text: post.text },
    details: { ...pinned(post), channelId: channel.id, channelKind: channel.kind, threadId },
  };
}

/** CV12: an A2A `SendMessage` to the agent, in the conversation's context when it has one. */
export function agentHop(
  post: OperatorPost,
  agent: EndpointRef,
  messageId: string,
  contextId: string | undefined,
): Hop {
  const json = {
    jsonrpc: '2.0',
    id: messageId,
    method: 'SendMessage',
    params: {
      message: {
        messageId,
        role: 'ROLE_USER',
        parts: [{ text: post.text }],
        ...(contextId ? { contextId } : {}),
      },
    },
  };
  return {
    ...base(post),
    protocol: 'JSONRPC',
    direction: 'REQUEST',
    source: post.operator,
    sink: agent,
    method: 'SendMessage',
    message: { json, text: post.text },
    details: { ...pinned(post), a2a: true, ...(contextId ? { a2aContextId: contextId } : {}) },
  };
}

/** The agent's answer to the operator, judged like any answer (D33). */
export function answerHop(request: Hop, text: string): Hop {
  return {
    ...request,
    direction: 'RESPONSE',
    source: request.sink,
    sink: request.source,
    message: { json: { text }, text },
  };
}

/**
 * D35, D36: a kill switch on the tenant, the agent or the channel stops it, and the operator's own
 * rate counts. CV10: the operator stands under AGENT_CONVERSATIONS:WRITE, not a subscription, so
 * the conversation stands in for one.
 */
export function operatorAdmission(post: OperatorPost, target: Hop['sink']): Admission {
  const scope = target.type === 'CHANNEL' ? 'CHANNEL' : 'AGENT';
  return {
    tenantId: post.tenantId,
    agentId: post.operator.id,
    callerLabel: `user ${post.operator.id}`,
    correlationId: post.correlationId,
    subscriptionId: post.conversation.id,
    targetLabel: `${scope === 'CHANNEL' ? 'channel' : 'agent'} ${target.id}`,
    targetNoun: scope === 'CHANNEL' ? 'this channel' : 'this agent',
    targets: [
      { scope: 'TENANT', id: post.tenantId },
      { scope, id: target.id },
    ],
    isStillSubscribed: () => Promise.resolve(true),
  };
}
