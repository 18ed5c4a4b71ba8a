import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

import {
  AgentClient,
  AgentRuntime,
  VerifiedWebhook,
  WebhookVerificationError,
  adminRequestListener,
  verifyWebhook,
} from '@agp/agent-sdk';
import { eventually } from '@agp/testing';

import { SdkAgent, registerAgent } from './agent-sdk/sdk-world';
import { McpPlatform, PlatformMode, startMcpPlatform } from './mcp/mcp-platform';
import { McpWorld } from './mcp/mcp-world';

interface Delivery {
  id: string;
  eventType: string;
  status: string;
  attempts: Array<{ statusCode?: number }>;
}

/** An HTTP server of the test's own on 127.0.0.1; `handler` answers every request. */
async function serve(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function rawBodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** What a receiver's verification with one secret gave: the delivery, or the refusal. */
type Verdict = VerifiedWebhook | WebhookVerificationError;

function verdict(secret: string, request: IncomingMessage, rawBody: Buffer): Verdict {
  try {
    return verifyWebhook({ secret, headers: request.headers, rawBody });
  } catch (error) {
    if (error instanceof WebhookVerificationError) {
      return error;
    }
    throw error;
  }
}

/**
 * D19 end to end with the client library on the agent's side, in both of D2's shapes: the platform
 * signs real changes (a subscription made by the tenant's administrator) and delivers them to an
 * agent whose admin surface verifies them and refreshes its directory; a receiver written with
 * `verifyWebhook` holds either secret during a rotation; a delivery that failed while the agent
 * could not take it is redelivered, at the agent's request, once it can.
 */
describe.each<PlatformMode>(['services', 'embedded'])('agent-sdk webhooks (%s)', (mode) => {
  let platform: McpPlatform;
  let world: McpWorld;

  beforeAll(async () => {
    // D19's schedule, shortened: six attempts within about a second (W6).
    platform = await startMcpPlatform(mode, {
      WEBHOOK_MAX_ATTEMPTS: '6',
      WEBHOOK_RETRY_BASE_MS: '20',
      WEBHOOK_POLL_MS: '50',
    });
    world = await McpWorld.create(platform);
  });

  afterAll(async () => {
    await platform?.close();
  });

  /** The agent's runtime, whose directory refreshes only when told to (no 60 s interval here). */
  async function runtimeOf(agent: SdkAgent): Promise<AgentRuntime> {
    const runtime = new AgentRuntime({
      config: agent.config,
      directoryRefreshIntervalMs: 3_600_000,
    });
    await runtime.start();
    return runtime;
  }

  async function setWebhook(agentId: string, url: string): Promise<string> {
    const set = await world.ok<{ webhookSecret: string }>('PATCH', `/relay/v1/agents/${agentId}`, {
      webhookUrl: url,
    });
    return set.webhookSecret;
  }

  async function configure(adminUrl: string, agent: SdkAgent, webhookSecret: string) {
    const response = await fetch(`${adminUrl}/admin/configure`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        agent_id: agent.id,
        client_secret: agent.secret,
        webhook_secret: webhookSecret,
      }),
    });
    expect(response.status).toBe(200);
  }

  /** The agent's own deliveries, read with its own token (W9) through the library. */
  async function deliveriesOf(client: AgentClient): Promise<Delivery[]> {
    const page = await client.request<{ items: Delivery[] }>(
      'GET',
      `/relay/v1/agents/${client.agentId}/webhook-deliveries`,
    );
    return page.items;
  }

  const mcpServer = (): Promise<string> => world.mcpServer('https://tools.example.com/mcp');

  it('should refresh the agent’s directory when the platform delivers a subscription change to its admin surface', async () => {
    const agent = await registerAgent(world);
    const runtime = await runtimeOf(agent);
    const admin = await serve(adminRequestListener(runtime.admin));
    try {
      await configure(admin.url, agent, await setWebhook(agent.id, `${admin.url}/admin/webhook`));
      const serverId = await mcpServer();

      await world.subscribe(agent.id, serverId, ['echo']);

      await eventually(() => {
        expect(runtime.directory.mcpServers.map((s) => s.mcpServerId)).toEqual([serverId]);
      });
      const delivered = await eventually(async () => {
        const items = await deliveriesOf(runtime.client);
        expect(items.filter((d) => d.status === 'DELIVERED')).toHaveLength(2);
        return items;
      });
      expect(delivered.map((d) => d.eventType).sort()).toEqual([
        'MCP_GRANTS_CHANGED',
        'SUBSCRIPTION_CHANGED',
      ]);
      expect(delivered.flatMap((d) => d.attempts.map((a) => a.statusCode))).toEqual([200, 200]);
    } finally {
      runtime.stop();
      await admin.close();
    }
  });

  it('should verify a delivery with the old and the new secret during a rotation, and with no other', async () => {
    const agent = await registerAgent(world);
    const verdicts: Array<Record<'old' | 'new' | 'other', Verdict>> = [];
    const secrets = { old: '', new: '', other: 'whsec_not-this-agents-secret' };
    const receiver = await serve((request, response) => {
      void rawBodyOf(request).then((rawBody) => {
        verdicts.push({
          old: verdict(secrets.old, request, rawBody),
          new: verdict(secrets.new, request, rawBody),
          other: verdict(secrets.other, request, rawBody),
        });
        response.writeHead(200).end();
      });
    });
    try {
      secrets.old = await setWebhook(agent.id, `${receiver.url}/hooks`);
      const rotated = await world.ok<{ webhookSecret: string; previousSecretExpiresAt: string }>(
        'POST',
        `/relay/v1/agents/${agent.id}/webhook-secret/rotate`,
        undefined,
        200,
      );
      secrets.new = rotated.webhookSecret;

      const subscriptionId = await world.subscribe(agent.id, await mcpServer(), null);

      const [subscribed] = await eventually(() => {
        const got = verdicts.filter(
          (v) => !(v.new instanceof Error) && v.new.eventType === 'SUBSCRIPTION_CHANGED',
        );
        expect(got).toHaveLength(1);
        return got;
      });
      expect(subscribed?.old).toMatchObject({ eventType: 'SUBSCRIPTION_CHANGED' });
      expect(subscribed?.new).toMatchObject({
        event: { agentId: agent.id, data: expect.objectContaining({ subscriptionId }) },
      });
      expect(subscribed?.other).toBeInstanceOf(WebhookVerificationError);
      expect(verdicts.every((v) => !(v.old instanceof Error) && !(v.new instanceof Error))).toBe(
        true,
      );
      expect(Date.parse(rotated.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(
        23 * 3_600_000,
      );
    } finally {
      await receiver.close();
    }
  });

  it('should redeliver a failed delivery at the agent’s request once its endpoint is back, and refresh then', async () => {
    const agent = await registerAgent(world);
    const runtime = await runtimeOf(agent);
    const listener = adminRequestListener(runtime.admin);
    const gate = { isOpen: false };
    // The agent's endpoint, down (503) until the gate opens.
    const admin = await serve((request, response) => {
      if (gate.isOpen) {
        listener(request, response);
      } else {
        response.writeHead(503).end();
      }
    });
    try {
      const secret = await setWebhook(agent.id, `${admin.url}/admin/webhook`);
      gate.isOpen = true;
      await configure(admin.url, agent, secret);
      gate.isOpen = false;
      const serverId = await mcpServer();
      await world.subscribe(agent.id, serverId);
      const failed = await eventually(async () => {
        const items = await deliveriesOf(runtime.client);
        expect(items.map((d) => d.status)).toEqual(['FAILED', 'FAILED']);
        return items;
      });

      gate.isOpen = true;
      for (const delivery of failed) {
        await runtime.client.request(
          'POST',
          `/relay/v1/agents/${agent.id}/webhook-deliveries/${delivery.id}/redeliver`,
        );
      }

      await eventually(() => {
        expect(runtime.directory.mcpServers.map((s) => s.mcpServerId)).toEqual([serverId]);
      });
      const redelivered = await eventually(async () => {
        const items = await deliveriesOf(runtime.client);
        expect(items.map((d) => d.status)).toEqual(['DELIVERED', 'DELIVERED']);
        return items;
      });
      expect(failed.map((d) => d.attempts.map((a) => a.statusCode))).toEqual([
        [503, 503, 503, 503, 503, 503],
        [503, 503, 503, 503, 503, 503],
      ]);
      expect(redelivered.map((d) => d.attempts.at(-1)?.statusCode)).toEqual([200, 200]);
    } finally {
      runtime.stop();
      await admin.close();
    }
  });
});
