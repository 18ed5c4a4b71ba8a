import { randomUUID } from 'node:crypto';

import { EventData } from '@agp/contracts';
import { buildEvent } from '@agp/messaging';

import { WebhookEvent, WebhookEventType, audienceOf, webhookBody } from './webhook-events';

function event<T extends WebhookEventType>(type: T, data: EventData<T>): WebhookEvent {
  return buildEvent(type, { tenantId: randomUUID(), correlationId: 'test' }, data) as WebhookEvent;
}

const AGENT = randomUUID();
const OTHER = randomUUID();
const SERVER = randomUUID();
const ACTOR = { type: 'USER', id: randomUUID(), label: 'alice@example.com' };

describe('audienceOf', () => {
  it.each([
    ['AGENT_TO_AGENT', [AGENT, OTHER]],
    ['AGENT_TO_MCP_SERVER', [AGENT]],
    ['AGENT_TO_LLM_GATEWAY', [AGENT]],
    ['USER_TO_AGENT', [OTHER]],
    ['CHANNEL_TO_AGENT', [OTHER]],
  ] as const)('should send a %s subscription change to its agent ends', (kind, agentIds) => {
    const sut = audienceOf(
      event('SUBSCRIPTION_CHANGED', {
        change: 'CREATED',
        subscriptionId: randomUUID(),
        kind,
        sourceId: AGENT,
        targetId: OTHER,
      }),
    );

    expect(sut).toEqual({ kind: 'agents', agentIds });
  });

  it('should send a grant change to its agent and a tenant change to every agent', () => {
    const grants = event('MCP_GRANTS_CHANGED', {
      subscriptionId: randomUUID(),
      agentId: AGENT,
      mcpServerId: SERVER,
      tools: ['echo'],
    });
    const tenant = event('TENANT_LIFECYCLE', {
      tenantId: randomUUID(),
      slug: 'acme',
      change: 'SUSPENDED',
    });

    expect(audienceOf(grants)).toEqual({ kind: 'agents', agentIds: [AGENT] });
    expect(audienceOf(tenant)).toEqual({ kind: 'tenant' });
  });

  it('should send an agent change to the agent and its callers, and a deletion to its callers only', () => {
    const lifecycle = (change: 'SUSPENDED' | 'DELETED') =>
      event('AGENT_LIFECYCLE', { agentId: AGENT, name: 'a', change, status: 'X', permissions: [] });

    expect(audienceOf(lifecycle('SUSPENDED'))).toEqual({
      kind: 'agent-and-callers',
      agentId: AGENT,
      includesAgent: true,
    });
    expect(audienceOf(lifecycle('DELETED'))).toEqual({
      kind: 'agent-and-callers',
      agentId: AGENT,
      includesAgent: false,
    });
  });

  it('should not send the audit record of a subscription change, nor a change of the webhook alone', () => {
    const relayed = (details: Record<string, unknown>) =>
      event('AGENT_LIFECYCLE', {
        agentId: AGENT,
        name: 'a',
        change: 'UPDATED',
        status: 'ACTIVE',
        permissions: [],
        details: { origin: 'relay', ...details },
      });

    expect(audienceOf(relayed({ subscription: { id: randomUUID() } }))).toEqual({ kind: 'nobody' });
    expect(audienceOf(relayed({ fields: ['webhookUrl'] }))).toEqual({ kind: 'nobody' });
    expect(audienceOf(relayed({ fields: ['webhookUrl', 'agentCardUrl'] })).kind).toBe(
      'agent-and-callers',
    );
  });
});

describe('webhookBody', () => {
  it("should be D19's body with the change and without the audit fields", () => {
    const subscriptionId = randomUUID();
    const source = event('SUBSCRIPTION_CHANGED', {
      actor: ACTOR,
      summary: 'by alice',
      details: { secret: 'x' },
      change: 'UPDATED',
      subscriptionId,
      kind: 'AGENT_TO_MCP_SERVER',
      sourceId: AGENT,
      targetId: SERVER,
      tools: null,
    });
    const deliveryId = randomUUID();

    const sut = JSON.parse(webhookBody(source, deliveryId, AGENT)) as Record<string, unknown>;

    expect(Object.keys(sut)).toEqual(['id', 'type', 'occurredAt', 'tenantId', 'agentId', 'data']);
    expect(sut).toEqual({
      id: deliveryId,
      type: 'SUBSCRIPTION_CHANGED',
      occurredAt: source.occurredAt,
      tenantId: source.tenantId,
      agentId: AGENT,
      data: {
        change: 'UPDATED',
        subscriptionId,
        kind: 'AGENT_TO_MCP_SERVER',
        sourceId: AGENT,
        targetId: SERVER,
        tools: null,
      },
    });
  });

  it('should tell an agent change by name, change and status only', () => {
    const source = event('AGENT_LIFECYCLE', {
      actor: ACTOR,
      agentId: AGENT,
      name: 'billing',
      change: 'SUSPENDED',
      status: 'SUSPENDED',
      permissions: ['AUDIT:READ'],
    });

    const sut = JSON.parse(webhookBody(source, randomUUID(), OTHER)) as { data: unknown };

    expect(sut.data).toEqual({
      agentId: AGENT,
      name: 'billing',
      change: 'SUSPENDED',
      status: 'SUSPENDED',
    });
  });
});
