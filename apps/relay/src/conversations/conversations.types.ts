import { Action, ConversationKeyKind, EventParty, Protocol } from '@agp/contracts';

/** D44, D57: one conversation in a list. */
export interface ConversationResponse {
  id: string;
  /** CV3: what keyed it (A2A_CONTEXT, MCP_SESSION, CHANNEL_THREAD, CORRELATION) and the value. */
  keyKind: ConversationKeyKind;
  key: string;
  startedAt: string;
  lastAt: string;
  /** Every hop of it, the ones the caller may not read included (CV6). */
  hopCount: number;
  protocols: Protocol[];
  agentIds: string[];
  userIds: string[];
  channelIds: string[];
  mcpServerIds: string[];
}

/** D57: what a hop's policies decided. */
export interface MessageDecision {
  action: Action;
  /** The policy groups whose bindings judged it. */
  policies: string[];
  reasons: string[];
}

/** D57: one hop; `content` (masked, D40) when the tenant captures content, else `contentDigest`. */
export interface ConversationMessageResponse {
  id: string;
  at: string;
  direction?: string;
  protocol: Protocol;
  source: EventParty;
  sink: EventParty;
  method?: string;
  toolName?: string;
  decision: MessageDecision;
  content?: unknown;
  contentDigest?: string;
  correlationId: string;
}

export interface ConversationDetailResponse extends ConversationResponse {
  messages: ConversationMessageResponse[];
  /** D31: the next page of messages (`?cursor=`), absent on the last. */
  nextCursor?: string;
}

export interface ConversationListResponse {
  items: ConversationResponse[];
  nextCursor?: string;
}

/** CV11: where an operator's message went and what its policies decided. */
export interface PostedMessageResponse {
  decisionId: string;
  conversationId: string;
  deliveredVia: 'CHANNEL_THREAD' | 'A2A';
  decision: MessageDecision;
  /** A2A: the agent's answer, as its own hop's decision left it (absent when that was refused). */
  reply?: string;
}
