import { WebhookReceiver, eventually, matchingSignatures } from '@agp/testing';

import { McpPlatform, PlatformMode, startMcpPlatform } from './mcp/mcp-platform';
import { McpWorld, TestAgent } from './mcp/mcp-world';

interface Delivery {
  id: string;
  eventType: string;
  status: string;
  attempts: Array<{ statusCode?: number }>;
}

/**
 * D19 on the whole platform, in both of D2's shapes: agents registered in tenant-auth, their
 * webhooks set, rotated and read through the public base URL (the gateway, or the one process),
 * a real subscription change and a real suspension in tenant-auth delivered signed to a receiver.
 */
describe.each<PlatformMode>(['services', 'embedded'])('webhooks to agents (%s)', (mode) => {
  let platform: McpPlatform;
  let world: McpWorld;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    platform = await startMcpPlatform(mode);
    world = await McpWorld.create(platform);
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
    await platform?.close();
  });

  async function withWebhook(name: string): Promise<[TestAgent, string]> {
    const agent = await world.agent();
    const set = await world.ok<{ webhookSecret: string }>('PATCH', `/relay/v1/agents/${agent.id}`, {
      webhookUrl: receiver.url(`${mode}-${name}`),
    });
    return [agent, set.webhookSecret];
  }

  function received(name: string, type: string) {
    return receiver.of(`${mode}-${name}`).filter((r) => r.body.type === type);
  }

  async function asAgent<T>(agent: TestAgent, path: string): Promise<{ status: number; body: T }> {
    const response = await fetch(`${platform.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${agent.apiToken}` },
    });
    return { status: response.status, body: (await response.json()) as T };
  }

  it('should deliver a subscription change signed with the agent secret, listed for the agent itself', async () => {
    const [agent, secret] = await withWebhook('subscribed');
    const other = await world.agent();
    const serverId = await world.mcpServer('https://tools.example.com/mcp');

    const subscriptionId = await world.subscribe(agent.id, serverId, ['echo']);
    const [changed] = await eventually(() => {
      const got = received('subscribed', 'SUBSCRIPTION_CHANGED');
      expect(got).toHaveLength(1);
      return got;
    });
    const own = await eventually(async () => {
      const answer = await asAgent<{ items: Delivery[] }>(
        agent,
        `/relay/v1/agents/${agent.id}/webhook-deliveries`,
      );
      // Only what happened after the webhook was set: not the agent's own creation (W23).
      expect(answer.body.items.filter((d) => d.status === 'DELIVERED')).toHaveLength(2);
      return answer;
    });
    const foreign = await asAgent(other, `/relay/v1/agents/${agent.id}/webhook-deliveries`);

    expect(matchingSignatures(changed, secret)).toEqual([0]);
    expect(changed.headers['x-svc-event-type']).toBe('SUBSCRIPTION_CHANGED');
    expect(changed.body).toMatchObject({
      agentId: agent.id,
      data: { subscriptionId, sourceId: agent.id, targetId: serverId, tools: ['echo'] },
    });
    expect(own.status).toBe(200);
    expect(own.body.items.map((d) => d.eventType).sort()).toEqual([
      'MCP_GRANTS_CHANGED',
      'SUBSCRIPTION_CHANGED',
    ]);
    expect(foreign.status).toBe(403);
  });

  it('should tell an agent that tenant-auth suspended it, signed with both secrets after a rotation', async () => {
    const [agent, oldSecret] = await withWebhook('suspended');

    const rotated = await world.ok<{ webhookSecret: string }>(
      'POST',
      `/relay/v1/agents/${agent.id}/webhook-secret/rotate`,
      undefined,
      200,
    );
    await world.ok('PATCH', `/tenant-auth/v1/agents/${agent.id}`, { status: 'SUSPENDED' });
    const [suspended] = await eventually(() => {
      const got = received('suspended', 'AGENT_LIFECYCLE').filter(
        (r) => (r.body.data as { change?: string }).change === 'SUSPENDED',
      );
      expect(got).toHaveLength(1);
      return got;
    });

    expect(suspended.body.data).toMatchObject({ agentId: agent.id, status: 'SUSPENDED' });
    expect(matchingSignatures(suspended, rotated.webhookSecret)).toEqual([0]);
    expect(matchingSignatures(suspended, oldSecret)).toEqual([1]);
  });
});
