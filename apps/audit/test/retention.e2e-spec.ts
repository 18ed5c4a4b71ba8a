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
});
