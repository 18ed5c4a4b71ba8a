import { randomUUID } from 'node:crypto';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Database, findTablesWithoutForcedRls } from '@agp/database';
import { TestDatabase, TestTokenIssuer, createTestDatabase } from '@agp/testing';

import { AUDIT_DATABASE } from '../src/database/tokens';
import { EventPartitionsService } from '../src/events/event-partitions.service';
import { addDays, dayStart, partitionName } from '../src/events/partitions';
import { IngestService } from '../src/ingest/ingest.service';
import { CheckpointsService } from '../src/integrity/checkpoints.service';
import { IntegrityService } from '../src/integrity/integrity.service';
import { RetentionJobService } from '../src/retention/retention-job.service';
import { auditEnvelope, startAudit } from './support/audit-test-app';

describe('audit retention and partitions', () => {
  let db: TestDatabase;
  let app: NestFastifyApplication;
  let database: Database;

  beforeAll(async () => {
    db = await createTestDatabase('audit_retention');
    app = await startAudit({ databaseUrl: db.url, issuer: await TestTokenIssuer.create() });
    database = app.get<Database>(AUDIT_DATABASE);
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('should create a guarded partition on demand when an event falls on a day without one', async () => {
    const envelope = auditEnvelope(
      randomUUID(),
      'HITL',
      {},
      { occurredAt: '2020-05-17T10:00:00.000Z' },
    );
    await app.get(IngestService).ingest([envelope]);
    const names = await app.get(EventPartitionsService).names();
    expect(names).toContain('events_p20200517');
    expect(await findTablesWithoutForcedRls(database.dataSource, ['audit'])).toEqual([]);
  });

  it('should create partitions ahead and drop past ones that retention emptied when the job runs', async () => {
    const tenantId = randomUUID();
    const old = new Date(Date.now() - 40 * 86_400_000);
    await app
      .get(IngestService)
      .ingest([
        auditEnvelope(
          tenantId,
          'COMMUNICATION_AUDIT',
          { summary: 'old' },
          { occurredAt: old.toISOString() },
        ),
      ]);
    await app.get(CheckpointsService).createCheckpoints(new Date(Date.now() - 35 * 86_400_000));
    await app
      .get(IngestService)
      .ingest([auditEnvelope(tenantId, 'COMMUNICATION_AUDIT', { summary: 'recent' })]);
    await database.asSystem((tx) =>
      tx.query(
        `INSERT INTO audit.retention_policies (tenant_id, days) VALUES ($1, '{"TRAFFIC": 30}')`,
        [tenantId],
      ),
    );

    const run = await app.get(RetentionJobService).runOnce();

    expect(run?.removedEvents).toBe(1);
    expect(run?.droppedPartitions).toContain(partitionName(dayStart(old)));
    const names = await app.get(EventPartitionsService).names();
    expect(names).toContain(partitionName(addDays(dayStart(new Date()), 7)));
    expect(names).not.toContain(partitionName(dayStart(old)));
    expect(await app.get(IntegrityService).verify(tenantId)).toMatchObject({
      verified: true,
      checkedCount: 1,
    });
  });

  it('should prune the conversation index with the hops retention removes (CV16)', async () => {
    const tenantId = randomUUID();
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
    const hop = (keys: string[], occurredAt?: string) =>
      auditEnvelope(
        tenantId,
        'COMMUNICATION_AUDIT',
        {
          actor: { type: 'AGENT', id: 'agent-1' },
          source: { type: 'AGENT', id: 'agent-1' },
          sink: { type: 'AGENT', id: 'agent-2' },
          protocol: 'JSONRPC',
          action: 'LOG',
          details: { direction: 'REQUEST', conversationKeys: keys },
        },
        occurredAt ? { occurredAt } : {},
      );
    await app.get(IngestService).ingest([hop(['ctx:kept'], old), hop(['ctx:gone'], old)]);
    await app.get(CheckpointsService).createCheckpoints(new Date(Date.now() - 35 * 86_400_000));
    await app.get(IngestService).ingest([hop(['ctx:kept'])]);
    await database.asSystem((tx) =>
      tx.query(
        `INSERT INTO audit.retention_policies (tenant_id, days) VALUES ($1, '{"TRAFFIC": 30}')`,
        [tenantId],
      ),
    );
    const index = () =>
      database.asSystem(async (tx) => ({
        conversations: await tx.query<Array<{ key: string; hop_count: number; started_at: Date }>>(
          `SELECT key, hop_count, started_at FROM audit.conversations WHERE tenant_id = $1 ORDER BY key`,
          [tenantId],
        ),
        keys: await tx.query<Array<{ key: string }>>(
          `SELECT key FROM audit.conversation_keys WHERE tenant_id = $1 ORDER BY key`,
          [tenantId],
        ),
        parties: await tx.query<Array<{ n: number }>>(
          `SELECT count(*)::int AS n FROM audit.conversation_parties WHERE tenant_id = $1`,
          [tenantId],
        ),
        hops: await tx.query<Array<{ n: number }>>(
          `SELECT count(*)::int AS n FROM audit.conversation_hops WHERE tenant_id = $1`,
          [tenantId],
        ),
      }));
    expect((await index()).hops[0].n).toBe(3);

    const run = await app.get(RetentionJobService).runOnce();
    const after = await index();

    expect(run.prunedConversationHops).toBe(2);
    expect(run.removedConversations).toBe(1);
    expect(after.hops[0].n).toBe(1);
    expect(after.keys.map((k) => k.key)).toEqual(['ctx:kept']);
    expect(after.conversations).toEqual([
      { key: 'kept', hop_count: 1, started_at: expect.any(Date) as Date },
    ]);
    expect(after.conversations[0].started_at.getTime()).toBeGreaterThan(Date.parse(old));
    expect(after.parties[0].n).toBe(2);
  });
});
