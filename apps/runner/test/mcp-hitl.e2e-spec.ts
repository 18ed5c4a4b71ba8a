import { randomUUID } from 'node:crypto';

import { Client } from 'pg';
import {
  McpTestServer,
  connectMcpClient,
  eventually,
  refusalOf,
  startMcpTestServer,
  toolText,
} from '@agp/testing';

import { McpPlatform, PlatformMode, startMcpPlatform } from './mcp/mcp-platform';
import { HOLD_POLICY } from './mcp/mcp-policies';
import { Json, McpWorld, TestAgent } from './mcp/mcp-world';
import { RawMcpSession } from './mcp/raw-mcp-session';

interface HitlRequest {
  id: string;
  status: string;
  tool: string;
  message: Json;
  reasons: string[];
  waitedSeconds: number;
}

/**
 * Issue 12 "Must show", through the official MCP SDK client: a tools/call held for a person,
 * approved while the caller waits (from another replica in the services shape), rejected, still
 * pending after the wait and released by the resend, a changed resend refused, expiry (D34).
 */
describe.each<PlatformMode>(['services', 'embedded'])('MCP human review (%s)', (mode) => {
  let platform: McpPlatform;
  let tools: McpTestServer;
  let world: McpWorld;
  let serverId: string;

  beforeAll(async () => {
    platform = await startMcpPlatform(mode);
    tools = await startMcpTestServer();
    world = await McpWorld.create(platform);
    serverId = await world.mcpServer(tools.url);
    await world.ok('PATCH', '/relay/v1/traffic-settings', { hitlWaitSeconds: 15 });
  });

  afterAll(async () => {
    await tools?.close();
    await platform?.close();
  });

  async function heldAgent(): Promise<TestAgent> {
    const agent = await world.agent();
    await world.subscribe(agent.id, serverId);
    await world.bindToAgent(agent.id, HOLD_POLICY);
    return agent;
  }

  function callsWith(marker: string): number {
    return tools.calls.filter((c) => JSON.stringify(c.arguments).includes(marker)).length;
  }

  async function pendingOf(agent: TestAgent): Promise<HitlRequest> {
    return eventually(async () => {
      const page = await world.ok<{ items: HitlRequest[] }>(
        'GET',
        `/relay/v1/hitl-requests?status=PENDING&agentId=${agent.id}`,
      );
      expect(page.items).toHaveLength(1);
      return page.items[0];
    });
  }

  it('should deliver a held call once when a reviewer approves it while the caller waits', async () => {
    const agent = await heldAgent();
    const replica = platform.startRelayReplica ? await platform.startRelayReplica() : undefined;
    const url = replica ? `${replica}/relay/mcp/${serverId}` : world.mcpUrl(serverId);
    const sut = await connectMcpClient(url, { token: agent.mcpToken });
    const marker = randomUUID();
    try {
      const call = sut.client.callTool({
        name: 'lookup_customer',
        arguments: { customerId: marker },
      });
      const held = await pendingOf(agent);
      const heldCalls = callsWith(marker);
      const approved = await world.ok<HitlRequest>(
        'POST',
        `/relay/v1/hitl-requests/${held.id}/approve`,
        {
          note: 'looks fine',
        },
        200,
      );
      const result = await call;

      expect(held).toMatchObject({
        tool: 'lookup_customer',
        reasons: ['customer data needs a reviewer'],
      });
      expect(held.message).toMatchObject({
        method: 'tools/call',
        params: { name: 'lookup_customer' },
      });
      expect(heldCalls).toBe(0);
      expect(approved.status).toBe('APPROVED');
      expect(toolText(result)).toContain(marker);
      expect(callsWith(marker)).toBe(1);
      const after = await world.ok<HitlRequest>('GET', `/relay/v1/hitl-requests/${held.id}`);
      expect(after.status).toBe('RELEASED');
      const again = await world.api('POST', `/relay/v1/hitl-requests/${held.id}/reject`, {});
      expect(again.status).toBe(409);
      expect(JSON.stringify(again.body)).toContain('RELEASED');
    } finally {
      await sut.close();
    }
  });

  it('should answer -31003 and never reach the server when the reviewer rejects the call', async () => {
    const agent = await heldAgent();
    const sut = await connectMcpClient(world.mcpUrl(serverId), { token: agent.mcpToken });
    const marker = randomUUID();
    try {
      const call = refusalOf(
        sut.client.callTool({ name: 'lookup_customer', arguments: { customerId: marker } }),
      );
      const held = await pendingOf(agent);
      await world.ok('POST', `/relay/v1/hitl-requests/${held.id}/reject`, { note: 'no' }, 200);
      const refusal = await call;

      expect(refusal.rpcCode).toBe(-31003);
      expect(refusal.data).toMatchObject({ hitlRequestId: held.id });
      expect(callsWith(marker)).toBe(0);
    } finally {
      await sut.close();
    }
  });

  it('should answer -31004 after the wait, then release the approved call once on the resend and refuse a second or a changed one', async () => {
    await world.ok('PATCH', '/relay/v1/traffic-settings', { hitlWaitSeconds: 1 });
    try {
      const agent = await heldAgent();
      const session = await RawMcpSession.open(world.mcpUrl(serverId), agent.mcpToken);
      const marker = randomUUID();

      const first = await eventually(
        async () => {
          const answer = await session.callTool('lookup_customer', { customerId: marker });
          expect(answer.message?.error).toMatchObject({ code: -31004 });
          return answer;
        },
        3,
        1_500,
      );
      const { hitlRequestId, retryAfter } = (first.message!.error as { data: Json }).data;
      await world.ok('POST', `/relay/v1/hitl-requests/${String(hitlRequestId)}/approve`, {}, 200);
      const header = { 'x-agp-hitl-request-id': String(hitlRequestId) };
      const changed = await session.callTool(
        'lookup_customer',
        { customerId: `${marker}-x` },
        header,
      );
      const released = await session.callTool('lookup_customer', { customerId: marker }, header);
      const twice = await session.callTool('lookup_customer', { customerId: marker }, header);

      expect(retryAfter).toEqual(expect.any(Number));
      expect(changed.message?.error).toMatchObject({ code: -31001 });
      expect(JSON.stringify(released.message?.result)).toContain(marker);
      expect(twice.message?.error).toMatchObject({ code: -31001 });
      expect(callsWith(marker)).toBe(1);
      const trace = await world.trace(await correlationOf(String(hitlRequestId)), (items) =>
        ['HITL', 'HITL_RESOLUTION', 'HITL_RELEASED', 'HITL_GUARD'].every((t) =>
          items.some((e) => e.eventType === t),
        ),
      );
      expect(trace.length).toBeGreaterThanOrEqual(4);
    } finally {
      await world.ok('PATCH', '/relay/v1/traffic-settings', { hitlWaitSeconds: 15 });
    }
  });

  it('should expire a hold nobody decided and refuse its approval with 409 naming EXPIRED', async () => {
    await world.ok('PATCH', '/relay/v1/traffic-settings', { hitlWaitSeconds: 1 });
    try {
      const agent = await heldAgent();
      const sut = await connectMcpClient(world.mcpUrl(serverId), { token: agent.mcpToken });
      const refusal = await refusalOf(
        sut.client.callTool({ name: 'lookup_customer', arguments: { customerId: 'x' } }),
      );
      await sut.close();
      const id = String(refusal.data?.hitlRequestId);
      await ageHold(id);

      const expired = await eventually(async () => {
        const found = await world.ok<HitlRequest>('GET', `/relay/v1/hitl-requests/${id}`);
        expect(found.status).toBe('EXPIRED');
        return found;
      });
      const approve = await world.api('POST', `/relay/v1/hitl-requests/${id}/approve`, {});

      expect(refusal.rpcCode).toBe(-31004);
      expect(expired.status).toBe('EXPIRED');
      expect(approve.status).toBe(409);
      expect(JSON.stringify(approve.body)).toContain('EXPIRED');
    } finally {
      await world.ok('PATCH', '/relay/v1/traffic-settings', { hitlWaitSeconds: 15 });
    }
  });

  if (mode === 'services') {
    it('should keep a hold when the replica the caller waits on dies, and release it once on the resend after approval', async () => {
      const agent = await heldAgent();
      const replica = await platform.startRelayReplica!();
      const session = await RawMcpSession.open(`${replica}/relay/mcp/${serverId}`, agent.mcpToken);
      const marker = randomUUID();
      const waiting = session
        .callTool('lookup_customer', { customerId: marker })
        .catch(() => undefined);
      const held = await pendingOf(agent);

      await platform.stopRelayReplica!(replica);
      await waiting;
      await world.ok('POST', `/relay/v1/hitl-requests/${held.id}/approve`, {}, 200);
      const survivor = await RawMcpSession.open(world.mcpUrl(serverId), agent.mcpToken);
      const released = await survivor.callTool(
        'lookup_customer',
        { customerId: marker },
        { 'x-agp-hitl-request-id': held.id },
      );

      expect(JSON.stringify(released.message?.result)).toContain(marker);
      expect(callsWith(marker)).toBe(1);
    });
  }

  it('should keep every tenant to its own holds and need HITL_REQUESTS:WRITE to decide', async () => {
    const agent = await heldAgent();
    const sut = await connectMcpClient(world.mcpUrl(serverId), { token: agent.mcpToken });
    try {
      const call = refusalOf(
        sut.client.callTool({ name: 'lookup_customer', arguments: { customerId: 'iso' } }),
      );
      const held = await pendingOf(agent);
      const other = await McpWorld.create(platform);

      expect((await other.api('GET', `/relay/v1/hitl-requests/${held.id}`)).status).toBe(404);
      expect(
        (await other.api('POST', `/relay/v1/hitl-requests/${held.id}/approve`, {})).status,
      ).toBe(404);
      expect((await world.api('GET', '/relay/v1/hitl-requests/not-a-uuid')).status).toBe(400);
      expect((await world.api('GET', '/relay/v1/hitl-requests?status=MAYBE')).status).toBe(400);
      const agentDecides = await fetch(
        `${platform.baseUrl}/relay/v1/hitl-requests/${held.id}/approve`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${agent.apiToken}`,
            'content-type': 'application/json',
          },
          body: '{}',
        },
      );
      expect(agentDecides.status).toBe(403);
      const dashboard = await eventually(async () => {
        const answer = await world.ok<{ pendingHitlRequests: number }>(
          'GET',
          '/audit/v1/dashboard',
        );
        expect(answer.pendingHitlRequests).toBe(1);
        return answer;
      });
      await world.ok('POST', `/relay/v1/hitl-requests/${held.id}/reject`, {}, 200);
      await call;

      expect(dashboard.pendingHitlRequests).toBe(1);
    } finally {
      await sut.close();
    }
  });

  /** Moves a hold's expiry into the past: the expiry job does the rest on its next tick. */
  async function ageHold(id: string): Promise<void> {
    const client = new Client({ connectionString: platform.databaseUrl });
    await client.connect();
    try {
      await client.query(
        `UPDATE relay.hitl_requests SET expires_at = now() - interval '1 second' WHERE id = $1`,
        [id],
      );
    } finally {
      await client.end();
    }
  }

  async function correlationOf(id: string): Promise<string> {
    const found = await world.ok<{ correlationId: string }>('GET', `/relay/v1/hitl-requests/${id}`);
    return found.correlationId;
  }
});
