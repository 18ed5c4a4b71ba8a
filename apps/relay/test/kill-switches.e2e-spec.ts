import { randomUUID } from 'node:crypto';

import { eventually } from '@agp/testing';

import { RelayBed } from './support/relay-bed';
import { ADMIN_PERMS, TestCaller } from './support/relay-test-app';

type Json = Record<string, unknown>;
type Problem = { type: string; detail: string; errors?: Array<{ field: string; message: string }> };

/** D35: engaging, listing and releasing kill switches, with the lifecycle event of each kind. */
describe('kill switches', () => {
  const relay = RelayBed.use('kill_switches');
  const { tenantId } = relay;

  /** An agent tenant-auth deleted: the projection keeps it as DELETED (GET answers 404). */
  async function deletedAgent(): Promise<string> {
    const agentId = await relay.agent();
    await relay.publisher.publish('AGENT_LIFECYCLE', tenantId, {
      agentId,
      name: 'gone',
      change: 'DELETED',
      status: 'DELETED',
      permissions: [],
    });
    await eventually(async () =>
      expect((await relay.call('GET', `/relay/v1/agents/${agentId}`)).status).toBe(404),
    );
    return agentId;
  }

  async function entry(path: string, body: Json, owner = relay.admin): Promise<string> {
    const created = await owner.call(relay.app, 'POST', `/relay/v1/${path}`, body);
    expect(created.status).toBe(201);
    return String(created.body.id);
  }

  const mcpServer = (owner = relay.admin): Promise<string> =>
    entry(
      'mcp-servers',
      {
        name: `tools-${randomUUID()}`,
        url: 'https://tools.acme.example/mcp',
        transport: 'STREAMABLE_HTTP',
      },
      owner,
    );
  const llmGateway = async (): Promise<string> =>
    entry('llm-gateways', {
      name: `llm-${randomUUID()}`,
      providers: [
        await entry('llm-providers', {
          name: `openai-${randomUUID()}`,
          baseUrl: 'https://api.openai.com/v1',
        }),
      ],
    });
  const channel = (): Promise<string> =>
    entry('channels', { name: `chan-${randomUUID()}`, kind: 'SLACK' });

  function switchEvents(type: string, switchId: string): Json[] {
    return relay.tap
      .ofType(type)
      .filter((e) => (e.data.details as Json | undefined)?.killSwitchId === switchId)
      .map((e) => e.data);
  }

  it.each([
    ['AGENT', 'AGENT_LIFECYCLE'],
    ['MCP_SERVER', 'MCP_LIFECYCLE'],
    ['LLM_GATEWAY', 'LLM_LIFECYCLE'],
    ['CHANNEL', 'GOVERNANCE_LIFECYCLE'],
    ['TENANT', 'GOVERNANCE_LIFECYCLE'],
  ])('should engage and release a %s switch and record %s both times', async (scope, eventType) => {
    const targetId =
      scope === 'AGENT'
        ? await relay.agent()
        : scope === 'MCP_SERVER'
          ? await mcpServer()
          : scope === 'LLM_GATEWAY'
            ? await llmGateway()
            : scope === 'CHANNEL'
              ? await channel()
              : tenantId;

    const engaged = await relay.call('POST', '/relay/v1/kill-switches', {
      scope,
      targetId,
      reason: 'incident 42',
    });
    const id = String(engaged.body.id);
    const read = await relay.call('GET', `/relay/v1/kill-switches/${id}`);
    const released = await relay.call('DELETE', `/relay/v1/kill-switches/${id}`);
    const after = await relay.call('GET', `/relay/v1/kill-switches/${id}`);

    expect(engaged.status).toBe(201);
    expect(engaged.headers.location).toBe(`/relay/v1/kill-switches/${id}`);
    expect(engaged.body).toEqual(
      expect.objectContaining({
        scope,
        targetId,
        reason: 'incident 42',
        status: 'ENGAGED',
        engagedBy: relay.admin.subject,
      }),
    );
    expect(engaged.body).toEqual(expect.objectContaining({ releasedAt: null, releasedBy: null }));
    expect(read.body).toEqual(engaged.body);
    expect(released.status).toBe(204);
    expect(after.body).toEqual(
      expect.objectContaining({ status: 'RELEASED', releasedBy: relay.admin.subject }),
    );
    expect(Date.parse(String(after.body.releasedAt))).not.toBeNaN();
    const events = await eventually(() => {
      const found = switchEvents(eventType, id);
      expect(found).toHaveLength(2);
      return found;
    });
    expect(events.map((e) => (e.details as Json).change)).toEqual([
      'KILL_SWITCH_ENGAGED',
      'KILL_SWITCH_RELEASED',
    ]);
    expect(events[0]).toEqual(
      expect.objectContaining({
        actor: expect.objectContaining({ id: relay.admin.subject }),
        sink: expect.objectContaining({ type: scope, id: targetId }),
        summary: expect.stringContaining('incident 42'),
      }),
    );
  });

  it('should keep the agents projection unchanged when an agent switch is recorded', async () => {
    const agentId = await relay.agent();
    const engaged = await relay.call('POST', '/relay/v1/kill-switches', {
      scope: 'AGENT',
      targetId: agentId,
      reason: 'stop',
    });

    const events = await eventually(() => {
      const found = switchEvents('AGENT_LIFECYCLE', String(engaged.body.id));
      expect(found).toHaveLength(1);
      return found;
    });
    expect(events[0]).toEqual(
      expect.objectContaining({ agentId, change: 'UPDATED', status: 'ACTIVE' }),
    );
    expect((events[0].details as Json).origin).toBe('relay');
    expect((await relay.call('GET', `/relay/v1/agents/${agentId}`)).body.status).toBe('ACTIVE');
  });

  it('should carry the agent status when a switch on a suspended agent is recorded', async () => {
    const agentId = await relay.agent();
    await relay.publisher.publish('AGENT_LIFECYCLE', tenantId, {
      agentId,
      name: 'suspended-agent',
      change: 'SUSPENDED',
      status: 'SUSPENDED',
      permissions: [],
    });
    await eventually(async () =>
      expect((await relay.call('GET', `/relay/v1/agents/${agentId}`)).body.status).toBe(
        'SUSPENDED',
      ),
    );

    const engaged = await relay.call('POST', '/relay/v1/kill-switches', {
      scope: 'AGENT',
      targetId: agentId,
      reason: 'stop',
    });

    const events = await eventually(() => {
      const found = switchEvents('AGENT_LIFECYCLE', String(engaged.body.id));
      expect(found).toHaveLength(1);
      return found;
    });
    expect(events[0]).toEqual(expect.objectContaining({ agentId, status: 'SUSPENDED' }));
  });

  it('should answer 409 naming the target when its target is engaged again, and engage anew once released', async () => {
    const serverId = await mcpServer();
    const body = { scope: 'MCP_SERVER', targetId: serverId, reason: 'first' };
    const first = await relay.call('POST', '/relay/v1/kill-switches', body);

    const second = await relay.call<Problem>('POST', '/relay/v1/kill-switches', body);
    await relay.call('DELETE', `/relay/v1/kill-switches/${String(first.body.id)}`);
    const third = await relay.call('POST', '/relay/v1/kill-switches', body);

    expect(second.status).toBe(409);
    expect(second.body.detail).toContain(serverId);
    expect(second.body.type).toContain('kill-switch-engaged');
    expect(third.status).toBe(201);
    expect(third.body.id).not.toBe(first.body.id);
  });

  it('should keep one engaged switch when two administrators engage the same target at once', async () => {
    const serverId = await mcpServer();
    const body = { scope: 'MCP_SERVER', targetId: serverId, reason: 'race' };

    const answers = await Promise.all(
      Array.from({ length: 4 }, () => relay.call('POST', '/relay/v1/kill-switches', body)),
    );

    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
    const engaged = await relay.call<{ total: number }>(
      'GET',
      `/relay/v1/kill-switches?targetId=${serverId}&engaged=true`,
    );
    expect(engaged.body.total).toBe(1);
  });

  it('should answer 409 naming the state when a released switch is released again', async () => {
    const created = await relay.call('POST', '/relay/v1/kill-switches', {
      scope: 'CHANNEL',
      targetId: await channel(),
      reason: 'x',
    });
    const url = `/relay/v1/kill-switches/${String(created.body.id)}`;
    await relay.call('DELETE', url);

    const again = await relay.call<Problem>('DELETE', url);

    expect(again.status).toBe(409);
    expect(again.body.detail).toContain('RELEASED');
    expect(again.body.type).toContain('kill-switch-released');
  });

  it('should filter by scope, target and engaged, newest first, paged', async () => {
    const lister = await TestCaller.create(relay.issuer, randomUUID(), ADMIN_PERMS);
    const agents = [await relay.agent(lister), await relay.agent(lister)];
    const serverId = await mcpServer(lister);
    const ids: string[] = [];
    for (const [scope, targetId] of [
      ['AGENT', agents[0]],
      ['AGENT', agents[1]],
      ['MCP_SERVER', serverId],
    ]) {
      const created = await lister.call(relay.app, 'POST', '/relay/v1/kill-switches', {
        scope,
        targetId,
        reason: 'r',
      });
      ids.push(String(created.body.id));
    }
    await lister.call(relay.app, 'DELETE', `/relay/v1/kill-switches/${ids[0]}`);
    type ListPage = { items: Json[]; total: number; page: number; pageSize: number };
    const list = (query: string) =>
      lister.call<ListPage>(relay.app, 'GET', `/relay/v1/kill-switches${query}`);

    const all = await list('');
    const agentsOnly = await list('?scope=AGENT');
    const engaged = await list('?engaged=true');
    const released = await list('?engaged=false');
    const byTarget = await list(`?targetId=${agents[1]}`);
    const paged = await list('?pageSize=2&page=2');

    expect(all.body.items.map((s) => s.id)).toEqual([...ids].reverse());
    expect(all.body.total).toBe(3);
    expect(agentsOnly.body.items.map((s) => s.id)).toEqual([ids[1], ids[0]]);
    expect(engaged.body.items.map((s) => s.id)).toEqual([ids[2], ids[1]]);
    expect(released.body.items.map((s) => s.id)).toEqual([ids[0]]);
    expect(byTarget.body.items.map((s) => s.id)).toEqual([ids[1]]);
    expect(paged.body).toEqual(
      expect.objectContaining({
        page: 2,
        pageSize: 2,
        total: 3,
        items: [expect.objectContaining({ id: ids[0] })],
      }),
    );
  });

  it('should answer 400 listing every bad field when the body or query is invalid', async () => {
    const bad = await relay.call<Problem>('POST', '/relay/v1/kill-switches', {
      scope: 'PLANET',
      targetId: 'nope',
      reason: '',
      extra: 1,
    });
    const missing = await relay.call<Problem>('POST', '/relay/v1/kill-switches', {});
    const query = await relay.call<Problem>(
      'GET',
      '/relay/v1/kill-switches?engaged=maybe&scope=X&targetId=1&pageSize=101',
    );
    const path = await relay.call<Problem>('GET', '/relay/v1/kill-switches/not-a-uuid');

    expect(bad.status).toBe(400);
    expect(bad.body.errors!.map((e) => e.field).sort()).toEqual([
      'extra',
      'reason',
      'scope',
      'targetId',
    ]);
    expect([...new Set(missing.body.errors!.map((e) => e.field))].sort()).toEqual([
      'reason',
      'scope',
      'targetId',
    ]);
    expect(query.status).toBe(400);
    expect(query.body.errors!.map((e) => e.field).sort()).toEqual([
      'engaged',
      'pageSize',
      'scope',
      'targetId',
    ]);
    expect(path.status).toBe(400);
    expect(path.body.errors!.map((e) => e.field)).toEqual(['killSwitchId']);
  });

  it('should answer 400 naming targetId when the target is not in the caller tenant', async () => {
    const foreignServer = await mcpServer(relay.stranger);
    const deletedServer = await mcpServer();
    await relay.call('DELETE', `/relay/v1/mcp-servers/${deletedServer}`);
    const cases = [
      { scope: 'TENANT', targetId: randomUUID() },
      { scope: 'TENANT', targetId: relay.stranger.tenantId },
      { scope: 'AGENT', targetId: randomUUID() },
      { scope: 'AGENT', targetId: await deletedAgent() },
      { scope: 'MCP_SERVER', targetId: foreignServer },
      { scope: 'MCP_SERVER', targetId: deletedServer },
      { scope: 'LLM_GATEWAY', targetId: randomUUID() },
      { scope: 'CHANNEL', targetId: await mcpServer() },
    ];

    const answers = await Promise.all(
      cases.map((c) =>
        relay.call<Problem>('POST', '/relay/v1/kill-switches', {
          ...c,
          reason: 'r',
        }),
      ),
    );

    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual([{ field: 'targetId', message: expect.any(String) }]);
    }
    expect(answers[0].body.errors![0].message).toContain('own tenant');
    expect(answers[2].body.errors![0].message).toContain('no AGENT');
  });

  it('should answer 404 when the switch is unknown or belongs to another tenant', async () => {
    const foreign = await relay.stranger.call(relay.app, 'POST', '/relay/v1/kill-switches', {
      scope: 'TENANT',
      targetId: relay.stranger.tenantId,
      reason: 'theirs',
    });
    const foreignUrl = `/relay/v1/kill-switches/${String(foreign.body.id)}`;

    const unknown = await relay.call('GET', `/relay/v1/kill-switches/${randomUUID()}`);
    const unknownRelease = await relay.call('DELETE', `/relay/v1/kill-switches/${randomUUID()}`);
    const read = await relay.call('GET', foreignUrl);
    const release = await relay.call('DELETE', foreignUrl);
    const listed = await relay.call<{ items: Json[] }>('GET', '/relay/v1/kill-switches');

    expect(foreign.status).toBe(201);
    expect([unknown.status, unknownRelease.status, read.status, release.status]).toEqual([
      404, 404, 404, 404,
    ]);
    expect(listed.body.items.map((s) => s.id)).not.toContain(foreign.body.id);
    expect((await relay.stranger.call(relay.app, 'GET', foreignUrl)).body.status).toBe('ENGAGED');
  });

  it('should answer 403 naming the role when the caller is not a tenant administrator', async () => {
    const writer = await TestCaller.create(relay.issuer, tenantId, [
      'TENANT:WRITE',
      'REGISTRY:ADMIN',
      'MCP_REGISTRY:ADMIN',
    ]);
    const created = await relay.call('POST', '/relay/v1/kill-switches', {
      scope: 'AGENT',
      targetId: await relay.agent(),
      reason: 'r',
    });
    const url = `/relay/v1/kill-switches/${String(created.body.id)}`;

    const answers = [
      await writer.call<Problem>(relay.app, 'POST', '/relay/v1/kill-switches', {
        scope: 'TENANT',
        targetId: tenantId,
        reason: 'r',
      }),
      await writer.call<Problem>(relay.app, 'GET', '/relay/v1/kill-switches'),
      await writer.call<Problem>(relay.app, 'GET', url),
      await writer.call<Problem>(relay.app, 'DELETE', url),
    ];

    expect(answers.map((a) => a.status)).toEqual([403, 403, 403, 403]);
    expect(answers[0].body.detail).toContain('TENANT:ADMIN');
    expect((await relay.call('GET', url)).body.status).toBe('ENGAGED');
  });

  it('should answer 401 when no token is given', async () => {
    const answers = await Promise.all(
      [
        { method: 'POST' as const, url: '/relay/v1/kill-switches' },
        { method: 'GET' as const, url: '/relay/v1/kill-switches' },
        { method: 'DELETE' as const, url: `/relay/v1/kill-switches/${randomUUID()}` },
      ].map((r) => relay.app.inject(r)),
    );

    expect(answers.map((a) => a.statusCode)).toEqual([401, 401, 401]);
  });
});
