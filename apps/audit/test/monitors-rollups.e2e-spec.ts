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

import { auditEnvelope, startAudit } from './support/audit-test-app';
import { RollupsRepository } from '../src/monitors/rollups/rollups.repository';
import { databaseOf } from './monitors-test-kit';

describe('monitor rollups, kept by the ingest (M16)', () => {
  let db: TestDatabase;
  let app: NestFastifyApplication;
  let prefix: string;
  const tenantId = randomUUID();
  const agentId = randomUUID();
  const mcpId = randomUUID();
  const policyId = randomUUID();

  beforeAll(async () => {
    db = await createTestDatabase('monitors_rollups');
    prefix = uniqueNatsPrefix('monroll');
    app = await startAudit({ databaseUrl: db.url, prefix, issuer: await TestTokenIssuer.create() });
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
    await deleteNatsStreams(prefix, TEST_NATS_URL);
  });

  async function counts(): Promise<Record<string, number>> {
    const rows: Array<{ key: string; total: number }> = await databaseOf(app).asSystem((tx) =>
      tx.query(
        `SELECT subject_type || ':' || metric AS key, sum(total)::int AS total FROM audit.monitor_rollups
         WHERE tenant_id = $1 GROUP BY 1`,
        [tenantId],
      ),
    );
    return Object.fromEntries(rows.map((r) => [r.key, r.total]));
  }

  it('should count a traffic event once per minute and subject when it arrives twice over JetStream', async () => {
    const envelope = auditEnvelope(
      tenantId,
      'COMMUNICATION_AUDIT',
      {
        protocol: 'MCP',
        action: 'BLOCK',
        policyIds: [policyId],
        source: { type: 'AGENT', id: agentId },
        sink: { type: 'MCP_SERVER', id: mcpId },
        details: { toolName: 'delete_repo' },
      },
      { occurredAt: '2026-01-07T10:15:30.000Z' },
    );
    const transport = app.get<EventTransport>(EVENT_TRANSPORT);
    await transport.publish(envelope);
    await transport.publish({ ...envelope });
    await transport.publish(
      auditEnvelope(
        tenantId,
        'LLM_GATEWAY_FAILOVER',
        { details: { llmGatewayId: randomUUID() } },
        { occurredAt: '2026-01-07T10:16:00.000Z' },
      ),
    );
    // Events are stored in no set order (concurrent batches): wait for every count, each exactly
    // one, so a duplicate counted twice never settles.
    await eventually(async () => {
      expect(await counts()).toEqual({
        'TENANT:REQUESTS': 1,
        'TENANT:BLOCKS': 1,
        'TENANT:TOOL_CALLS': 1,
        'TENANT:LLM_FAILOVERS': 1,
        'POLICY:INVOCATIONS': 1,
        'POLICY:BLOCKS': 1,
        'AGENT:REQUESTS': 1,
        'MCP_SERVER:REQUESTS': 1,
        'MCP_SERVER:TOOL_CALLS': 1,
        'LLM_GATEWAY:LLM_FAILOVERS': 1,
      });
    });
    const running: Array<{ running: number[] }> = await databaseOf(app).asSystem((tx) =>
      tx.query(
        `SELECT running FROM audit.monitor_rollups WHERE tenant_id = $1 AND subject_type = 'AGENT'`,
        [tenantId],
      ),
    );
    expect(running[0]?.running.slice(13, 17)).toEqual([0, 0, 1, 1]);
  });

  it('should record when a tool was first and last seen when it is called', async () => {
    const tools: Array<{
      key: string;
      firstSeenAt: Date;
      gapMinutes: number | null;
      count: number;
    }> = await eventually(async () => {
      const rows: Array<{
        key: string;
        firstSeenAt: Date;
        gapMinutes: number | null;
        count: number;
      }> = await databaseOf(app).asSystem((tx) =>
        tx.query(
          `SELECT key, first_seen_at AS "firstSeenAt", gap_minutes AS "gapMinutes", count_since_reappeared AS count
             FROM audit.monitor_sightings WHERE tenant_id = $1 AND observation = 'TOOL_CALL'`,
          [tenantId],
        ),
      );
      expect(rows).toHaveLength(1);
      return rows;
    });
    expect(tools[0]).toEqual({
      key: 'delete_repo',
      firstSeenAt: new Date('2026-01-07T10:15:30.000Z'),
      gapMinutes: null,
      count: 1,
    });
  });

  it('should note the silence when a subject comes back after a long gap', async () => {
    const transport = app.get<EventTransport>(EVENT_TRANSPORT);
    await transport.publish(
      auditEnvelope(
        tenantId,
        'COMMUNICATION_AUDIT',
        { source: { type: 'AGENT', id: agentId } },
        { occurredAt: '2026-01-17T10:15:30.000Z' },
      ),
    );
    const row = await eventually(async () => {
      const rows: Array<{ gapMinutes: number | null; reappearedAt: Date }> = await databaseOf(
        app,
      ).asSystem((tx) =>
        tx.query(
          `SELECT gap_minutes AS "gapMinutes", reappeared_at AS "reappearedAt" FROM audit.monitor_sightings
           WHERE tenant_id = $1 AND observation = 'ACTIVITY' AND subject_type = 'AGENT'`,
          [tenantId],
        ),
      );
      expect(rows[0]?.gapMinutes).toBe(10 * 1_440);
      return rows[0];
    });
    expect(row?.reappearedAt).toEqual(new Date('2026-01-17T10:15:30.000Z'));
  });

  describe('sightings that arrive older than what is stored (M39)', () => {
    const HOUR = 3_600_000;
    const DAY = 24 * HOUR;
    const now = new Date('2026-03-10T12:00:00.000Z').getTime();

    interface Streak {
      firstSeenAt: Date;
      lastSeenAt: Date;
      reappearedAt: Date;
      gapMinutes: number | null;
      count: number;
    }

    /** One batch of an agent's activity, each time once, as one ingest transaction adds it. */
    async function see(agent: string, times: number[]): Promise<void> {
      await databaseOf(app).inTenant(tenantId, (tx) =>
        app.get(RollupsRepository).addSightings(
          tx,
          tenantId,
          times.map((t) => ({
            observation: 'ACTIVITY' as const,
            subjectType: 'AGENT' as const,
            subjectId: agent,
            key: '',
            at: new Date(t),
          })),
        ),
      );
    }

    async function streakOf(agent: string): Promise<Streak> {
      const rows: Streak[] = await databaseOf(app).asSystem((tx) =>
        tx.query(
          `SELECT first_seen_at AS "firstSeenAt", last_seen_at AS "lastSeenAt", reappeared_at AS "reappearedAt",
                  gap_minutes AS "gapMinutes", count_since_reappeared AS count
             FROM audit.monitor_sightings
            WHERE tenant_id = $1 AND observation = 'ACTIVITY' AND subject_id = $2`,
          [tenantId, agent],
        ),
      );
      return rows[0];
    }

    const minutes = (from: number, to: number): number[] =>
      Array.from({ length: Math.floor((to - from) / 60_000) }, (_, i) => from + i * 60_000);

    it('should start the streak with the older sightings when they run up to it', async () => {
      const agent = randomUUID();
      await see(agent, [now]);
      await see(agent, minutes(now - 2 * DAY, now - 30 * 60_000));
      expect(await streakOf(agent)).toEqual({
        firstSeenAt: new Date(now - 2 * DAY),
        lastSeenAt: new Date(now),
        reappearedAt: new Date(now - 2 * DAY),
        gapMinutes: null,
        count: 2 * 24 * 60 - 30 + 1,
      });
    });

    it('should learn the silence before the streak when the older sightings end long before it', async () => {
      const agent = randomUUID();
      await see(agent, [now, now + 60_000]);
      await see(agent, minutes(now - 12 * DAY, now - 9 * DAY));
      expect(await streakOf(agent)).toMatchObject({
        firstSeenAt: new Date(now - 12 * DAY),
        reappearedAt: new Date(now),
        gapMinutes: 9 * 24 * 60 + 1,
        count: 2,
      });
    });

    it('should shorten a known silence when older sightings fall inside it, and move the reappearance back when they touch the streak', async () => {
      const agent = randomUUID();
      await see(agent, [now - 10 * DAY]);
      await see(agent, [now]);
      expect(await streakOf(agent)).toMatchObject({
        reappearedAt: new Date(now),
        gapMinutes: 14_400,
      });
      await see(agent, [now - 4 * DAY]);
      expect(await streakOf(agent)).toMatchObject({
        reappearedAt: new Date(now),
        gapMinutes: 4 * 24 * 60,
        count: 1,
      });
      await see(agent, [now - 2 * DAY, now - 20 * 60_000]);
      expect(await streakOf(agent)).toMatchObject({
        reappearedAt: new Date(now - 2 * DAY),
        gapMinutes: 2 * 24 * 60,
        count: 3,
      });
    });

    it('should leave the streak alone when the older sightings are older than the silence before it', async () => {
      const agent = randomUUID();
      await see(agent, [now - 10 * DAY]);
      await see(agent, [now]);
      await see(agent, [now - 11 * DAY]);
      expect(await streakOf(agent)).toMatchObject({
        firstSeenAt: new Date(now - 11 * DAY),
        reappearedAt: new Date(now),
        gapMinutes: 10 * 24 * 60,
        count: 1,
      });
    });
  });
});
