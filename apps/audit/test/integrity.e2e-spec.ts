import { randomUUID } from 'node:crypto';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { TestDatabase, TestTokenIssuer, createTestDatabase } from '@agp/testing';
import { compactVerify, createLocalJWKSet } from 'jose';
import { Client } from 'pg';

import { EVENT_COLUMNS, EventRow, eventOfRow, withoutHash } from '../src/events/audit-event.row';
import { IngestService } from '../src/ingest/ingest.service';
import { chainHash } from '../src/integrity/chain-hash';
import { CheckpointsService } from '../src/integrity/checkpoints.service';
import { IntegrityService } from '../src/integrity/integrity.service';
import { RetentionJobService } from '../src/retention/retention-job.service';
import { TestCaller, auditEnvelope, startAudit } from './support/audit-test-app';

const CHAIN_LENGTH = 10_000;
const CHECKPOINT_EVERY = 2_000;

/**
 * The tamper suite (issue 5): a chain of 10,000 events per case, signed checkpoints every 2,000,
 * then one kind of tampering straight in the database, as an attacker with database access would.
 */
describe('audit integrity: hash chain, signed checkpoints and verification', () => {
  let db: TestDatabase;
  let app: NestFastifyApplication;
  let issuer: TestTokenIssuer;
  let sql: Client;
  let sut: IntegrityService;

  async function buildChain(): Promise<string> {
    const tenantId = randomUUID();
    const ingest = app.get(IngestService);
    for (let start = 0; start < CHAIN_LENGTH; start += 1_000) {
      const batch = Array.from({ length: 1_000 }, (_, i) =>
        auditEnvelope(tenantId, 'COMMUNICATION_AUDIT', {
          protocol: 'MCP',
          action: i % 7 === 0 ? 'BLOCK' : 'LOG',
          actor: { type: 'AGENT', id: `agent-${i % 13}` },
          summary: `event ${start + i}`,
          details: { n: start + i, nested: { z: [1, 'two', null], a: true } },
        }),
      );
      await ingest.ingest(batch);
      if ((start + 1_000) % CHECKPOINT_EVERY === 0) {
        await app.get(CheckpointsService).createCheckpoints();
      }
    }
    return tenantId;
  }

  async function row(tenantId: string, seq: number): Promise<EventRow> {
    const result = await sql.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM audit.events WHERE tenant_id = $1 AND seq = $2`,
      [tenantId, seq],
    );
    const found = result.rows[0];
    if (!found) {
      throw new Error(`no event at ${seq}`);
    }
    return found;
  }

  /** What an attacker who knows the algorithm does to hide a change: rehash from `fromSeq` on. */
  async function recomputeFrom(tenantId: string, fromSeq: number): Promise<void> {
    let previous = (await row(tenantId, fromSeq - 1)).hash;
    const result = await sql.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM audit.events WHERE tenant_id = $1 AND seq >= $2 ORDER BY seq`,
      [tenantId, fromSeq],
    );
    const ids: string[] = [];
    const hashes: string[] = [];
    for (const stored of result.rows) {
      previous = chainHash(previous, withoutHash(eventOfRow(stored)));
      ids.push(stored.id);
      hashes.push(previous.toString('hex'));
    }
    await sql.query(
      `UPDATE audit.events e SET hash = decode(u.hash, 'hex') FROM unnest($1::uuid[], $2::text[]) AS u(id, hash) WHERE e.id = u.id`,
      [ids, hashes],
    );
    await sql.query('UPDATE audit.chain_heads SET hash = $1 WHERE tenant_id = $2', [
      previous,
      tenantId,
    ]);
  }

  beforeAll(async () => {
    db = await createTestDatabase('audit_integrity');
    issuer = await TestTokenIssuer.create();
    app = await startAudit({ databaseUrl: db.url, issuer });
    sut = app.get(IntegrityService);
    sql = new Client({ connectionString: db.url });
    await sql.connect();
  });

  afterAll(async () => {
    await sql?.end();
    await app?.close();
    await db?.drop();
  });

  it('should verify every event when the chain is untouched', async () => {
    const tenantId = await buildChain();
    const result = await sut.verify(tenantId);
    expect(result).toEqual({
      verified: true,
      checkedCount: CHAIN_LENGTH,
      firstBrokenEventId: null,
      reason: null,
      checkpointsChecked: 5,
    });
  });

  it('should verify events whose text COPY escapes (tabs, line breaks, backslashes) and non-ASCII, read in segments', async () => {
    const tenantId = randomUUID();
    const events = Array.from({ length: 3_000 }, (_, i) =>
      auditEnvelope(tenantId, 'COMMUNICATION_AUDIT', {
        protocol: 'MCP',
        action: 'LOG',
        actor: { type: 'AGENT', id: `agent\t${i}`, label: 'Zürich 🎉 \\N' },
        sink: { type: 'MCP_SERVER', id: 'a\\b', label: 'line\nbreak\r' },
        summary: `call ${i}\t"quoted"\\`,
        details: { text: 'tab\there', nested: { '10': [1.5, null], '2': '\u0001' } },
      }),
    );
    await app.get(IngestService).ingest(events);
    expect(await sut.verify(tenantId)).toEqual({
      verified: true,
      checkedCount: 3_000,
      firstBrokenEventId: null,
      reason: null,
      checkpointsChecked: 0,
    });
    const target = await row(tenantId, 2_999);
    await sql.query(`UPDATE audit.events SET actor_label = 'Zurich' WHERE id = $1`, [target.id]);
    expect(await sut.verify(tenantId)).toMatchObject({
      verified: false,
      firstBrokenEventId: target.id,
      reason: 'HASH_MISMATCH',
      checkedCount: 2_999,
    });
  });

  it('should name the event when one field of it was modified', async () => {
    const tenantId = await buildChain();
    const target = await row(tenantId, 5_000);
    await sql.query(`UPDATE audit.events SET summary = 'nothing to see' WHERE id = $1`, [
      target.id,
    ]);
    expect(await sut.verify(tenantId)).toMatchObject({
      verified: false,
      firstBrokenEventId: target.id,
      reason: 'HASH_MISMATCH',
      checkedCount: 5_000,
    });
  });

  it('should name the next event when an event was deleted', async () => {
    const tenantId = await buildChain();
    const next = await row(tenantId, 4_001);
    await sql.query('DELETE FROM audit.events WHERE tenant_id = $1 AND seq = 4000', [tenantId]);
    expect(await sut.verify(tenantId)).toMatchObject({
      verified: false,
      firstBrokenEventId: next.id,
      reason: 'SEQUENCE_GAP',
    });
  });

  it('should name the displaced event when a forged event was inserted with a correct hash of its own', async () => {
    const tenantId = await buildChain();
    const displaced = await row(tenantId, 3_001);
    const before = await row(tenantId, 3_000);
    await sql.query('UPDATE audit.events SET seq = seq + 1 WHERE tenant_id = $1 AND seq > 3000', [
      tenantId,
    ]);
    const forged = { ...eventOfRow(before), id: randomUUID(), seq: 3_001, summary: 'forged' };
    const hash = chainHash(before.hash, withoutHash(forged));
    await sql.query(
      `INSERT INTO audit.events (id, tenant_id, family, seq, occurred_at, recorded_at, event_type, protocol, action, actor_type, actor_id,
         policy_ids, correlation_id, summary, details, hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, '{}', $12, $13, $14, $15)`,
      [
        forged.id,
        tenantId,
        forged.family,
        forged.seq,
        forged.occurredAt,
        forged.recordedAt,
        forged.eventType,
        forged.protocol,
        forged.action,
        forged.actor?.type,
        forged.actor?.id,
        forged.correlationId,
        forged.summary,
        JSON.stringify(forged.details),
        hash,
      ],
    );
    expect(await sut.verify(tenantId)).toMatchObject({
      verified: false,
      firstBrokenEventId: displaced.id,
      reason: 'HASH_MISMATCH',
    });
  });

  it('should detect two swapped events when their places in the chain were exchanged', async () => {
    const tenantId = await buildChain();
    const first = await row(tenantId, 6_000);
    const second = await row(tenantId, 6_001);
    await sql.query(
      'UPDATE audit.events SET seq = CASE WHEN id = $1 THEN 6001 ELSE 6000 END WHERE id IN ($1, $2)',
      [first.id, second.id],
    );
    expect(await sut.verify(tenantId)).toMatchObject({
      verified: false,
      firstBrokenEventId: second.id,
      reason: 'HASH_MISMATCH',
    });
  });

  it('should detect a truncated tail when the last events were deleted, even with the head rewound to match', async () => {
    const tenantId = await buildChain();
    const last = await row(tenantId, 9_500);
    await sql.query('DELETE FROM audit.events WHERE tenant_id = $1 AND seq > 9500', [tenantId]);
    expect(await sut.verify(tenantId)).toMatchObject({
      verified: false,
      firstBrokenEventId: last.id,
      reason: 'TRUNCATED',
    });
    await sql.query('UPDATE audit.chain_heads SET seq = 9500, hash = $1 WHERE tenant_id = $2', [
      last.hash,
      tenantId,
    ]);
    expect(await sut.verify(tenantId)).toMatchObject({ verified: false, reason: 'TRUNCATED' });
  });

  it('should detect a whole chain removed when its events and its head were deleted', async () => {
    const tenantId = await buildChain();
    await sql.query('DELETE FROM audit.events WHERE tenant_id = $1', [tenantId]);
    await sql.query('DELETE FROM audit.chain_heads WHERE tenant_id = $1', [tenantId]);
    expect(await sut.verify(tenantId)).toMatchObject({
      verified: false,
      reason: 'TRUNCATED',
      checkedCount: 0,
    });
  });

  it('should detect a modification when the whole chain after it was recomputed, through the signed checkpoints', async () => {
    const tenantId = await buildChain();
    await sql.query(
      `UPDATE audit.events SET summary = 'rewritten' WHERE tenant_id = $1 AND seq = 5000`,
      [tenantId],
    );
    await recomputeFrom(tenantId, 5_000);
    const atCheckpoint = await row(tenantId, 6_000);
    expect(await sut.verify(tenantId)).toMatchObject({
      verified: false,
      firstBrokenEventId: atCheckpoint.id,
      reason: 'CHECKPOINT_MISMATCH',
    });
  });

  it('should refuse a checkpoint whose committed heads were edited in the database', async () => {
    const tenantId = await buildChain();
    await sql.query(
      `UPDATE audit.checkpoints SET heads = jsonb_set(heads, '{0,hash}', to_jsonb(repeat('0', 64))) WHERE tenant_id = $1
       AND created_at = (SELECT max(created_at) FROM audit.checkpoints WHERE tenant_id = $1)`,
      [tenantId],
    );
    expect(await sut.verify(tenantId)).toMatchObject({
      verified: false,
      reason: 'CHECKPOINT_SIGNATURE_INVALID',
    });
  });

  it('should still verify what remains when retention removed a prefix, anchored at a checkpoint', async () => {
    const tenantId = await buildChain();
    // Make every checkpoint but the last old enough for a 1-day policy.
    await sql.query(
      `UPDATE audit.checkpoints SET created_at = created_at - interval '3 days' WHERE tenant_id = $1
       AND created_at < (SELECT max(created_at) FROM audit.checkpoints WHERE tenant_id = $1)`,
      [tenantId],
    );
    await sql.query(
      `INSERT INTO audit.retention_policies (tenant_id, days) VALUES ($1, '{"TRAFFIC": 1}')`,
      [tenantId],
    );
    const run = await app.get(RetentionJobService).runOnce();
    expect(run?.removedEvents).toBeGreaterThan(0);
    const remaining = await sql.query<{ count: string }>(
      'SELECT count(*) FROM audit.events WHERE tenant_id = $1',
      [tenantId],
    );
    expect(Number(remaining.rows[0]?.count)).toBe(CHAIN_LENGTH - 8_000);
    expect(await sut.verify(tenantId)).toMatchObject({ verified: true, checkedCount: 2_000 });
    const first = await row(tenantId, 8_001);
    await sql.query('DELETE FROM audit.events WHERE id = $1', [first.id]);
    expect(await sut.verify(tenantId)).toMatchObject({ verified: false, reason: 'SEQUENCE_GAP' });
  });

  it('should verify a window and publish checkpoints an auditor can check with the published key', async () => {
    const tenantId = await buildChain();
    const caller = await TestCaller.create(issuer, tenantId, ['AUDIT:READ']);
    const from = (await row(tenantId, 2_001)).recorded_at;
    const to = (await row(tenantId, 4_001)).recorded_at;
    const window = await caller.call<{ verified: boolean; checkedCount: number }>(
      app,
      'GET',
      `/audit/v1/integrity/verify?from=${from}&to=${to}`,
    );
    expect(window.status).toBe(200);
    expect(window.body.verified).toBe(true);
    expect(window.body.checkedCount).toBeGreaterThanOrEqual(1_000);
    expect(window.body.checkedCount).toBeLessThan(CHAIN_LENGTH);
    const page = await caller.call<{
      items: Array<{ jws: string; heads: unknown; tenantId: string }>;
    }>(app, 'GET', '/audit/v1/integrity/checkpoints?pageSize=100');
    expect(page.body.items).toHaveLength(5);
    const jwks = await app.inject({ method: 'GET', url: '/audit/v1/integrity/keys' });
    expect(jwks.statusCode).toBe(200);
    const keys = createLocalJWKSet(jwks.json());
    for (const checkpoint of page.body.items) {
      const { payload } = await compactVerify(checkpoint.jws, keys);
      const signed = JSON.parse(new TextDecoder().decode(payload)) as {
        tenantId: string;
        heads: unknown;
      };
      expect(signed).toMatchObject({ tenantId, heads: checkpoint.heads });
    }
    const bad = await caller.call(app, 'GET', '/audit/v1/integrity/verify?from=soon');
    expect(bad.status).toBe(400);
  });
});
