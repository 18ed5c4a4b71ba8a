import { randomUUID } from 'node:crypto';

import {
  A2aTestAgent,
  McpTestServer,
  eventually,
  startA2aTestAgent,
  startMcpTestServer,
} from '@agp/testing';

import { RelayBed } from './support/relay-bed';
import { TestCaller } from './support/relay-test-app';

type Json = Record<string, unknown>;
interface Found {
  id: string;
  name: string;
  visibility: string;
  score: number;
  skills?: Json[];
  tools?: string[];
}
interface FoundPage {
  items: Found[];
  nextCursor: string | null;
}

const TRANSLATOR = {
  name: 'Polyglot',
  description: 'Translates documents between languages',
  skills: [
    {
      id: 'translate-text',
      name: 'Text translation',
      description: 'Translate contracts and letters from English into French or German',
      tags: ['translation', 'language'],
      examples: ['translate this letter into French'],
      inputModes: ['text/markdown'],
    },
  ],
  capabilities: { streaming: true },
};
const BILLING = {
  name: 'Ledger',
  description: 'Issues and reconciles invoices',
  skills: [
    {
      id: 'reconcile-invoices',
      name: 'Invoice reconciliation',
      description: 'Match payments against open invoices',
      tags: ['finance', 'billing'],
    },
  ],
  capabilities: { pushNotifications: true },
};
const WEATHER = {
  name: 'Skywatch',
  description: 'Weather forecasts for any city',
  skills: [
    {
      id: 'forecast',
      name: 'Weather forecast',
      description: 'Seven day forecast with rain and wind',
      tags: ['weather'],
    },
  ],
  capabilities: {},
};

describe('discovery', () => {
  const relay = RelayBed.use('discovery', { egressAllowPrivate: true });
  let upstream: A2aTestAgent;
  let tools: McpTestServer;
  const ids = { translator: '', billing: '', weather: '', caller: '' };
  let asAgent: TestCaller;

  /** Registers an agent with this card (served by the test agent, fetched by the relay, D38). */
  async function agentWithCard(card: Json, visibility: string): Promise<string> {
    const agentId = await relay.agent();
    upstream.card = { ...upstream.card, ...card };
    const patched = await relay.call('PATCH', `/relay/v1/agents/${agentId}`, {
      agentCardUrl: upstream.cardUrl,
      visibility,
    });
    expect(patched.status).toBe(200);
    const refreshed = await relay.call('POST', `/relay/v1/agents/${agentId}/agent-card/refresh`);
    expect(refreshed.status).toBe(200);
    return agentId;
  }

  function search(caller: TestCaller, path: string): Promise<{ status: number; body: FoundPage }> {
    return caller.call<FoundPage>(relay.app, 'GET', `/relay/v1/discovery/${path}`);
  }

  const namesOf = (page: FoundPage): string[] => page.items.map((item) => item.id);

  beforeAll(async () => {
    upstream = await startA2aTestAgent();
    tools = await startMcpTestServer({ stateless: true, jsonResponse: true });
    ids.translator = await agentWithCard(TRANSLATOR, 'INTERNAL');
    ids.billing = await agentWithCard(BILLING, 'PRIVATE');
    ids.weather = await agentWithCard(WEATHER, 'PUBLIC');
    ids.caller = await relay.agent();
    // An agent's token holding the registry's read role: visibility, not the role, decides (DS8).
    asAgent = await TestCaller.create(
      relay.issuer,
      relay.tenantId,
      ['REGISTRY:READ', 'MCP_REGISTRY:READ'],
      'AGENT',
      ids.caller,
    );
  });

  afterAll(async () => {
    await tools?.close();
    await upstream?.close();
  });

  it('should rank the agent whose card matches the words first when searched by free text', async () => {
    const found = await search(relay.admin, 'agents?q=translate%20a%20letter%20to%20french');

    expect(found.status).toBe(200);
    expect(found.body.items[0]).toMatchObject({
      id: ids.translator,
      visibility: 'INTERNAL',
      skills: [
        { id: 'translate-text', name: 'Text translation', tags: ['translation', 'language'] },
      ],
      capabilities: { streaming: true },
      agentCardUrl: expect.stringContaining(
        `/relay/a2a/${ids.translator}/.well-known/agent-card.json`,
      ),
    });
    expect(found.body.items[0].score).toBeGreaterThan(0);
    expect(JSON.stringify(found.body)).not.toContain(upstream.cardUrl);
  });

  it('should find exactly the agents every filter names when filtered by skill, tag, capability and mode', async () => {
    const bySkillId = await search(relay.admin, 'agents?skill=Reconcile-Invoices');
    const bySkillName = await search(relay.admin, 'agents?skill=invoice%20reconciliation');
    const byTag = await search(relay.admin, 'agents?tag=WEATHER');
    const byCapability = await search(relay.admin, 'agents?capability=pushNotifications');
    const byInput = await search(relay.admin, 'agents?inputMode=text/markdown');
    const both = await search(relay.admin, 'agents?tag=weather&capability=streaming');

    expect(namesOf(bySkillId.body)).toEqual([ids.billing]);
    expect(namesOf(bySkillName.body)).toEqual([ids.billing]);
    expect(namesOf(byTag.body)).toEqual([ids.weather]);
    expect(namesOf(byCapability.body)).toEqual([ids.billing]);
    expect(namesOf(byInput.body)).toEqual([ids.translator]);
    expect(both.body.items).toEqual([]);
  });

  it('should hide a PRIVATE agent from another agent in search, list, get and errors until it subscribes', async () => {
    const before = await search(asAgent, 'agents?q=invoices');
    const all = await search(asAgent, 'agents');
    const listed = await asAgent.call<{ items: Json[]; total: number }>(
      relay.app,
      'GET',
      '/relay/v1/agents?pageSize=100',
    );
    const fetched = await asAgent.call<Json>(relay.app, 'GET', `/relay/v1/agents/${ids.billing}`);
    const unknown = await asAgent.call<Json>(relay.app, 'GET', `/relay/v1/agents/${randomUUID()}`);

    expect(before.body.items).toEqual([]);
    expect(namesOf(all.body).sort()).toEqual([ids.caller, ids.translator, ids.weather].sort());
    expect(listed.body.items.map((a) => a.id)).not.toContain(ids.billing);
    expect(listed.body.total).toBe(3);
    expect(fetched.status).toBe(404);
    expect(Object.keys(fetched.body).sort()).toEqual(Object.keys(unknown.body).sort());
    expect(fetched.body.title).toBe(unknown.body.title);

    const subscribed = await relay.call('POST', '/relay/v1/subscriptions', {
      kind: 'AGENT_TO_AGENT',
      sourceId: ids.caller,
      targetId: ids.billing,
    });
    expect(subscribed.status).toBe(201);
    const after = await search(asAgent, 'agents?q=invoices');
    const fetchedAfter = await asAgent.call(relay.app, 'GET', `/relay/v1/agents/${ids.billing}`);

    expect(namesOf(after.body)).toEqual([ids.billing]);
    expect(fetchedAfter.status).toBe(200);
  });

  it("should show nothing of a tenant's agents to another tenant's administrator or agent", async () => {
    const strangerAgent = await TestCaller.create(
      relay.issuer,
      relay.stranger.tenantId,
      [],
      'AGENT',
    );

    const byAdmin = await search(relay.stranger, 'agents?q=weather');
    const byAgent = await search(strangerAgent, 'agents?tag=weather');

    expect(byAdmin.body.items).toEqual([]);
    expect(byAgent.body.items).toEqual([]);
  });

  it('should refuse a person without the read role and list every bad filter when the query is invalid', async () => {
    const nobody = await relay.caller(['CHANNELS:READ']);
    const metadataReader = await relay.caller(['AGENT_METADATA:READ']);

    const forbidden = await search(nobody, 'agents');
    const allowed = await search(metadataReader, 'agents?tag=weather');
    const bad = await relay.call<{ errors: Json[] }>(
      'GET',
      '/relay/v1/discovery/agents?limit=0&colour=red&cursor=nope',
    );
    const badCursor = await relay.call<{ errors: Json[] }>(
      'GET',
      '/relay/v1/discovery/agents?cursor=nope',
    );
    const agentOnlyFilter = await relay.call<{ errors: Json[] }>(
      'GET',
      '/relay/v1/discovery/mcp-servers?inputMode=text/plain&tag=x',
    );

    expect(forbidden.status).toBe(403);
    expect(allowed.status).toBe(200);
    expect(namesOf(allowed.body)).toEqual([ids.weather]);
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e) => e.field).sort()).toEqual(['colour', 'limit']);
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.errors.map((e) => e.field)).toEqual(['cursor']);
    expect(agentOnlyFilter.status).toBe(400);
    expect(agentOnlyFilter.body.errors.map((e) => e.field).sort()).toEqual(['inputMode', 'tag']);
  });

  it('should walk every match once, in rank order, when paged with the cursor', async () => {
    const seen: Found[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: FoundPage } = await search(
        relay.admin,
        `agents?q=translate%20invoices%20weather%20forecast&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      seen.push(...page.body.items);
      cursor = page.body.nextCursor;
    } while (cursor);

    expect(seen.map((f) => f.id).sort()).toEqual([ids.translator, ids.billing, ids.weather].sort());
    const scores = seen.map((f) => f.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('should follow the card when it changes and drop the agent when it is deleted', async () => {
    const agentId = await agentWithCard(WEATHER, 'INTERNAL');
    upstream.card = {
      ...upstream.card,
      skills: [
        { id: 'tides', name: 'Tide tables', description: 'High and low tide', tags: ['sea'] },
      ],
    } as A2aTestAgent['card'];
    await relay.call('POST', `/relay/v1/agents/${agentId}/agent-card/refresh`);

    const bySea = await search(relay.admin, 'agents?tag=sea');
    const byWeather = await search(relay.admin, 'agents?tag=weather');
    expect(namesOf(bySea.body)).toEqual([agentId]);
    expect(namesOf(byWeather.body)).not.toContain(agentId);

    await relay.publisher.publish('AGENT_LIFECYCLE', relay.tenantId, {
      agentId,
      name: 'gone',
      change: 'DELETED',
      status: 'DELETED',
      permissions: [],
    });
    await eventually(async () =>
      expect((await search(relay.admin, 'agents?tag=sea')).body.items).toEqual([]),
    );
  });

  it('should find an MCP server by the tools it listed and keep a PRIVATE one from agents not subscribed', async () => {
    const created = await relay.call<{ id: string; visibility: string }>(
      'POST',
      '/relay/v1/mcp-servers',
      { name: 'crm-tools', url: tools.url, transport: 'STREAMABLE_HTTP', description: 'CRM' },
    );
    expect(created.body.visibility).toBe('PRIVATE');
    const serverId = created.body.id;
    const sub = await relay.call('POST', '/relay/v1/subscriptions', {
      kind: 'AGENT_TO_MCP_SERVER',
      sourceId: ids.caller,
      targetId: serverId,
      tools: null,
    });
    expect(sub.status).toBe(201);
    const token = await relay.issuer.token({
      tenantId: relay.tenantId,
      subject: ids.caller,
      kind: 'AGENT',
      scope: 'mcp:call',
      audience: `${relay.issuer.baseUrl}/relay`,
    });
    // The chain form: the MCP path's JSON-RPC answers are not the REST document's (issue 18 § 2).
    const listed = await relay.app
      .inject()
      .post(`/relay/mcp/${serverId}`)
      .headers({
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      })
      .payload(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }))
      .end();
    expect(listed.statusCode).toBe(200);

    const byTool = await search(relay.admin, 'mcp-servers?tool=lookup_customer');
    const byText = await search(relay.admin, 'mcp-servers?q=look%20up%20a%20customer');
    const bySkill = await search(relay.admin, 'mcp-servers?skill=ECHO&capability=tools');
    const subscriber = await search(asAgent, 'mcp-servers?tool=echo');
    const other = await TestCaller.create(relay.issuer, relay.tenantId, [], 'AGENT');
    const notSubscribed = await search(other, 'mcp-servers?tool=echo');
    const otherGet = await other.call(relay.app, 'GET', `/relay/v1/mcp-servers/${serverId}`);

    expect(namesOf(byTool.body)).toEqual([serverId]);
    expect(byTool.body.items[0].tools).toEqual(expect.arrayContaining(['echo', 'lookup_customer']));
    expect(namesOf(byText.body)).toEqual([serverId]);
    expect(namesOf(bySkill.body)).toEqual([serverId]);
    expect(namesOf(subscriber.body)).toEqual([serverId]);
    expect(notSubscribed.body.items).toEqual([]);
    expect(otherGet.status).toBe(403);

    await relay.call('PATCH', `/relay/v1/mcp-servers/${serverId}`, { visibility: 'INTERNAL' });
    expect(namesOf((await search(other, 'mcp-servers?tool=echo')).body)).toEqual([serverId]);
  });
});
