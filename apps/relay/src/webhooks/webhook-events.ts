import { EventData, EventEnvelope } from '@agp/contracts';

/** The event types an agent's webhook receives (the specification's webhook section, D19). */
export const WEBHOOK_EVENT_TYPES = [
  'SUBSCRIPTION_CHANGED',
  'AGENT_LIFECYCLE',
  'TENANT_LIFECYCLE',
  'MCP_GRANTS_CHANGED',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export type WebhookEvent = {
  [T in WebhookEventType]: EventEnvelope<T, EventData<T>>;
}[WebhookEventType];

/** Which agents of the event's tenant an event touches (those with a webhook URL receive it). */
export type WebhookAudience =
  | { kind: 'agents'; agentIds: string[] }
  /** The agent, unless it is gone, and every agent with an AGENT_TO_AGENT subscription to it. */
  | { kind: 'agent-and-callers'; agentId: string; includesAgent: boolean }
  | { kind: 'tenant' }
  | { kind: 'nobody' };

/** The ends of a subscription that are agents, by kind (D32). */
const AGENT_ENDS: Record<string, Array<'sourceId' | 'targetId'>> = {
  AGENT_TO_AGENT: ['sourceId', 'targetId'],
  AGENT_TO_MCP_SERVER: ['sourceId'],
  AGENT_TO_LLM_GATEWAY: ['sourceId'],
  USER_TO_AGENT: ['targetId'],
  CHANNEL_TO_AGENT: ['targetId'],
  USER_TO_MCP_SERVER: [],
};

/** Webhook fields of an agent: changing them is not announced to that same webhook. */
const WEBHOOK_FIELDS = new Set(['webhookUrl']);

export function audienceOf(event: WebhookEvent): WebhookAudience {
  switch (event.type) {
    case 'SUBSCRIPTION_CHANGED': {
      const { data } = event;
      const ends = AGENT_ENDS[data.kind] ?? [];
      return { kind: 'agents', agentIds: [...new Set(ends.map((end) => data[end]))] };
    }
    case 'MCP_GRANTS_CHANGED':
      return { kind: 'agents', agentIds: [event.data.agentId] };
    case 'TENANT_LIFECYCLE':
      return { kind: 'tenant' };
    case 'AGENT_LIFECYCLE':
      return isAnnounced(event.data)
        ? {
            kind: 'agent-and-callers',
            agentId: event.data.agentId,
            includesAgent: event.data.change !== 'DELETED',
          }
        : { kind: 'nobody' };
  }
}

/**
 * The relay records an AGENT_LIFECYCLE beside each subscription change for the audit trail (D32);
 * the agent already receives that change as SUBSCRIPTION_CHANGED, so it is not sent twice. A
 * change of the webhook itself is not sent either: it would be signed with a secret the agent may
 * not hold yet.
 */
function isAnnounced(data: EventData<'AGENT_LIFECYCLE'>): boolean {
  const details = data.details ?? {};
  if (details.subscription !== undefined) {
    return false;
  }
  const fields = details.fields;
  return !(
    Array.isArray(fields) &&
    fields.length > 0 &&
    fields.every((field) => WEBHOOK_FIELDS.has(String(field)))
  );
}

/** Audit fields (actors, summaries, details) are the administrators' business, not the agent's. */
export function webhookData(event: WebhookEvent): Record<string, unknown> {
  switch (event.type) {
    case 'SUBSCRIPTION_CHANGED': {
      const { change, subscriptionId, kind, sourceId, targetId, tools } = event.data;
      return { change, subscriptionId, kind, sourceId, targetId, ...definedTools(tools) };
    }
    case 'MCP_GRANTS_CHANGED': {
      const { subscriptionId, agentId, mcpServerId, tools, previousTools } = event.data;
      return {
        subscriptionId,
        agentId,
        mcpServerId,
        ...definedTools(tools),
        ...(previousTools !== undefined ? { previousTools } : {}),
      };
    }
    case 'AGENT_LIFECYCLE': {
      const { agentId, name, change, status } = event.data;
      return { agentId, name, change, status };
    }
    case 'TENANT_LIFECYCLE': {
      const { tenantId, slug, change } = event.data;
      return { tenantId, slug, change };
    }
  }
}

function definedTools(tools: string[] | null | undefined): { tools?: string[] | null } {
  return tools !== undefined ? { tools } : {};
}

/** D19's body, as the exact bytes every attempt sends and signs. */
export function webhookBody(event: WebhookEvent, deliveryId: string, agentId: string): string {
  return JSON.stringify({
    id: deliveryId,
    type: event.type,
    occurredAt: event.occurredAt,
    tenantId: event.tenantId,
    agentId,
    data: webhookData(event),
  });
}
