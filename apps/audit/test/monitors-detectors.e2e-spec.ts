import { randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { MonitorEvidence } from '@agp/contracts';
import { TestDatabase, TestTokenIssuer, createTestDatabase } from '@agp/testing';

import { AlertResponse } from '../src/monitors/alerts/alert-response';
import { evidenceProblems } from '../src/monitors/alerts/evidence-validation';
import { DetectorTickService } from '../src/monitors/tick/detector-tick.service';
import { Finding } from '../src/monitors/engine/monitors.types';
import { ANOMALY_KIND_NAMES, Anomaly, AnomalyKind } from '../tools/simulator/anomalies';
import { Simulation, planSimulation } from '../tools/simulator/simulation';
import { startAudit } from './support/audit-test-app';
import { MonitorsCaller, databaseOf, ticksOf, writerOf } from './monitors-test-kit';

const MINUTE = 60_000;
const DAY = 86_400_000;
/** A Tuesday: the three anomaly days are Saturday to Monday, so both kinds of baseline are used. */
const TRACE_END = new Date('2026-02-10T00:00:00Z');

function round(value: number, digits: number): number {
  return Math.round(value * 10 ** digits) / 10 ** digits;
}

/** When to tick for an anomaly: inside it, with the 15-minute window (ending a minute earlier) covered. */
function tickFor(anomaly: Anomaly): Date {
  const offset = anomaly.kind.endsWith('_DROP')
    ? 30
    : ['DORMANT_AGENT', 'DORMANT_USER', 'NOVEL_TOOL', 'NEW_MCP_SERVER'].includes(anomaly.kind)
      ? 10
      : 20;
  return new Date(anomaly.start.getTime() + offset * MINUTE);
}

describe(DetectorTickService.name, () => {
  let db: TestDatabase;
  let app: NestFastifyApplication;
  let simulation: Simulation;
  const found = new Map<
    AnomalyKind,
    { anomaly: Anomaly; finding: Finding | undefined; tick: Date }
  >();

  /** Events in [from, to) of one subject and metric, read straight from the rollup rows. */
  async function countIn(
    type: string,
    id: string,
    metric: string,
    from: Date,
    to: Date,
  ): Promise<number> {
    const rows: Array<{ hour: Date; running: number[] }> = await databaseOf(app).asSystem((tx) =>
      tx.query(
        `SELECT hour, running FROM audit.monitor_rollups WHERE tenant_id = $1 AND subject_type = $2 AND subject_id = $3
           AND metric = $4 AND hour >= $5 AND hour < $6`,
        [simulation.model.tenantId, type, id, metric, new Date(from.getTime() - 3_600_000), to],
      ),
    );
    let total = 0;
    for (const row of rows) {
      row.running.forEach((through, m) => {
        const at = row.hour.getTime() + m * MINUTE;
        const n = through - (m > 0 ? (row.running[m - 1] ?? 0) : 0);
        total += at >= from.getTime() && at < to.getTime() ? n : 0;
      });
    }
    return total;
  }

  function windowOf(tick: Date): { from: Date; to: Date } {
    const to = new Date(tick.getTime() - MINUTE);
    return { from: new Date(to.getTime() - 15 * MINUTE), to };
  }

  function result(kind: AnomalyKind): {
    anomaly: Anomaly;
    finding: Finding;
    tick: Date;
    evidence: MonitorEvidence;
  } {
    const entry = found.get(kind);
    if (!entry?.finding) {
      throw new Error(`${kind} was not detected`);
    }
    expect(evidenceProblems(entry.finding.evidence)).toEqual([]);
    return { ...entry, finding: entry.finding, evidence: entry.finding.evidence };
  }

  beforeAll(async () => {
    db = await createTestDatabase('monitors_detectors');
    app = await startAudit({ databaseUrl: db.url, issuer: await TestTokenIssuer.create() });
    simulation = planSimulation({
      seed: 11,
      days: 12,
      end: TRACE_END,
      anomalyDays: 3,
      anomalies: ANOMALY_KIND_NAMES,
    });
    await writerOf(app).writeHours(simulation, simulation.start, simulation.end);
    for (const anomaly of simulation.anomalies) {
      const tick = tickFor(anomaly);
      const report = await ticksOf(app).tick(tick);
      const finding = report?.findings.find(
        (f) => f.detector === anomaly.detector && f.subject.id === anomaly.subject.id,
      );
      found.set(anomaly.kind, { anomaly, finding, tick });
    }
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('should place every kind of anomaly when the trace is planned', () => {
    expect(simulation.anomalies.map((a) => a.kind).sort()).toEqual([...ANOMALY_KIND_NAMES].sort());
  });

  it.each(ANOMALY_KIND_NAMES)(
    'should find the injected %s with its detector and subject',
    (kind) => {
      expect(found.get(kind)?.finding).toBeDefined();
    },
  );

  it.each([
    ['POLICY_INVOCATION_SPIKE', 'INVOCATIONS', 'SPIKE'],
    ['POLICY_INVOCATION_DROP', 'INVOCATIONS', 'DROP'],
    ['POLICY_BLOCK_SPIKE', 'BLOCKS', 'SPIKE'],
    ['POLICY_WARN_SPIKE', 'WARNS', 'SPIKE'],
    ['POLICY_HITL_SPIKE', 'HITL_HOLDS', 'SPIKE'],
  ] as const)(
    'should give policy metric evidence field by field for %s',
    async (kind, metric, direction) => {
      const { anomaly, tick, evidence } = result(kind);
      const { from, to } = windowOf(tick);
      const observed = await countIn('POLICY', anomaly.subject.id, metric, from, to);
      expect(evidence).toEqual({
        kind: 'POLICY_METRIC',
        policyId: anomaly.subject.id,
        metric,
        direction,
        observedTotal: observed,
        observedPerMinute: round(observed / 15, 3),
        baselinePerMinute: expect.any(Number),
        ratio: expect.any(Number),
        sampleMinutes: 15,
      });
      if (evidence.kind === 'POLICY_METRIC') {
        const expected = evidence.baselinePerMinute * 15;
        expect(evidence.ratio).toBeCloseTo(
          direction === 'SPIKE' ? observed / Math.max(expected, 1) : observed / expected,
          1,
        );
        expect(direction === 'SPIKE' ? evidence.ratio >= 3 : evidence.ratio <= 0.25).toBe(true);
      }
    },
  );

  it.each([
    ['AGENT_SPIKE', 'SPIKE'],
    ['AGENT_DROP', 'DROP'],
    ['USER_SPIKE', 'SPIKE'],
    ['USER_DROP', 'DROP'],
    ['MCP_SERVER_SPIKE', 'SPIKE'],
    ['MCP_SERVER_DROP', 'DROP'],
    ['LLM_GATEWAY_SPIKE', 'SPIKE'],
    ['LLM_GATEWAY_DROP', 'DROP'],
    ['CHANNEL_SPIKE', 'SPIKE'],
    ['CHANNEL_DROP', 'DROP'],
  ] as const)(
    'should give entity volume evidence field by field for %s',
    async (kind, direction) => {
      const { anomaly, tick, evidence, finding } = result(kind);
      const { from, to } = windowOf(tick);
      const observed = await countIn(
        anomaly.subject.type,
        anomaly.subject.id,
        'REQUESTS',
        from,
        to,
      );
      expect(evidence).toEqual({
        kind: 'ENTITY_VOLUME',
        subjectType: anomaly.subject.type,
        subjectId: anomaly.subject.id,
        direction,
        observedTotal: observed,
        observedPerMinute: round(observed / 15, 3),
        baselinePerMinute: expect.any(Number),
        ratio: expect.any(Number),
        sampleMinutes: 15,
      });
      expect(finding.direction).toBe(direction);
      expect(finding.subject).toEqual(anomaly.subject);
    },
  );

  it.each([
    ['TENANT_ERRORS', 'ERRORS', 'ERROR', 'UNATTRIBUTED_ERRORS'],
    ['TENANT_WARNS', 'WARNS', 'WARN', 'UNATTRIBUTED_WARNS'],
    ['TENANT_HITL', 'HITL_HOLDS', 'HUMAN_REVIEW_REQUIRED', 'UNATTRIBUTED_HITL_HOLDS'],
  ] as const)(
    'should give tenant action spike evidence with its top contributor for %s',
    async (kind, metric, action, unattributed) => {
      const { anomaly, tick, evidence, finding } = result(kind);
      const { from, to } = windowOf(tick);
      const tenantId = simulation.model.tenantId;
      const observed = await countIn('TENANT', tenantId, metric, from, to);
      const byCulprit = await countIn('POLICY', anomaly.target.id, metric, from, to);
      expect(finding.subject).toEqual({ type: 'TENANT', id: tenantId });
      expect(evidence).toMatchObject({
        kind: 'TENANT_ACTION_SPIKE',
        action,
        direction: 'SPIKE',
        observedTotal: observed,
        observedPerMinute: round(observed / 15, 3),
        sampleMinutes: 15,
        unattributedCount: await countIn('TENANT', tenantId, unattributed, from, to),
      });
      if (evidence.kind === 'TENANT_ACTION_SPIKE') {
        expect(evidence.topContributors[0]).toEqual({
          policyId: anomaly.target.id,
          count: byCulprit,
          percentage: round((byCulprit / observed) * 100, 2),
        });
        expect(evidence.topContributors.length).toBeLessThanOrEqual(5);
      }
    },
  );

  it.each([
    ['LLM_PROVIDER_ERRORS', 'ERRORS', 'ERROR_RATE'],
    ['MCP_SERVER_ERRORS', 'ERRORS', 'ERROR_RATE'],
    ['LLM_GATEWAY_FAILOVERS', 'LLM_FAILOVERS', 'FAILOVER'],
  ] as const)(
    'should give infrastructure incident evidence field by field for %s',
    async (kind, metric, incidentType) => {
      const { anomaly, tick, evidence } = result(kind);
      const { from, to } = windowOf(tick);
      const observed = await countIn(anomaly.subject.type, anomaly.subject.id, metric, from, to);
      expect(evidence).toEqual({
        kind: 'INFRASTRUCTURE_INCIDENT',
        subjectType: anomaly.subject.type,
        subjectId: anomaly.subject.id,
        incidentType,
        direction: 'SPIKE',
        observedTotal: observed,
        observedPerMinute: round(observed / 15, 3),
        baselinePerMinute: expect.any(Number),
        ratio: expect.any(Number),
        sampleMinutes: 15,
      });
      if (evidence.kind === 'INFRASTRUCTURE_INCIDENT') {
        expect(evidence.ratio).toBeGreaterThanOrEqual(3);
      }
    },
  );

  it.each([
    ['DORMANT_AGENT', 'AGENT'],
    ['DORMANT_USER', 'USER'],
  ] as const)(
    'should give dormant reactivation evidence field by field for %s',
    async (kind, subjectType) => {
      const { anomaly, evidence } = result(kind);
      const silence = (anomaly.start.getTime() - (anomaly.silentFrom?.getTime() ?? 0)) / DAY;
      const during = await countIn(
        subjectType,
        anomaly.subject.id,
        'REQUESTS',
        anomaly.start,
        new Date(anomaly.start.getTime() + anomaly.minutes * MINUTE),
      );
      expect(evidence).toEqual({
        kind: 'DORMANT_REACTIVATION',
        subjectType,
        subjectId: anomaly.subject.id,
        dormantDays: expect.any(Number),
        recentEventCount: during,
      });
      if (evidence.kind === 'DORMANT_REACTIVATION') {
        expect(evidence.dormantDays).toBeGreaterThanOrEqual(Math.floor(silence));
        expect(evidence.dormantDays).toBeLessThanOrEqual(Math.floor(silence + 1 / 24));
      }
    },
  );

  it('should give first seen evidence with the tool name when a tool is called for the first time', () => {
    const { anomaly, evidence } = result('NOVEL_TOOL');
    expect(evidence).toEqual({
      kind: 'FIRST_SEEN',
      subjectType: 'MCP_SERVER',
      subjectId: anomaly.subject.id,
      observation: 'TOOL_CALL',
      key: anomaly.toolName,
      lookbackDays: 7,
      occurrencesInRecent: anomaly.minutes,
    });
  });

  it('should give first seen evidence when an MCP server is bound for the first time', async () => {
    const { anomaly, evidence } = result('NEW_MCP_SERVER');
    const calls = await countIn(
      'MCP_SERVER',
      anomaly.subject.id,
      'REQUESTS',
      anomaly.start,
      new Date(anomaly.start.getTime() + anomaly.minutes * MINUTE),
    );
    expect(evidence).toEqual({
      kind: 'FIRST_SEEN',
      subjectType: 'MCP_SERVER',
      subjectId: anomaly.subject.id,
      observation: 'MCP_SERVER_BINDING',
      key: anomaly.subject.id,
      lookbackDays: 7,
      occurrencesInRecent: calls,
    });
  });

  it('should update the open alert when the next tick finds the same anomaly again', async () => {
    const { anomaly, tick } = result('AGENT_SPIKE');
    const next = await ticksOf(app).tick(new Date(tick.getTime() + MINUTE));
    expect(next?.findings.some((f) => f.subject.id === anomaly.subject.id)).toBe(true);
    const alerts: Array<{ occurrences: number }> = await databaseOf(app).asSystem((tx) =>
      tx.query(
        `SELECT occurrences FROM audit.monitor_alerts WHERE detector = 'AGENT_VOLUME_ANOMALY' AND subject_id = $1`,
        [anomaly.subject.id],
      ),
    );
    expect(alerts).toEqual([{ occurrences: 2 }]);
  });

  it('should skip a minute when it has already been ticked', async () => {
    const { tick } = result('AGENT_SPIKE');
    await expect(ticksOf(app).tick(tick)).resolves.toBeUndefined();
  });
});

describe('a flat trace', () => {
  let db: TestDatabase;
  let app: NestFastifyApplication;
  let issuer: TestTokenIssuer;

  beforeAll(async () => {
    db = await createTestDatabase('monitors_flat');
    issuer = await TestTokenIssuer.create();
    app = await startAudit({ databaseUrl: db.url, issuer });
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('should raise no alert when nine days of ordinary traffic are evaluated every ten minutes for two days', async () => {
    const end = new Date('2026-04-20T00:00:00Z');
    const simulation = planSimulation({ tenantId: randomUUID(), seed: 5, days: 9, end });
    await writerOf(app).writeHours(simulation, simulation.start, end);
    const findings: Finding[] = [];
    for (let t = end.getTime() - 2 * DAY; t < end.getTime(); t += 10 * MINUTE) {
      findings.push(...((await ticksOf(app).tick(new Date(t)))?.findings ?? []));
    }
    expect(findings.map((f) => f.summary)).toEqual([]);
    const reader = await MonitorsCaller.create(issuer, simulation.model.tenantId, ['AUDIT:READ']);
    const page = await reader.call<{ items: AlertResponse[]; total: number }>(
      app,
      'GET',
      '/audit/v1/monitors/alerts',
    );
    expect(page.body.total).toBe(0);
  }, 180_000);
});
