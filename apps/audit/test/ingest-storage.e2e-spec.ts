import { randomUUID } from 'node:crypto';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AuditableEventData } from '@agp/contracts';
import { PoisonMessageError } from '@agp/messaging';
import { TestDatabase, TestTokenIssuer, createTestDatabase } from '@agp/testing';
import { Client } from 'pg';

import { EVENT_COLUMNS, EventRow, eventOfRow, withoutHash } from '../src/events/audit-event.row';
import { EventPartitionsService } from '../src/events/event-partitions.service';
import { dayStart, partitionName } from '../src/events/partitions';
import { COPY_MIN_BATCH } from '../src/ingest/ingest.repository';
import { IngestService } from '../src/ingest/ingest.service';
import { IngestedEvents } from '../src/ingest/ingested-events';
import { canonicalEvent } from '../src/integrity/chain-hash';
import { IntegrityService } from '../src/integrity/integrity.service';
import { auditEnvelope, startAudit } from './support/audit-test-app';

/** Text that COPY's format must escape, JSON must quote, or UTF-8 must encode in several bytes. */
function awkward(i: number): AuditableEventData {
  return {
    protocol: 'MCP',
    action: 'MASK',
    actor: { type: 'AGENT', id: `agent\t${i}`, label: 'Zürich 🎉 \\N \\. end' },
    source: { type: 'USER', id: '\\x00ff' },
    sink: { type: 'MCP_SERVER', id: 'a\\b', label: 'line\nbreak\r\n' },
    policyIds: [randomUUID(), randomUUID()],
    summary: `call ${i}\t"quoted", 'single' \\ \u2028 \u0001`,
    details: {
      text: 'tab\there',
      backslash: '\\"',
      nested: { '10': [1.5, null, -0, 1e21], '2': '\u0001' },
      empty: {},
    },
    decision: { reasons: ['a\nb'], masks: [{ path: '$.x\t', pattern: '\\d+' }] },
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    content: 'secret\r\n\\',
  };
}

async function until(isDone: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; !(await isDone()); tries += 1) {
    if (tries > 500) {
      throw new Error('gave up waiting');
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The ingest writes a batch with COPY and a few events with one INSERT (A1): both must store the
 * very fields that were hashed, whatever the text holds.
 */
describe('audit ingest storage', () => {
  let db: TestDatabase;
  let app: NestFastifyApplication;
  let sql: Client;

  beforeAll(async () => {
    db = await createTestDatabase('audit_ingest_storage');
    app = await startAudit({ databaseUrl: db.url, issuer: await TestTokenIssuer.create() });
    sql = new Client({ connectionString: db.url });
    await sql.connect();
  });

  afterAll(async () => {
    await sql?.end();
    await app?.close();
    await db?.drop();
  });

  async function stored(tenantId: string): Promise<EventRow[]> {
    const result = await sql.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM audit.events WHERE tenant_id = $1 ORDER BY seq`,
      [tenantId],
    );
    return result.rows;
  }

  it('should store the same fields through COPY and through INSERT when the text is awkward', async () => {
    const tenantId = randomUUID();
    await sql.query(
      `INSERT INTO audit.retention_policies (tenant_id, days, capture_content) VALUES ($1, '{}', true)`,
      [tenantId],
    );
    const single = auditEnvelope(tenantId, 'COMMUNICATION_AUDIT', awkward(0));
    const batch = Array.from({ length: COPY_MIN_BATCH }, (_, i) =>
      auditEnvelope(tenantId, 'COMMUNICATION_AUDIT', awkward(i + 1)),
    );
    await app.get(IngestService).ingest([single]);
    await app.get(IngestService).ingest(batch);

    const rows = await stored(tenantId);
    expect(rows).toHaveLength(COPY_MIN_BATCH + 1);
    // Apart from what differs by construction, an event stored by COPY reads back as the one stored by INSERT.
    const comparable = (row: EventRow): Record<string, unknown> => {
      const {
        id: _id,
        seq: _seq,
        hash: _hash,
        occurred_at: _o,
        recorded_at: _r,
        correlation_id: _c,
        summary,
        actor_id: _a,
        policy_ids: policies,
        ...rest
      } = row;
      return {
        ...rest,
        summary: summary?.replace(/call \d+/, 'call N'),
        policyCount: policies.split(',').length,
      };
    };
    const [byInsert, byCopy] = [rows[0], rows[1]];
    expect(byInsert && comparable(byInsert)).toEqual(byCopy && comparable(byCopy));
    expect(byCopy?.actor_label).toBe('Zürich 🎉 \\N \\. end');
    expect(byCopy?.sink_name).toBe('line\nbreak\r\n');
    expect(byCopy?.content).toBe('secret\r\n\\');
    expect(byCopy?.details).toEqual({
      text: 'tab\there',
      backslash: '\\"',
      nested: { '10': [1.5, null, 0, 1e21], '2': '\u0001' },
      empty: {},
    });
    // Every stored event hashes back to its stored hash: the chain verifies.
    expect(await app.get(IntegrityService).verify(tenantId)).toMatchObject({
      verified: true,
      checkedCount: COPY_MIN_BATCH + 1,
    });
    expect(
      rows
        .map((row) => canonicalEvent(withoutHash(eventOfRow(row))))
        .every((text) => text.includes('Zürich')),
    ).toBe(true);
  });

  it('should store a batch of hops with every observer in 8 statements when its statements are folded (A52–A56)', async () => {
    const tenantId = randomUUID();
    const [agent, server] = [randomUUID(), randomUUID()];
    const batch = [0, 1, 2].map((i) =>
      auditEnvelope(tenantId, 'COMMUNICATION_AUDIT', {
        protocol: 'MCP',
        action: 'LOG',
        actor: { type: 'AGENT', id: agent },
        source: { type: 'AGENT', id: agent },
        sink: { type: 'MCP_SERVER', id: server },
        summary: `hop ${i}`,
        details: { direction: 'REQUEST', conversationKeys: [`mcp:${tenantId}:${i}`] },
      }),
    );
    // Warm: the partition of the day and the session's kind are learnt outside the transaction.
    await app.get(IngestService).ingest([auditEnvelope(tenantId, 'COMMUNICATION_AUDIT')]);
    const sent = new Map<Client, string[]>();
    const original = Client.prototype.query;
    // Calls through: only the texts each session sends are noted.
    const query = jest.spyOn(Client.prototype, 'query').mockImplementation(function (
      this: Client,
      ...args: unknown[]
    ) {
      const first = args[0] as string | { text?: string };
      const text = typeof first === 'string' ? first : (first?.text ?? 'COPY');
      sent.set(this, [...(sent.get(this) ?? []), text.replace(/\s+/g, ' ')]);
      return (original as (...a: unknown[]) => unknown).apply(this, args) as never;
    });
    let statements: string[] = [];
    try {
      await app.get(IngestService).ingest(batch);
      // The ingest's transaction is the session that wrote the events.
      statements =
        [...sent.values()].find((texts) =>
          texts.some((t) => t.includes('INSERT INTO audit.events')),
        ) ?? [];
    } finally {
      query.mockRestore();
    }

    // Were 21: BEGIN, the scope, four to open the batch, the events, the heads, a savepoint and
    // a release around each of three observers, two rollup upserts, three for the conversations,
    // COMMIT.
    expect(statements[0]).toMatch(/^START TRANSACTION/);
    expect(statements[statements.length - 1]).toBe('COMMIT');
    expect(statements.length).toBeLessThanOrEqual(8);
    expect(statements.filter((t) => t.includes('SAVEPOINT'))).toEqual([]);
    expect(await stored(tenantId)).toHaveLength(4);
    const conversations = await sql.query(
      `SELECT count(*)::int AS n FROM audit.conversation_hops WHERE tenant_id = $1`,
      [tenantId],
    );
    expect(conversations.rows[0]?.n).toBe(3);
  });

  it('should store an event once when two replicas ingest the same batch at the same time (A52)', async () => {
    const tenantId = randomUUID();
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let isHolding = false;
    // Holds the first transaction, with its chain head locked, until the second waits for it.
    app.get(IngestedEvents).observe(
      'test-holding-observer',
      async () => {
        if (!isHolding) {
          isHolding = true;
          await held;
        }
      },
      (envelope) => envelope.tenantId === tenantId,
    );
    const batch = [0, 1, 2].map((i) =>
      auditEnvelope(tenantId, 'COMMUNICATION_AUDIT', { summary: `event ${i}` }),
    );
    const first = app.get(IngestService).ingest(batch);
    await until(async () => isHolding);
    const second = app.get(IngestService).ingest(batch);
    await until(async () => {
      const waiting = await sql.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE wait_event_type = 'Lock' AND query LIKE '%chain_heads%' AND datname = current_database()`,
      );
      return waiting.rows[0]?.n === 1;
    });
    release();

    expect(await Promise.all([first, second])).toEqual([3, 0]);
    expect((await stored(tenantId)).map((row) => row.summary)).toEqual([
      'event 0',
      'event 1',
      'event 2',
    ]);
    expect(await app.get(IntegrityService).verify(tenantId)).toMatchObject({ verified: true });
  });

  it('should store the events without what an observer derives when the observer fails, and retry when the failure is transient', async () => {
    const tenantId = randomUUID();
    let failure: Error | undefined;
    const seen: string[] = [];
    app.get(IngestedEvents).observe('test-observer', async (tx, envelopes) => {
      await tx.query(`CREATE TEMP TABLE IF NOT EXISTS observed (id uuid)`);
      await tx.query(`INSERT INTO observed SELECT unnest($1::uuid[])`, [
        envelopes.map((e) => e.id),
      ]);
      if (failure) {
        throw failure;
      }
      seen.push(...envelopes.map((e) => e.id));
    });
    const [first, second, third] = [0, 1, 2].map((i) =>
      auditEnvelope(tenantId, 'COMMUNICATION_AUDIT', { summary: `event ${i}` }),
    );
    failure = new TypeError('a bug in the observer');
    await app.get(IngestService).ingest([first]);
    failure = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    await expect(app.get(IngestService).ingest([second])).rejects.toThrow('deadlock detected');
    failure = undefined;
    await app.get(IngestService).ingest([second, third, first]);

    expect((await stored(tenantId)).map((row) => row.summary)).toEqual([
      'event 0',
      'event 1',
      'event 2',
    ]);
    // The observer saw each stored event once: the first while failing (rolled back), the others after.
    expect(seen).toEqual([second?.id, third?.id]);
    failure = new TypeError('keep failing');
  });

  it('should fail the batch, not skip the observer, when the connection is lost inside an observer (A57)', async () => {
    const tenantId = randomUUID();
    let dropConnection = true;
    const seen: string[] = [];
    app.get(IngestedEvents).observe(
      'connection-observer',
      async (tx, envelopes) => {
        if (dropConnection) {
          dropConnection = false;
          // The socket goes away mid-transaction: pg answers without a SQLSTATE.
          const connection = (
            tx.queryRunner as unknown as {
              databaseConnection: { connection: { stream: { destroy(): void } } };
            }
          ).databaseConnection.connection;
          connection.stream.destroy();
          await tx.query('SELECT 1');
        }
        seen.push(...envelopes.map((e) => e.id));
      },
      (envelope) => envelope.tenantId === tenantId,
    );
    const event = auditEnvelope(tenantId, 'COMMUNICATION_AUDIT', { summary: 'event 0' });
    await expect(app.get(IngestService).ingest([event])).rejects.toThrow();
    expect(await stored(tenantId)).toEqual([]);
    // Delivered again: stored, and the observer's work with it.
    await app.get(IngestService).ingest([event]);
    expect((await stored(tenantId)).map((row) => row.summary)).toEqual(['event 0']);
    expect(seen).toEqual([event.id]);
  });

  it('should hand an observer of some types only those, and not call it for a batch without one (A29)', async () => {
    const tenantId = randomUUID();
    const heard: string[][] = [];
    app.get(IngestedEvents).observe(
      'test-typed-observer',
      async (_tx, envelopes) => {
        heard.push(envelopes.filter((e) => e.tenantId === tenantId).map((e) => e.type));
      },
      ['MCP_LIFECYCLE'],
    );
    const traffic = auditEnvelope(tenantId, 'COMMUNICATION_AUDIT', { summary: 'a hop' });
    const lifecycle = auditEnvelope(tenantId, 'MCP_LIFECYCLE', { summary: 'a tool changed' });
    await app.get(IngestService).ingest([traffic, lifecycle]);
    await app.get(IngestService).ingest([auditEnvelope(tenantId, 'COMMUNICATION_AUDIT')]);

    expect(heard).toEqual([['MCP_LIFECYCLE']]);
    // Every event is stored, whoever observes it (two families: no order between them).
    expect(await stored(tenantId)).toHaveLength(3);
  });

  it('should hand an observer with a test of events only those it accepts, and skip a batch of none (A32)', async () => {
    const tenantId = randomUUID();
    const heard: string[][] = [];
    app.get(IngestedEvents).observe(
      'test-tested-observer',
      async (_tx, envelopes) => {
        heard.push(envelopes.filter((e) => e.tenantId === tenantId).map((e) => e.data.summary!));
      },
      (envelope) => envelope.tenantId === tenantId && envelope.data.summary === 'kept',
    );
    const kept = auditEnvelope(tenantId, 'COMMUNICATION_AUDIT', { summary: 'kept' });
    const other = auditEnvelope(tenantId, 'COMMUNICATION_AUDIT', { summary: 'other' });
    await app.get(IngestService).ingest([kept, other]);
    await app.get(IngestService).ingest([auditEnvelope(tenantId, 'COMMUNICATION_AUDIT')]);

    expect(heard).toEqual([['kept']]);
    expect(await stored(tenantId)).toHaveLength(3);
  });

  it('should store a late event when another replica dropped the partition of its day meanwhile', async () => {
    const tenantId = randomUUID();
    const day = dayStart(new Date(Date.now() - 5 * 86_400_000));
    await app.get(EventPartitionsService).ensureDays([day]);
    await sql.query(`DROP TABLE audit.${partitionName(day)}`);
    const late = auditEnvelope(
      tenantId,
      'COMMUNICATION_AUDIT',
      { summary: 'late' },
      { occurredAt: new Date(day.getTime() + 3_600_000).toISOString() },
    );
    await app.get(IngestService).ingest([late]);
    expect((await stored(tenantId)).map((row) => row.summary)).toEqual(['late']);
  });

  it('should refuse as poison, storing nothing, an event whose text has a lone surrogate', async () => {
    const tenantId = randomUUID();
    const batch = Array.from({ length: COPY_MIN_BATCH }, (_, i) =>
      auditEnvelope(tenantId, 'COMMUNICATION_AUDIT', { summary: `call ${i}` }),
    );
    const broken = auditEnvelope(
      tenantId,
      'COMMUNICATION_AUDIT',
      JSON.parse('{"summary":"half \\ud83c of an emoji"}') as AuditableEventData,
    );
    await expect(app.get(IngestService).ingest([...batch, broken])).rejects.toThrow(
      PoisonMessageError,
    );
    await expect(app.get(IngestService).ingest([broken])).rejects.toThrow(broken.id);
    expect(await stored(tenantId)).toEqual([]);
    // The batch without it goes in whole.
    await app.get(IngestService).ingest(batch);
    expect(await stored(tenantId)).toHaveLength(COPY_MIN_BATCH);
  });
});
