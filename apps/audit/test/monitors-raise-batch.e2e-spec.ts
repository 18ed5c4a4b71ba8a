import { randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { TestDatabase, TestTokenIssuer, createTestDatabase } from '@agp/testing';

import { AlertRaiserService, RaiseOutcome } from '../src/monitors/alerts/alert-raiser.service';
import { Suppression } from '../src/monitors/alerts/alerts.repository';
import { Finding } from '../src/monitors/engine/monitors.types';
import { databaseOf, volumeFinding } from './monitors-test-kit';
import { startAudit } from './support/audit-test-app';

const MINUTE_MS = 60_000;

/**
 * M28: the raiser writes a tick's findings in a few statements (suppression, active alerts, one
 * upsert per round). Two tenants get the same findings: one raised in one call, the other one
 * finding per call, as the raiser wrote them before; their alerts and outcomes must be the same.
 */
describe('alert raiser, one statement per round (M28)', () => {
  let app: NestFastifyApplication;
  let db: TestDatabase;
  const at = new Date(Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS);

  beforeAll(async () => {
    db = await createTestDatabase('monitors_raise_batch');
    app = await startAudit({ databaseUrl: db.url, issuer: await TestTokenIssuer.create() });
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  const raise = (
    tenantId: string,
    findings: Finding[],
    quiet: (f: Finding) => Suppression | undefined,
  ): Promise<RaiseOutcome> =>
    databaseOf(app).inTenant(tenantId, (tx) =>
      app.get(AlertRaiserService).raise(tx, tenantId, findings, randomUUID(), quiet),
    );

  /** A tenant's alerts without what differs between tenants by construction (ids, tenant, times). */
  const alertsOf = (tenantId: string): Promise<unknown[]> =>
    databaseOf(app).inTenant(tenantId, (tx) =>
      tx.query(
        `SELECT detector, subject_id AS subject, status, severity, occurrences, evidence,
                suppressed_by_kind AS muted, last_detected_at AS "lastDetectedAt"
         FROM audit.monitor_alerts WHERE tenant_id = $1 ORDER BY subject_id, status, detected_at`,
        [tenantId],
      ),
    );

  it('should leave the same alerts and count the same outcomes as raising one finding at a time', async () => {
    const agents = Array.from({ length: 5 }, () => randomUUID()).sort();
    const [batchTenant, oneByOne] = [randomUUID(), randomUUID()];
    const findingsOf = (tenantId: string, minute: number): Finding[] => {
      const t = new Date(at.getTime() + minute * MINUTE_MS);
      const later = new Date(t.getTime() + MINUTE_MS);
      return [
        volumeFinding(tenantId, agents[0], t, 400),
        volumeFinding(tenantId, agents[1], t, 500),
        // The same agent twice in one tick: the second updates the alert the first opened.
        { ...volumeFinding(tenantId, agents[0], later, 900), severity: 'HIGH' },
        volumeFinding(tenantId, agents[2], t, 300),
        volumeFinding(tenantId, agents[3], t, 300),
        // Invalid evidence: rejected, nothing stored.
        { ...volumeFinding(tenantId, agents[4], t), evidence: { kind: 'ENTITY_VOLUME' } as never },
      ];
    };
    // agents[2] is muted at the first tick only; agents[3]'s alert gets dismissed after it.
    const quietAt =
      (minute: number) =>
      (f: Finding): Suppression | undefined =>
        minute === 0 && f.subject.id === agents[2]
          ? { kind: 'MUTE', id: randomUUID(), until: null }
          : undefined;
    const outcomes: Record<string, RaiseOutcome[]> = { [batchTenant]: [], [oneByOne]: [] };
    for (const minute of [0, 5]) {
      outcomes[batchTenant].push(
        await raise(batchTenant, findingsOf(batchTenant, minute), quietAt(minute)),
      );
      const single: RaiseOutcome = {
        opened: 0,
        updated: 0,
        suppressed: 0,
        rejected: 0,
        muted: 0,
        resolved: 0,
      };
      for (const finding of findingsOf(oneByOne, minute)) {
        const outcome = await raise(oneByOne, [finding], quietAt(minute));
        for (const key of Object.keys(single) as Array<keyof RaiseOutcome>) {
          single[key] += outcome[key];
        }
      }
      outcomes[oneByOne].push(single);
      if (minute === 0) {
        for (const tenantId of [batchTenant, oneByOne]) {
          await databaseOf(app).inTenant(tenantId, (tx) =>
            tx.query(
              `UPDATE audit.monitor_alerts SET status = 'DISMISSED', suppressed_until = $3
               WHERE tenant_id = $1 AND subject_id = $2`,
              [tenantId, agents[3], new Date(at.getTime() + 60 * MINUTE_MS)],
            ),
          );
        }
      }
    }

    expect(outcomes[batchTenant]).toEqual(outcomes[oneByOne]);
    expect(outcomes[batchTenant]).toEqual([
      { opened: 3, updated: 1, suppressed: 0, rejected: 1, muted: 1, resolved: 0 },
      // agents[2]'s mute is over: its alert is announced now; agents[3] is suppressed by its dismissal.
      { opened: 1, updated: 3, suppressed: 1, rejected: 1, muted: 0, resolved: 0 },
    ]);
    expect(await alertsOf(batchTenant)).toEqual(await alertsOf(oneByOne));
    expect(await alertsOf(batchTenant)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ severity: 'HIGH', occurrences: 4, status: 'OPEN' }),
      ]),
    );
  });
});
