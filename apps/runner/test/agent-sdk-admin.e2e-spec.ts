import { randomUUID } from 'node:crypto';

import { AdminSurface, AgentRuntime, WEBHOOK_HEADERS, signWebhook } from '@agp/agent-sdk';
import { McpTestServer, eventually, startMcpTestServer } from '@agp/testing';

import { AdminMount, MountedAdmin, mountAdmin } from './agent-sdk/admin-mounts';
import { SdkAgent, registerAgent } from './agent-sdk/sdk-world';
import { McpPlatform, startMcpPlatform } from './mcp/mcp-platform';
import { McpWorld } from './mcp/mcp-world';

const WEBHOOK_SECRET = 'whsec-test-0123456789';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function call(
  url: string,
  method: 'GET' | 'POST',
  body?: string,
  headers = {},
): Promise<Answer> {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body !== undefined ? { body } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A delivery as D19 has the platform sign it. */
function delivery(
  type: string,
  secret = WEBHOOK_SECRET,
): { body: string; headers: Record<string, string> } {
  const id = randomUUID();
  const timestamp = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({ id, type, occurredAt: new Date().toISOString(), data: {} });
  return {
    body,
    headers: {
      [WEBHOOK_HEADERS.eventType]: type,
      [WEBHOOK_HEADERS.deliveryId]: id,
      [WEBHOOK_HEADERS.timestamp]: String(timestamp),
      [WEBHOOK_HEADERS.signature]: signWebhook(secret, timestamp, body),
    },
  };
}

/**
 * The agent-side admin surface, mounted on Node's http server, Express and Fastify, in front of an
 * agent runtime that reads the running platform: every status code of the specification.
 */
describe.each<AdminMount>(['node', 'express', 'fastify'])('admin surface on %s', (mount) => {
  let platform: McpPlatform;
  let tools: McpTestServer;
  let world: McpWorld;
  let agent: SdkAgent;
  let runtime: AgentRuntime;
  let admin: MountedAdmin;

  beforeAll(async () => {
    platform = await startMcpPlatform('embedded');
    tools = await startMcpTestServer();
    world = await McpWorld.create(platform);
    agent = await registerAgent(world);
    runtime = new AgentRuntime();
    admin = await mountAdmin(mount, runtime.admin);
  });

  afterAll(async () => {
    runtime?.stop();
    await admin?.close();
    await tools?.close();
    await platform?.close();
  });

  const configure = (fields: Record<string, string>): Promise<Answer> =>
    call(`${admin.url}/configure`, 'POST', JSON.stringify(fields));

  it('should answer 409 to refresh and webhook and say unconfigured when nothing is configured', async () => {
    const signed = delivery('SUBSCRIPTION_CHANGED');

    expect(await call(`${admin.url}/status`, 'GET')).toEqual({
      status: 200,
      body: { configured: false, agent_id: null },
    });
    expect((await call(`${admin.url}/refresh`, 'POST')).status).toBe(409);
    expect((await call(`${admin.url}/webhook`, 'POST', signed.body, signed.headers)).status).toBe(
      409,
    );
  });

  it('should answer 400 listing the fields when the first configure lacks both addresses', async () => {
    const answer = await configure({ agent_id: agent.id, client_secret: agent.secret, extra: 'x' });

    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'extra', message: 'unknown property' },
        { field: 'base_url', message: expect.any(String) },
      ]),
    );
    expect((await call(`${admin.url}/status`, 'GET')).body.configured).toBe(false);
  });

  it('should answer 502 when the configuration is stored but its credentials are refused', async () => {
    const answer = await configure({
      agent_id: agent.id,
      client_secret: 'not-the-secret',
      base_url: `${platform.baseUrl}/`,
      token_url: `${agent.config.tokenUrl}/`,
    });

    expect(answer.status).toBe(502);
    expect((await call(`${admin.url}/refresh`, 'POST')).status).toBe(502);
  });

  it('should configure the agent and answer 503 to webhooks when no webhook secret is set', async () => {
    const answer = await configure({
      agent_id: agent.id,
      client_secret: agent.secret,
      base_url: `${platform.baseUrl}/`,
      token_url: agent.config.tokenUrl,
    });
    const signed = delivery('SUBSCRIPTION_CHANGED');

    expect(answer).toEqual({ status: 200, body: { configured: true, agent_id: agent.id } });
    expect(runtime.client.config.baseUrl).toBe(platform.baseUrl);
    expect(await call(`${admin.url}/status`, 'GET')).toEqual({
      status: 200,
      body: { configured: true, agent_id: agent.id },
    });
    expect((await call(`${admin.url}/webhook`, 'POST', signed.body, signed.headers)).status).toBe(
      503,
    );
  });

  it('should refresh the directory from the platform when asked to', async () => {
    const serverId = await world.mcpServer(tools.url);
    await world.subscribe(agent.id, serverId);

    const answer = await call(`${admin.url}/refresh`, 'POST');

    expect(answer).toEqual({ status: 200, body: { status: 'refreshed' } });
    expect(runtime.directory.mcpServers.map((s) => s.mcpServerId)).toContain(serverId);
  });

  it('should answer 401 to a webhook when its signature, timestamp or body does not verify', async () => {
    await configure({
      agent_id: agent.id,
      client_secret: agent.secret,
      webhook_secret: WEBHOOK_SECRET,
    });
    const forged = delivery('SUBSCRIPTION_CHANGED', 'another-secret');
    const stale = delivery('SUBSCRIPTION_CHANGED');
    stale.headers[WEBHOOK_HEADERS.timestamp] = String(Math.floor(Date.now() / 1000) - 301);
    const tampered = delivery('SUBSCRIPTION_CHANGED');

    const answers = await Promise.all([
      call(`${admin.url}/webhook`, 'POST', forged.body, forged.headers),
      call(`${admin.url}/webhook`, 'POST', stale.body, stale.headers),
      call(
        `${admin.url}/webhook`,
        'POST',
        tampered.body.replace('{}', '{"x":1}'),
        tampered.headers,
      ),
      call(`${admin.url}/webhook`, 'POST', tampered.body, {}),
    ]);

    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401]);
  });

  it('should acknowledge a signed webhook and refresh the directory when a subscription changed', async () => {
    const serverId = await world.mcpServer(tools.url);
    await world.subscribe(agent.id, serverId);
    const signed = delivery('SUBSCRIPTION_CHANGED');

    const answer = await call(`${admin.url}/webhook`, 'POST', signed.body, signed.headers);
    const again = await call(`${admin.url}/webhook`, 'POST', signed.body, signed.headers);

    expect(answer).toEqual({ status: 200, body: { status: 'ack' } });
    expect(runtime.directory.mcpServers.map((s) => s.mcpServerId)).toContain(serverId);
    expect(again).toEqual({ status: 200, body: { status: 'ack', duplicate: true } });
  });

  it('should answer ignored to a signed webhook of a type that does not concern the directory', async () => {
    const signed = delivery('POLICY_LIFECYCLE');

    expect(await call(`${admin.url}/webhook`, 'POST', signed.body, signed.headers)).toEqual({
      status: 200,
      body: { status: 'ignored' },
    });
  });

  it('should answer 502 to a signed webhook when the refresh it runs fails', async () => {
    await world.ok('PATCH', `/tenant-auth/v1/agents/${agent.id}`, { status: 'SUSPENDED' });
    const signed = delivery('AGENT_LIFECYCLE');

    const answer = await eventually(async () => {
      runtime.client.tokens.clear();
      const attempt = await call(`${admin.url}/webhook`, 'POST', signed.body, signed.headers);
      expect(attempt.status).toBe(502);
      return attempt;
    });
    await world.ok('PATCH', `/tenant-auth/v1/agents/${agent.id}`, { status: 'ACTIVE' });

    expect(answer.body.detail).toEqual(expect.stringContaining('refresh failed'));
  });

  it('should answer 501 to refresh when the surface has no refresh callback', async () => {
    const bare = await mountAdmin(mount, new AdminSurface({ config: agent.config }));
    try {
      expect((await call(`${bare.url}/refresh`, 'POST')).status).toBe(501);
      expect((await call(`${bare.url}/nowhere`, 'GET')).status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
