import { randomUUID } from 'node:crypto';

import { eventually } from '@agp/testing';

import { McpPlatform, startMcpPlatform } from './mcp/mcp-platform';
import { LOG_POLICY } from './mcp/mcp-policies';
import { Json, McpWorld, TestAgent } from './mcp/mcp-world';
import { Revision, legacyClient, modernClient } from './mcp/revision-clients';
import { RevisionServer, startLegacyServer, startModernServer } from './mcp/revision-servers';

/** BLOCKs what asks the client to confirm (the relay's InputRequiredResult among them). */
const BLOCK_CONFIRMATION = `package mcp.noconfirm

import rego.v1

decision := {"action": "BLOCK", "reasons": ["confirmations are not asked"]} if {
	input.direction == "RESPONSE"
	contains(input.message.text, "Really deploy")
}
`;

/** Holds for a person what asks the client to keep something (the relay's InputRequiredResult). */
const REVIEW_INPUT_REQUEST = `package mcp.reviewinput

import rego.v1

decision := {"action": "HUMAN_REVIEW_REQUIRED", "reasons": ["a person sees what is asked"]} if {
	input.direction == "RESPONSE"
	contains(input.message.text, "Keep invoice")
}
`;

/**
 * Issue 35 item 1: a client of either MCP revision reaches a server of either revision through the
 * relay, official SDKs on both sides (1.x for 2025-11-25, v2 for 2026-07-28): tools, a tool that
 * asks for input (elicitation or an input request), a change notification, every message audited.
 */
describe('MCP revisions through the relay', () => {
  let platform: McpPlatform;
  let world: McpWorld;
  const servers = {} as Record<Revision, { server: RevisionServer; id: string }>;

  beforeAll(async () => {
    platform = await startMcpPlatform('embedded');
    world = await McpWorld.create(platform);
    for (const [revision, start] of [
      ['2025-11-25', startLegacyServer],
      ['2026-07-28', startModernServer],
    ] as const) {
      const server = await start();
      servers[revision] = { server, id: await world.mcpServer(server.url) };
    }
  });

  afterAll(async () => {
    await Promise.all(Object.values(servers).map((s) => s.server.close()));
    await platform?.close();
  });

  async function agentOf(revision: Revision): Promise<TestAgent> {
    const agent = await world.agent();
    await world.subscribe(agent.id, servers[revision].id);
    await world.bindToAgent(agent.id, LOG_POLICY);
    return agent;
  }

  it.each<[Revision, Revision]>([
    ['2025-11-25', '2025-11-25'],
    ['2025-11-25', '2026-07-28'],
    ['2026-07-28', '2025-11-25'],
    ['2026-07-28', '2026-07-28'],
  ])(
    'should carry a %s client to a %s server: tools, an input request, a change notification, all audited',
    async (clientRevision, serverRevision) => {
      const agent = await agentOf(serverRevision);
      const correlationId = randomUUID();
      const url = world.mcpUrl(servers[serverRevision].id);
      const client =
        clientRevision === '2025-11-25'
          ? await legacyClient(url, agent, correlationId)
          : await modernClient(url, agent, correlationId);
      try {
        const names = await client.toolNames();
        const greeting = await client.call('greet', { name: correlationId });
        const confirmed = await client.call('confirm', { what: 'deploy' });
        const changed = client.listChanged();
        servers[serverRevision].server.addTool();
        await changed;
        const after = await client.toolNames();

        expect(client.revision).toBe(clientRevision);
        expect(names).toEqual(expect.arrayContaining(['confirm', 'greet']));
        expect(greeting).toBe(`Hello, ${correlationId}! (${serverRevision})`);
        expect(confirmed).toBe('deploy: done');
        expect(after.some((name) => name.startsWith('added_'))).toBe(true);
        const trace = await world.trace(correlationId, (items) =>
          ['tools/call', 'notifications/tools/list_changed'].every((m) =>
            items.some((e) => JSON.stringify(e).includes(m)),
          ),
        );
        const greetHops = trace.filter(
          (e) => e.eventType === 'COMMUNICATION_AUDIT' && (e.details as Json).toolName === 'greet',
        );
        expect(greetHops.map((e) => (e.details as Json).direction).sort()).toEqual([
          'REQUEST',
          'RESPONSE',
        ]);
      } finally {
        await client.close();
      }
    },
  );

  it.each<Revision>(['2026-07-28', '2025-11-25'])(
    "should end a 2026-07-28 client's listen stream to a %s server when a kill switch on the agent is engaged, and audit the refusal",
    async (serverRevision) => {
      const agent = await agentOf(serverRevision);
      const correlationId = randomUUID();
      const client = await modernClient(
        world.mcpUrl(servers[serverRevision].id),
        agent,
        correlationId,
      );
      const engaged = await world.ok<{ id: string }>('POST', '/relay/v1/kill-switches', {
        scope: 'AGENT',
        targetId: agent.id,
        reason: `incident ${correlationId}`,
      });
      try {
        const ended = await client.listenClosed;
        const trace = await world.trace(correlationId, (items) =>
          items.some(
            (e) => e.action === 'BLOCK' && JSON.stringify(e).includes(`incident ${correlationId}`),
          ),
        );

        expect(ended).toBe('remote');
        expect(trace.find((e) => e.action === 'BLOCK')).toMatchObject({ protocol: 'MCP' });
      } finally {
        await world.ok('DELETE', `/relay/v1/kill-switches/${engaged.id}`);
        await client.close().catch(() => undefined);
      }
    },
  );

  it('should end a held 2025-11-25 call at once when its input request never reaches the 2026-07-28 client (T109)', async () => {
    const server = await startLegacyServer();
    try {
      const agent = await world.agent();
      const serverId = await world.mcpServer(server.url);
      await world.subscribe(agent.id, serverId);
      await world.bindToAgent(agent.id, BLOCK_CONFIRMATION);
      const client = await modernClient(world.mcpUrl(serverId), agent, randomUUID());
      const refused = await client.call('confirm', { what: 'deploy' }).catch((e: unknown) => e);
      // Its listen stream's session ends with it; a held call's would not.
      await client.close();

      expect(String(refused)).toContain('blocked by policy');
      // The call's session is DELETEd at once, not after the ten minutes a retry may take.
      await eventually(() => expect(server.openSessions()).toBe(0));
    } finally {
      await server.close();
    }
  });

  it("should keep a held 2025-11-25 call whose input request waits for a reviewer, and resume it once on the 2026-07-28 client's approved resend (T109)", async () => {
    const server = await startLegacyServer();
    const settings = await world.ok<{ hitlWaitSeconds: number }>(
      'GET',
      '/relay/v1/traffic-settings',
    );
    await world.ok('PATCH', '/relay/v1/traffic-settings', { hitlWaitSeconds: 1 });
    try {
      const agent = await world.agent();
      const serverId = await world.mcpServer(server.url);
      await world.subscribe(agent.id, serverId);
      await world.bindToAgent(agent.id, REVIEW_INPUT_REQUEST);
      let hitlRequestId: string | undefined;
      const client = await modernClient(world.mcpUrl(serverId), agent, randomUUID(), {
        // D34: once approved, the call is sent again with its HITL request id (not its retry).
        fetch: (input, init) => {
          const text = typeof init?.body === 'string' ? init.body : '';
          const body = text ? (JSON.parse(text) as Json) : {};
          const isResend =
            hitlRequestId !== undefined &&
            body.method === 'tools/call' &&
            (body.params as Json | undefined)?.inputResponses === undefined;
          const headers = new Headers(init?.headers);
          if (isResend) {
            headers.set('x-agp-hitl-request-id', hitlRequestId!);
          }
          return fetch(input, { ...init, headers });
        },
      });
      try {
        const pending = (await client
          .call('act_then_ask', { what: 'invoice' })
          .catch((e: unknown) => e)) as { code?: number; data?: Json };
        hitlRequestId = String(pending.data?.hitlRequestId);
        await world.ok('POST', `/relay/v1/hitl-requests/${hitlRequestId}/approve`, {}, 200);
        const kept = await client.call('act_then_ask', { what: 'invoice' });

        expect(pending.code).toBe(-31004);
        expect(kept).toBe('invoice: kept');
        // The tool acted once: the resend released the held question, the retry answered it.
        expect(server.executions()).toBe(1);
      } finally {
        await client.close();
      }
    } finally {
      await world.ok('PATCH', '/relay/v1/traffic-settings', {
        hitlWaitSeconds: settings.hitlWaitSeconds,
      });
      await server.close();
    }
  });
});
