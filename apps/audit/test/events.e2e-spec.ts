import { randomUUID } from 'node:crypto';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { EVENT_TRANSPORT, EventTransport } from '@agp/messaging';
import { deleteNatsStreams } from '@agp/messaging/testing';
import {
  TEST_NATS_URL,
  TestDatabase,
  TestTokenIssuer,
  createTestDatabase,
  eventually,
  uniqueNatsPrefix,
} from '@agp/testing';

import { IngestService } from '../src/ingest/ingest.service';
import { TestCaller, auditEnvelope, startAudit } from './support/audit-test-app';
import { BASE_TIME, SeededEvent, variedEvents } from './support/seed';

interface EventItem {
  id: string;
  eventType: string;
  content: string | null;
  contentDigest: string | null;
  decision: { reasons?: string[] } | null;
  chain: { sequence: number };
}
interface EventPage {
  items: EventItem[];
  nextCursor: string | null;
}

describe('audit events (GET /audit/v1/events, /events/{id}, /traces/{correlationId})', () => {
  let db: TestDatabase;
  let app: NestFastifyApplication;
  let issuer: TestTokenIssuer;
  let prefix: string;
  let reader: TestCaller;
  let otherTenant: TestCaller;
  let seeded: SeededEvent[];
  const tenantId = randomUUID();
  const policyId = randomUUID();
  const agentId = randomUUID();
  const mcpId = randomUUID();
  const correlationId = randomUUID();
  const ids = (page: EventPage): string[] => page.items.map((item) => item.id);
  const seededIds = (...indexes: number[]): string[] =>
    indexes.map((i) => seeded[i]?.id ?? '').reverse();

  beforeAll(async () => {
    db = await createTestDatabase('audit_events');
    issuer = await TestTokenIssuer.create();
    prefix = uniqueNatsPrefix('audev');
    app = await startAudit({ databaseUrl: db.url, prefix, issuer });
    reader = await TestCaller.create(issuer, tenantId, ['AUDIT:READ']);
    otherTenant = await TestCaller.create(issuer, randomUUID(), ['AUDIT:ADMIN']);
    seeded = variedEvents(tenantId, policyId, agentId, mcpId, correlationId);
    await app.get(IngestService).ingest(seeded.map((s) => s.envelope));
    await app
      .get(IngestService)
      .ingest(
        variedEvents(otherTenant.tenantId, policyId, agentId, mcpId, correlationId).map(
          (s) => s.envelope,
        ),
      );
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
    await deleteNatsStreams(prefix, TEST_NATS_URL);
  });

  it('should store an event once when it is published on JetStream twice', async () => {
    const envelope = auditEnvelope(tenantId, 'MCP_LIFECYCLE', { summary: 'server registered' });
    const transport = app.get<EventTransport>(EVENT_TRANSPORT);
    await transport.publish(envelope);
    await transport.publish({ ...envelope });
    const stored = await eventually(async () => {
      const response = await reader.call<EventItem>(app, 'GET', `/audit/v1/events/${envelope.id}`);
      expect(response.status).toBe(200);
      return response.body;
    });
    expect(stored.eventType).toBe('MCP_LIFECYCLE');
    const page = await reader.call<EventPage>(
      app,
      'GET',
      '/audit/v1/events?eventType=MCP_LIFECYCLE',
    );
    expect(ids(page.body)).toEqual([envelope.id]);
  });

  it('should store a redelivered batch once when the same events are ingested again', async () => {
    const sut = app.get(IngestService);
    const again = await sut.ingest(seeded.map((s) => s.envelope));
    expect(again).toBe(0);
  });

  it.each([
    ['eventType=COMMUNICATION_AUDIT', [0, 1]],
    ['eventType=PII_DETECTION,RATE_LIMIT', [2, 5]],
    ['protocol=MCP', [0, 1]],
    ['protocol=REST&protocol=GRPC', [3, 5]],
    ['action=BLOCK', [1]],
    ['action=MASK,WARN', [2, 3]],
    ['actorType=USER', [2, 4]],
    ['actorId=user-2', [4]],
    ['sourceType=CHANNEL', [5]],
    ['sourceId=agent-2', [3]],
    ['sinkType=MCP_SERVER', [0, 1]],
    ['sinkId=gw-1', [3]],
    [`policyId=${policyId}`, [0, 1]],
    [`correlationId=${correlationId}`, [0, 1, 2]],
    [`from=${new Date(BASE_TIME + 2 * 60_000).toISOString()}`, [2, 3, 4, 5]],
    [`to=${new Date(BASE_TIME + 2 * 60_000).toISOString()}`, [0, 1]],
    [
      `from=${new Date(BASE_TIME + 60_000).toISOString()}&to=${new Date(BASE_TIME + 3 * 60_000).toISOString()}`,
      [1, 2],
    ],
    [`protocol=MCP&action=LOG&policyId=${policyId}`, [0]],
  ])(
    'should return exactly the matching events newest first when filtered by %s',
    async (query, expected) => {
      // Events of the other tests are recent; an upper bound keeps to the seeded ones.
      const bounded = query.includes('to=')
        ? query
        : `${query}&to=${new Date(BASE_TIME + 3_600_000).toISOString()}`;
      const response = await reader.call<EventPage>(app, 'GET', `/audit/v1/events?${bounded}`);
      expect(response.status).toBe(200);
      expect(ids(response.body)).toEqual(seededIds(...expected));
    },
  );

  it('should walk every event once in order when paging by cursor', async () => {
    const seen: string[] = [];
    let url = `/audit/v1/events?pageSize=2&to=${new Date(BASE_TIME + 3_600_000).toISOString()}`;
    for (let i = 0; i < 10; i += 1) {
      const page = await reader.call<EventPage>(app, 'GET', url);
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...ids(page.body));
      if (!page.body.nextCursor) {
        break;
      }
      url = `/audit/v1/events?pageSize=2&to=${new Date(BASE_TIME + 3_600_000).toISOString()}&cursor=${page.body.nextCursor}`;
    }
    expect(seen).toEqual(seededIds(0, 1, 2, 3, 4, 5));
  });

  it('should answer 400 naming the parameter when a cursor, a page size or a filter value is bad', async () => {
    const cursor = await reader.call<{ errors: Array<{ field: string }> }>(
      app,
      'GET',
      '/audit/v1/events?cursor=nonsense',
    );
    expect(cursor.status).toBe(400);
    expect(cursor.body.errors.map((e) => e.field)).toEqual(['cursor']);
    const size = await reader.call(app, 'GET', '/audit/v1/events?pageSize=101');
    expect(size.status).toBe(400);
    const unknown = await reader.call<{ errors: Array<{ field: string; message: string }> }>(
      app,
      'GET',
      '/audit/v1/events?action=BLOCK,EXPLODE',
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]?.message).toContain('EXPLODE');
    const extra = await reader.call(app, 'GET', '/audit/v1/events?colour=red');
    expect(extra.status).toBe(400);
  });

  it('should return the whole event with its decision detail and chain place when read by id', async () => {
    const response = await reader.call<EventItem>(app, 'GET', `/audit/v1/events/${seeded[1]?.id}`);
    expect(response.status).toBe(200);
    expect(response.body.decision?.reasons).toEqual(['prompt injection']);
    expect(response.body.chain.sequence).toBeGreaterThan(0);
  });

  it('should answer 404 when the event id is unknown and 400 when it is not a uuid', async () => {
    expect((await reader.call(app, 'GET', `/audit/v1/events/${randomUUID()}`)).status).toBe(404);
    expect((await reader.call(app, 'GET', '/audit/v1/events/nope')).status).toBe(400);
  });

  it('should return every hop of one conversation in order when a trace is read', async () => {
    const response = await reader.call<{ correlationId: string; items: EventItem[] }>(
      app,
      'GET',
      `/audit/v1/traces/${correlationId}`,
    );
    expect(response.status).toBe(200);
    expect(response.body.items.map((item) => item.id)).toEqual(seeded.slice(0, 3).map((s) => s.id));
    expect((await reader.call(app, 'GET', `/audit/v1/traces/${randomUUID()}`)).status).toBe(404);
  });

  it('should keep only the digest of message content when the tenant does not capture content', async () => {
    const envelope = auditEnvelope(tenantId, 'COMMUNICATION_AUDIT', { content: 'secret message' });
    await app.get(IngestService).ingest([envelope]);
    const response = await reader.call<EventItem>(app, 'GET', `/audit/v1/events/${envelope.id}`);
    expect(response.body.content).toBeNull();
    expect(response.body.contentDigest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('should keep the content and record RETENTION_POLICY_CHANGED when a writer turns content capture on', async () => {
    const writer = await TestCaller.create(issuer, tenantId, ['AUDIT:WRITE']);
    const put = await writer.call<{ captureContent: boolean; days: Record<string, number> }>(
      app,
      'PUT',
      '/audit/v1/retention',
      {
        days: { TRAFFIC: 30 },
        captureContent: true,
      },
    );
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ captureContent: true, days: { TRAFFIC: 30, DETECTION: 365 } });
    const envelope = auditEnvelope(tenantId, 'COMMUNICATION_AUDIT', { content: 'kept message' });
    await app.get(IngestService).ingest([envelope]);
    expect(
      (await reader.call<EventItem>(app, 'GET', `/audit/v1/events/${envelope.id}`)).body.content,
    ).toBe('kept message');
    const recorded = await eventually(async () => {
      const page = await reader.call<EventPage>(
        app,
        'GET',
        '/audit/v1/events?eventType=RETENTION_POLICY_CHANGED',
      );
      expect(page.body.items).toHaveLength(1);
      return page.body.items[0];
    });
    expect(recorded?.eventType).toBe('RETENTION_POLICY_CHANGED');
  });

  it('should answer 403 when a reader changes retention and 400 when the days are out of range', async () => {
    expect(
      (await reader.call(app, 'PUT', '/audit/v1/retention', { days: { TRAFFIC: 10 } })).status,
    ).toBe(403);
    const writer = await TestCaller.create(issuer, tenantId, ['AUDIT:WRITE']);
    const bad = await writer.call<{ errors: Array<{ field: string }> }>(
      app,
      'PUT',
      '/audit/v1/retention',
      { days: { TRAFFIC: 0, NOPE: 3 } },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e) => e.field)).toEqual(
      expect.arrayContaining(['days.TRAFFIC', 'days.NOPE']),
    );
  });

  it('should count by action, type and protocol and rank parties when the dashboard is read', async () => {
    const recent = variedEvents(tenantId, policyId, agentId, mcpId, randomUUID()).map((s) => ({
      ...s.envelope,
      id: randomUUID(),
      occurredAt: new Date(Date.now() - 60_000).toISOString(),
    }));
    await app.get(IngestService).ingest(recent);
    const response = await reader.call<{
      byAction: Array<{ key: string; count: number }>;
      byProtocol: Array<{ key: string; count: number }>;
      topAgents: {
        byVolume: Array<{ id: string; events: number }>;
        byBlocks: Array<{ id: string; blocks: number }>;
      };
      topMcpServers: { byVolume: Array<{ id: string; events: number }> };
      series: Array<{ total: number }>;
    }>(app, 'GET', '/audit/v1/dashboard?window=LAST_1H');
    expect(response.status).toBe(200);
    expect(response.body.byAction).toEqual(
      expect.arrayContaining([
        { key: 'BLOCK', count: 1 },
        { key: 'LOG', count: 1 },
      ]),
    );
    expect(response.body.byProtocol).toEqual(expect.arrayContaining([{ key: 'MCP', count: 2 }]));
    expect(response.body.topAgents.byVolume[0]).toMatchObject({ id: agentId, events: 4 });
    expect(response.body.topAgents.byBlocks).toEqual([
      expect.objectContaining({ id: agentId, blocks: 1 }),
    ]);
    expect(response.body.topMcpServers.byVolume[0]).toMatchObject({ id: mcpId, events: 2 });
    expect(response.body.series).toHaveLength(12);
    expect(
      response.body.series.reduce((sum, point) => sum + point.total, 0),
    ).toBeGreaterThanOrEqual(6);
    expect((await reader.call(app, 'GET', '/audit/v1/dashboard?window=LAST_2H')).status).toBe(400);
  });

  it('should rank policies by the hops their own verdict blocked when the dashboard is read', async () => {
    const caller = await TestCaller.create(issuer, randomUUID(), ['AUDIT:READ']);
    const [guardrails, pii] = [randomUUID(), randomUUID()];
    const verdict = (groupId: string, groupName: string, action: string) => ({
      bindingId: randomUUID(),
      groupId,
      groupName,
      version: 1,
      action,
    });
    const hop = (action: 'BLOCK' | 'LOG', verdicts: Array<ReturnType<typeof verdict>>) =>
      auditEnvelope(
        caller.tenantId,
        'COMMUNICATION_AUDIT',
        {
          protocol: 'MCP',
          action,
          policyIds: verdicts.map((v) => v.groupId),
          details: { direction: 'REQUEST', verdicts },
        },
        { occurredAt: new Date(Date.now() - 60_000).toISOString() },
      );
    // Published as the relay does, through JetStream to the ingest consumer.
    const transport = app.get<EventTransport>(EVENT_TRANSPORT);
    for (const envelope of [
      hop('BLOCK', [verdict(guardrails, 'guardrails', 'BLOCK'), verdict(pii, 'pii', 'LOG')]),
      hop('BLOCK', [verdict(guardrails, 'guardrails', 'BLOCK'), verdict(pii, 'pii', 'BLOCK')]),
      hop('LOG', [verdict(guardrails, 'guardrails', 'LOG'), verdict(pii, 'pii', 'LOG')]),
    ]) {
      await transport.publish(envelope);
    }

    const topPolicies = await eventually(async () => {
      const response = await caller.call<{
        topPolicies: Record<'byVolume' | 'byBlocks', Array<Record<string, unknown>>>;
      }>(app, 'GET', '/audit/v1/dashboard?window=LAST_1H');
      expect(response.status).toBe(200);
      expect(response.body.topPolicies.byVolume.map((entry) => entry.events)).toEqual([3, 3]);
      return response.body.topPolicies;
    });
    expect(topPolicies.byBlocks).toEqual([
      { id: guardrails, label: 'guardrails', events: 3, blocks: 2 },
      { id: pii, label: 'pii', events: 3, blocks: 1 },
    ]);
    const other = await otherTenant.call<{ topPolicies: { byVolume: unknown[] } }>(
      app,
      'GET',
      '/audit/v1/dashboard?window=LAST_1H',
    );
    expect(JSON.stringify(other.body.topPolicies)).not.toContain(guardrails);
  });

  describe('tenant isolation', () => {
    it.each([
      [
        '/audit/v1/events',
        (body: Record<string, unknown>) => (body.items as EventItem[]).map((i) => i.id),
      ],
      [
        '/audit/v1/integrity/checkpoints',
        (body: Record<string, unknown>) => body.items as unknown[],
      ],
    ])('should show another tenant none of these events when it lists %s', async (url, pick) => {
      const response = await otherTenant.call(app, 'GET', url);
      expect(response.status).toBe(200);
      const mine = new Set(seeded.map((s) => s.id));
      expect((pick(response.body) as string[]).filter((id) => mine.has(id))).toEqual([]);
    });

    it('should answer 404 when another tenant reads an event or a trace of this one', async () => {
      expect((await otherTenant.call(app, 'GET', `/audit/v1/events/${seeded[0]?.id}`)).status).toBe(
        404,
      );
      const trace = await otherTenant.call<{ items: EventItem[] }>(
        app,
        'GET',
        `/audit/v1/traces/${correlationId}`,
      );
      expect(
        trace.body.items.map((i) => i.id).filter((id) => seeded.some((s) => s.id === id)),
      ).toEqual([]);
    });

    it('should count only its own events when another tenant verifies, exports or reads its dashboard', async () => {
      const verify = await otherTenant.call<{ checkedCount: number; verified: boolean }>(
        app,
        'GET',
        '/audit/v1/integrity/verify',
      );
      expect(verify.body).toMatchObject({ verified: true, checkedCount: 6 });
      const csv = await otherTenant.call(app, 'GET', '/audit/v1/events/export');
      expect(seeded.filter((s) => csv.text.includes(s.id))).toEqual([]);
      const dashboard = await otherTenant.call<{ total: number }>(
        app,
        'GET',
        '/audit/v1/dashboard?window=LAST_7D',
      );
      expect(dashboard.body.total).toBe(0);
    });

    it('should keep retention policies apart when two tenants read theirs', async () => {
      const theirs = await otherTenant.call<{ captureContent: boolean; updatedAt: string | null }>(
        app,
        'GET',
        '/audit/v1/retention',
      );
      expect(theirs.body).toMatchObject({ captureContent: false, updatedAt: null });
    });
  });

  describe('authentication', () => {
    it.each([
      '/audit/v1/events',
      `/audit/v1/events/${randomUUID()}`,
      `/audit/v1/traces/x`,
      '/audit/v1/events/export',
      '/audit/v1/integrity/verify',
      '/audit/v1/integrity/checkpoints',
      '/audit/v1/retention',
      '/audit/v1/dashboard',
    ])(
      'should answer 401 without a token and 403 without AUDIT:READ when %s is read',
      async (url) => {
        expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
        const stranger = await TestCaller.create(issuer, tenantId, ['TENANT:READ']);
        const forbidden = await stranger.call<{ detail: string }>(app, 'GET', url);
        expect(forbidden.status).toBe(403);
        expect(forbidden.body.detail).toContain('AUDIT:READ');
      },
    );
  });
});
