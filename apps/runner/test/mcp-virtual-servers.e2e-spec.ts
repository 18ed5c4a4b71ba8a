import { randomUUID } from 'node:crypto';

import {
  McpTestServer,
  connectMcpClient,
  eventually,
  refusalOf,
  startMcpTestServer,
  toolText,
} from '@agp/testing';

import { McpPlatform, startMcpPlatform } from './mcp/mcp-platform';
import { HOLD_POLICY } from './mcp/mcp-policies';
import { Json, McpWorld } from './mcp/mcp-world';
import { RawMcpSession } from './mcp/raw-mcp-session';

/** Blocks `get_config` only when it is asked of one member through one virtual server (D52). */
function memberPolicy(virtualServerId: string, memberId: string): string {
  return `package mcp.virtual

import rego.v1

decision := {"action": "BLOCK", "reasons": ["no configuration through this virtual server"]} if {
	input.direction == "REQUEST"
	input.virtualServer.id == "${virtualServerId}"
	input.sink.id == "${memberId}"
	input.tool.name == "get_config"
}

decision := {"action": "LOG", "reasons": ["seen"]} if not blocked

blocked if {
	input.direction == "REQUEST"
	input.virtualServer.id == "${virtualServerId}"
	input.sink.id == "${memberId}"
	input.tool.name == "get_config"
}
`;
}

/**
 * Issue 35 item 4 "Must show" (D52): a virtual server over three servers of the official SDK,
 * through the official client: names, filters, one member down while the others answer, a lost
 * member session reopened, and policies and audit naming both the virtual and the real server.
 */
describe('Virtual MCP servers (embedded)', () => {
  let platform: McpPlatform;
  let world: McpWorld;
  let billing: McpTestServer;
  let crm: McpTestServer;
  let ops: McpTestServer;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    platform = await startMcpPlatform('embedded');
    world = await McpWorld.create(platform);
    billing = await startMcpTestServer({
      catalogue: {
        resources: [{ name: 'rates', uri: 'memo://billing/rates', text: 'rate card 2026' }],
        prompts: [{ name: 'brief', description: 'A billing brief.' }],
      },
    });
    crm = await startMcpTestServer({ stateless: true, jsonResponse: true });
    ops = await startMcpTestServer();
    ids.billing = await world.mcpServer(billing.url, {
      name: `Billing Tools ${randomUUID().slice(0, 4)}`,
    });
    ids.crm = await world.mcpServer(crm.url);
    ids.ops = await world.mcpServer(ops.url);
  });

  afterAll(async () => {
    await Promise.all([billing, crm, ops].map((s) => s?.close()));
    await platform?.close();
  });

  async function virtualServer(): Promise<{ id: string; body: Json }> {
    const body = await world.ok<Json>('POST', '/relay/v1/mcp-servers', {
      name: `virtual-${randomUUID().slice(0, 8)}`,
      transport: 'VIRTUAL',
      members: [
        { serverId: ids.billing },
        { serverId: ids.crm, prefix: 'crm', tools: ['lookup_customer'] },
        { serverId: ids.ops, prefix: 'ops', tools: ['echo', 'get_config'] },
      ],
    });
    return { id: String(body.id), body };
  }

  async function agentOn(
    serverId: string,
    tools?: string[],
  ): Promise<{ id: string; token: string }> {
    const agent = await world.agent();
    await world.subscribe(agent.id, serverId, tools);
    return { id: agent.id, token: agent.mcpToken };
  }

  it('should expose each member under its prefix, filtered, and reach only the member a name says when called through the official client', async () => {
    const { id, body } = await virtualServer();
    const agent = await agentOn(id);
    const sut = await connectMcpClient(world.mcpUrl(id), { token: agent.token });
    try {
      const prefix = (body.members as Json[])[0].prefix as string;
      const tools = (await sut.client.listTools()).tools.map((t) => t.name);
      const customer = await sut.client.callTool({
        name: 'crm__lookup_customer',
        arguments: { customerId: 'c-7' },
      });
      const filtered = await refusalOf(sut.client.callTool({ name: 'crm__echo', arguments: {} }));
      const resources = (await sut.client.listResources()).resources;
      const read = await sut.client.readResource({ uri: 'memo://billing/rates' });
      const prompts = (await sut.client.listPrompts()).prompts.map((p) => p.name);
      const prompt = await sut.client.getPrompt({
        name: `${prefix}__brief`,
        arguments: { topic: 'Q3' },
      });

      expect(prefix).toMatch(/^billing_tools_[a-z0-9]+$/);
      expect(tools.sort()).toEqual(
        [
          ...[
            'echo',
            'lookup_customer',
            'get_config',
            'count_with_progress',
            'large_report',
            'summarize_with_client',
          ].map((t) => `${prefix}__${t}`),
          'crm__lookup_customer',
          'ops__echo',
          'ops__get_config',
        ].sort(),
      );
      expect(toolText(customer)).toContain('c-7');
      expect(crm.calls.map((c) => c.tool)).toEqual(['lookup_customer']);
      expect(billing.calls).toHaveLength(0);
      expect(ops.calls).toHaveLength(0);
      expect(filtered).toMatchObject({ rpcCode: -32602 });
      expect(resources).toEqual([
        expect.objectContaining({ name: `${prefix}__rates`, uri: 'memo://billing/rates' }),
      ]);
      expect(read.contents[0]).toMatchObject({ text: 'rate card 2026' });
      expect(prompts).toEqual([`${prefix}__brief`]);
      expect(JSON.stringify(prompt.messages)).toContain('brief: Q3');
    } finally {
      await sut.close();
    }
  });

  it('should refuse a URL on a virtual server, an unknown member or a shared prefix with 400 naming each field, and keep a member that is in use', async () => {
    const answer = await world.api<Json>('POST', '/relay/v1/mcp-servers', {
      name: `virtual-${randomUUID().slice(0, 8)}`,
      transport: 'VIRTUAL',
      url: 'http://127.0.0.1:1/mcp',
      members: [
        { serverId: ids.crm, prefix: 'same' },
        { serverId: ids.ops, prefix: 'same' },
        { serverId: randomUUID() },
      ],
    });

    expect(answer.status).toBe(400);
    expect((answer.body.errors as Json[]).map((e) => e.field).sort()).toEqual(['url']);
    const second = await world.api<Json>('POST', '/relay/v1/mcp-servers', {
      name: `virtual-${randomUUID().slice(0, 8)}`,
      transport: 'VIRTUAL',
      members: [
        { serverId: ids.crm, prefix: 'same' },
        { serverId: ids.ops, prefix: 'same' },
        { serverId: randomUUID() },
      ],
    });
    expect(second.status).toBe(400);
    expect((second.body.errors as Json[]).map((e) => e.field).sort()).toEqual([
      'members[1].prefix',
      'members[2].serverId',
    ]);
    // D52: a member stays while a virtual server composes it.
    expect((await world.api('DELETE', `/relay/v1/mcp-servers/${ids.crm}`)).status).toBe(409);
  });

  it('should keep the other members answering and name the member that is down in its error, and reopen a member session the member lost', async () => {
    const down = await startMcpTestServer();
    const downId = await world.mcpServer(down.url);
    const body = await world.ok<Json>('POST', '/relay/v1/mcp-servers', {
      name: `virtual-${randomUUID().slice(0, 8)}`,
      transport: 'VIRTUAL',
      members: [
        { serverId: ids.billing, prefix: 'billing' },
        { serverId: ids.crm, prefix: 'crm' },
        { serverId: downId, prefix: 'gone' },
      ],
    });
    const id = String(body.id);
    const agent = await agentOn(id);
    const sut = await connectMcpClient(world.mcpUrl(id), { token: agent.token });
    try {
      await sut.client.listTools();
      await down.close();
      await billing.dropSessions();
      const listed = await sut.client.listTools();
      const failed = await refusalOf(
        sut.client.callTool({ name: 'gone__echo', arguments: { text: 'x' } }),
      );
      const fine = await sut.client.callTool({
        name: 'crm__echo',
        arguments: { text: 'still here' },
      });
      const reopened = await sut.client.callTool({
        name: 'billing__echo',
        arguments: { text: 'again' },
      });
      const names = listed.tools.map((t) => t.name);

      expect(names).toContain('billing__echo');
      expect(names).toContain('crm__echo');
      expect(names.some((n) => n.startsWith('gone__'))).toBe(false);
      expect(JSON.stringify(listed._meta)).toContain(downId);
      expect(failed.rpcCode).toBe(-31011);
      expect(failed.message).toContain('prefix gone');
      expect(failed.data).toMatchObject({ memberServerId: downId, virtualServerId: id });
      expect(toolText(fine)).toContain('still here');
      expect(toolText(reopened)).toContain('again');
    } finally {
      await sut.close();
    }
  });

  it('should judge each call with the virtual server in the policy input and the member as the sink, and audit both', async () => {
    const { id } = await virtualServer();
    const agent = await agentOn(id);
    await world.bindToAgent(agent.id, memberPolicy(id, ids.ops));
    const sut = await connectMcpClient(world.mcpUrl(id), { token: agent.token });
    try {
      const prefix = 'billing_tools';
      const tools = (await sut.client.listTools()).tools.map((t) => t.name);
      const billingTool = tools.find((t) => t.startsWith(prefix) && t.endsWith('__get_config'))!;
      const blocked = await refusalOf(
        sut.client.callTool({ name: 'ops__get_config', arguments: {} }),
      );
      const allowed = await sut.client.callTool({ name: billingTool, arguments: {} });
      const events = await eventually(async () => {
        const page = await world.ok<{ items: Json[] }>(
          'GET',
          `/audit/v1/events?eventType=COMMUNICATION_AUDIT&sinkId=${ids.ops}&pageSize=100`,
        );
        const ours = page.items.filter(
          (e) => (e.details as Json).virtualServerId === id && e.action === 'BLOCK',
        );
        expect(ours.length).toBeGreaterThan(0);
        return ours;
      });

      expect(blocked.rpcCode).toBe(-31001);
      expect(JSON.stringify(blocked.data)).toContain(
        'no configuration through this virtual server',
      );
      expect(toolText(allowed)).toContain('AKIA');
      expect(ops.calls.filter((c) => c.tool === 'get_config')).toHaveLength(0);
      expect(events[0]).toMatchObject({
        action: 'BLOCK',
        sink: { type: 'MCP_SERVER', id: ids.ops },
        details: { virtualServerId: id },
      });
    } finally {
      await sut.close();
    }
  });

  it('should refuse a call to a member whose kill switch is engaged with -31005 while the other members answer', async () => {
    const { id } = await virtualServer();
    const agent = await agentOn(id);
    const sut = await connectMcpClient(world.mcpUrl(id), { token: agent.token });
    const engaged = await world.ok<{ id: string }>('POST', '/relay/v1/kill-switches', {
      scope: 'MCP_SERVER',
      targetId: ids.ops,
      reason: 'incident 52',
    });
    try {
      const stopped = await eventually(() =>
        refusalOf(sut.client.callTool({ name: 'ops__echo', arguments: { text: 'x' } })),
      );
      const fine = await sut.client.callTool({
        name: 'crm__lookup_customer',
        arguments: { customerId: 'still' },
      });

      expect(stopped).toMatchObject({ rpcCode: -31005, data: { killSwitchId: engaged.id } });
      expect(toolText(fine)).toContain('still');
    } finally {
      await world.ok('DELETE', `/relay/v1/kill-switches/${engaged.id}`);
      await sut.close();
    }
  });

  it('should grant a virtual server by the names it exposes', async () => {
    const { id } = await virtualServer();
    const agent = await agentOn(id, ['ops__echo']);
    const sut = await connectMcpClient(world.mcpUrl(id), { token: agent.token });
    try {
      const tools = (await sut.client.listTools()).tools.map((t) => t.name);
      const refused = await refusalOf(
        sut.client.callTool({ name: 'crm__lookup_customer', arguments: { customerId: 'x' } }),
      );
      const echoed = await sut.client.callTool({
        name: 'ops__echo',
        arguments: { text: 'granted' },
      });

      expect(tools).toEqual(['ops__echo']);
      expect(refused.rpcCode).toBe(-31001);
      expect(toolText(echoed)).toContain('granted');
    } finally {
      await sut.close();
    }
  });

  it('should hold a call of a member tool for a person and deliver it to that member once on the resend after approval', async () => {
    await world.ok('PATCH', '/relay/v1/traffic-settings', { hitlWaitSeconds: 1 });
    try {
      const { id } = await virtualServer();
      const agent = await agentOn(id);
      await world.bindToAgent(agent.id, HOLD_POLICY);
      const session = await RawMcpSession.open(world.mcpUrl(id), agent.token);
      const marker = randomUUID();

      const first = await eventually(
        async () => {
          const answer = await session.callTool('crm__lookup_customer', { customerId: marker });
          expect(answer.message?.error).toMatchObject({ code: -31004 });
          return answer;
        },
        3,
        1_500,
      );
      const { hitlRequestId } = (first.message!.error as { data: Json }).data;
      await world.ok('POST', `/relay/v1/hitl-requests/${String(hitlRequestId)}/approve`, {}, 200);
      const header = { 'x-agp-hitl-request-id': String(hitlRequestId) };
      const released = await session.callTool(
        'crm__lookup_customer',
        { customerId: marker },
        header,
      );
      const twice = await session.callTool('crm__lookup_customer', { customerId: marker }, header);

      expect(JSON.stringify(released.message?.result)).toContain(marker);
      expect(twice.message?.error).toMatchObject({ code: -31001 });
      expect(crm.calls.filter((c) => c.arguments.customerId === marker)).toHaveLength(1);
    } finally {
      await world.ok('PATCH', '/relay/v1/traffic-settings', { hitlWaitSeconds: 15 });
    }
  });
});
