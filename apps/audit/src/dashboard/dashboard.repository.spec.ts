import { randomUUID } from 'node:crypto';
import { AuditEventType, AuditableEventData, EVENT_VERSION, EventEnvelope } from '@agp/contracts';
import { Database, createSchemaDataSource, migrate } from '@agp/database';
import { TestDatabase, createTestDatabase } from '@agp/testing';

import { auditDataSourceOptions } from '../database/data-source';
import { toAuditEvent } from '../ingest/audit-event.mapper';
import { IngestRepository } from '../ingest/ingest.repository';
import { DashboardRepository, TOP_SIZE } from './dashboard.repository';

interface Verdict {
  groupId: string;
  groupName?: string;
  action: string;
}

/** The top policies of the dashboard (A16), on a real audit schema. */
describe(DashboardRepository.name, () => {
  let testDatabase: TestDatabase;
  let database: Database;
  let sut: DashboardRepository;
  let ingest: IngestRepository;
  let seq = 0;
  const now = Date.now();
  const window = { from: new Date(now - 3_600_000), to: new Date(now + 60_000) };

  beforeAll(async () => {
    testDatabase = await createTestDatabase('audit_dashboard_repo');
    const options = auditDataSourceOptions(testDatabase.url);
    const dataSource = createSchemaDataSource({ ...options, poolSize: 2 });
    await dataSource.initialize();
    await migrate(dataSource, options.schema);
    database = new Database(dataSource, options.schema);
    sut = new DashboardRepository(database);
    ingest = new IngestRepository(database);
  });

  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
  });

  /** Stores events as the ingest does (mapper, then the same insert), minutes before now. */
  async function store(
    tenantId: string,
    events: Array<{
      type?: AuditEventType;
      data: AuditableEventData;
      minutesAgo?: number;
    }>,
  ): Promise<void> {
    const chained = events.map(({ type, data, minutesAgo }) => {
      const envelope = {
        id: randomUUID(),
        type: type ?? 'COMMUNICATION_AUDIT',
        version: EVENT_VERSION,
        occurredAt: new Date(now - (minutesAgo ?? 1) * 60_000).toISOString(),
        tenantId,
        correlationId: randomUUID(),
        data,
      } as EventEnvelope<AuditEventType, AuditableEventData>;
      seq += 1;
      return { ...toAuditEvent(envelope, new Date(), false), seq, hash: Buffer.alloc(32) };
    });
    await database.asSystem((tx) => ingest.insert(tx, chained, []));
  }

  /** A hop as the relay records it: the combined action and each binding's own verdict. */
  const hop = (action: string, verdicts: Verdict[]): AuditableEventData =>
    ({
      protocol: 'MCP',
      action,
      policyIds: verdicts.map((v) => v.groupId),
      details: { direction: 'REQUEST', verdicts },
    }) as AuditableEventData;

  const top = (tenantId: string, orderBy: 'events' | 'blocks') =>
    database.inTenant(tenantId, (tx) =>
      sut.topPolicies(tx, tenantId, window.from, window.to, orderBy),
    );

  it('should rank policy groups by the hops their own verdict blocked when hops name several groups', async () => {
    const tenantId = randomUUID();
    const [strict, lenient, quiet] = [randomUUID(), randomUUID(), randomUUID()];
    const verdict = (groupId: string, groupName: string, action: string): Verdict => ({
      groupId,
      groupName,
      action,
    });
    await store(tenantId, [
      { data: hop('BLOCK', [verdict(strict, 'strict', 'BLOCK'), verdict(quiet, 'quiet', 'LOG')]) },
      {
        data: hop('BLOCK', [
          verdict(strict, 'strict', 'BLOCK'),
          verdict(lenient, 'lenient', 'BLOCK'),
        ]),
      },
      { data: hop('LOG', [verdict(lenient, 'lenient', 'LOG'), verdict(quiet, 'quiet', 'LOG')]) },
      // Two bindings of one group on a hop: the hop counts once for it, blocked by either.
      {
        data: hop('BLOCK', [verdict(strict, 'strict', 'LOG'), verdict(strict, 'strict', 'BLOCK')]),
      },
    ]);

    const byBlocks = await top(tenantId, 'blocks');
    const byVolume = await top(tenantId, 'events');

    expect(byBlocks).toEqual([
      { id: strict, label: 'strict', events: 3, blocks: 3 },
      { id: lenient, label: 'lenient', events: 2, blocks: 1 },
    ]);
    // Ties (lenient and quiet decided two hops each) fall in id order, as in A10's lists.
    expect(byVolume[0]).toEqual({ id: strict, label: 'strict', events: 3, blocks: 3 });
    expect(byVolume.slice(1)).toEqual(
      [
        { id: lenient, label: 'lenient', events: 2, blocks: 1 },
        { id: quiet, label: 'quiet', events: 2, blocks: 0 },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
  });

  it('should count only COMMUNICATION_AUDIT verdicts inside the window when other events name policies too', async () => {
    const tenantId = randomUUID();
    const group = randomUUID();
    const blocking = hop('BLOCK', [{ groupId: group, groupName: 'guardrails', action: 'BLOCK' }]);
    await store(tenantId, [
      { data: blocking },
      // The detection event of the same hop repeats its policy ids and decision.
      { type: 'SECRET_DETECTION', data: blocking },
      { data: blocking, minutesAgo: 90 },
      { data: { action: 'BLOCK', policyIds: [group], details: { verdicts: 'not a list' } } },
      { data: { action: 'BLOCK', details: { verdicts: [{ action: 'BLOCK' }, 'x', 3] } } },
    ]);

    expect(await top(tenantId, 'blocks')).toEqual([
      { id: group, label: 'guardrails', events: 1, blocks: 1 },
    ]);
  });

  it('should name a group by its latest name and keep the list to the top ten when there are more', async () => {
    const tenantId = randomUUID();
    const renamed = randomUUID();
    const groups = Array.from({ length: TOP_SIZE + 2 }, () => randomUUID());
    await store(tenantId, [
      {
        data: hop('BLOCK', [{ groupId: renamed, groupName: 'old name', action: 'BLOCK' }]),
        minutesAgo: 30,
      },
      {
        data: hop('BLOCK', [{ groupId: renamed, groupName: 'new name', action: 'BLOCK' }]),
        minutesAgo: 2,
      },
      { data: hop('BLOCK', [{ groupId: renamed, action: 'BLOCK' }]) },
      ...groups.map((groupId) => ({ data: hop('BLOCK', [{ groupId, action: 'BLOCK' }]) })),
    ]);

    const byBlocks = await top(tenantId, 'blocks');

    expect(byBlocks).toHaveLength(TOP_SIZE);
    expect(byBlocks[0]).toEqual({ id: renamed, label: 'new name', events: 3, blocks: 3 });
    expect(byBlocks[1]?.label).toBeNull();
  });

  it('should show a tenant none of the policies of another when both have blocked hops', async () => {
    const [tenantA, tenantB] = [randomUUID(), randomUUID()];
    const [groupA, groupB] = [randomUUID(), randomUUID()];
    await store(tenantA, [{ data: hop('BLOCK', [{ groupId: groupA, action: 'BLOCK' }]) }]);
    await store(tenantB, [{ data: hop('BLOCK', [{ groupId: groupB, action: 'BLOCK' }]) }]);

    // Row-level security: in tenant A's scope, a query that names tenant B finds nothing.
    const across = await database.inTenant(tenantA, (tx) =>
      sut.topPolicies(tx, tenantB, window.from, window.to, 'events'),
    );

    expect((await top(tenantA, 'events')).map((entry) => entry.id)).toEqual([groupA]);
    expect((await top(tenantB, 'events')).map((entry) => entry.id)).toEqual([groupB]);
    expect(across).toEqual([]);
  });
});
