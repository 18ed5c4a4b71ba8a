import { randomUUID } from 'node:crypto';

import {
  AGGREGATIONS,
  Action,
  EVENT_VERSION,
  EventEnvelope,
  GROUP_BYS,
  MONITOR_METRICS,
  WINDOW_MINUTES,
  TimeWindow,
} from '@agp/contracts';
import { Database, Tx } from '@agp/database';

import { AUDIT_SCHEMA } from '../src/database/tokens';
import { addDays, createPartitionStatements, dayStart } from '../src/events/partitions';
import { CustomMonitorsRepository } from '../src/monitors/custom/custom-monitors.repository';
import { aggregationAllowed } from '../src/monitors/engine/custom/metric-semantics';
import { CustomMonitorType } from '../src/monitors/engine/custom/monitor-definition';
import { rollupSourceOf } from '../src/monitors/engine/custom/rollup-source';

/** The tenant of the tick bench: 10,000 subjects, as the detector speed part has them. */
export interface BenchTenant {
  tenantId: string;
  agents: string[];
  users: string[];
  servers: string[];
  channels: string[];
  gateways: string[];
  policies: string[];
  providers: string[];
}

export function benchTenant(): BenchTenant {
  const ids = (n: number): string[] => Array.from({ length: n }, () => randomUUID());
  return {
    tenantId: randomUUID(),
    agents: ids(5_000),
    users: ids(3_500),
    servers: ids(600),
    channels: ids(300),
    gateways: ids(100),
    policies: ids(500),
    providers: ids(5),
  };
}

/** A small deterministic generator, so that two runs write the same trace. */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const BATCH = 2_000;

/**
 * `count` traffic events spread over [from, to), written as the ingest writes them: the rows of
 * `audit.events` (what raw custom-monitor reads scan) and, in the same transaction, what the
 * ingest's observers derive (the real `RollupsService`, M16, and `MetricSeriesService`, M29).
 * Busy subjects are few (a squared draw).
 */
export async function writeTraffic(
  database: Database,
  observers: ReadonlyArray<{
    recordIngested(tx: Tx, envelopes: EventEnvelope[]): Promise<void>;
  }>,
  tenant: BenchTenant,
  from: Date,
  to: Date,
  count: number,
): Promise<void> {
  await database.asSystem(async (tx) => {
    for (let day = dayStart(from); day < to; day = addDays(day, 1)) {
      for (const statement of createPartitionStatements(AUDIT_SCHEMA, day)) {
        await tx.query(statement);
      }
    }
  });
  const random = rng(17);
  const pick = (list: string[]): string => list[Math.floor(random() * random() * list.length)];
  const span = to.getTime() - from.getTime();
  for (let start = 0; start < count; start += BATCH) {
    const envelopes: EventEnvelope[] = [];
    for (let i = start; i < Math.min(count, start + BATCH); i += 1) {
      const occurredAt = new Date(from.getTime() + Math.floor(((i + random()) * span) / count));
      const isLlm = random() < 0.15;
      const r = random();
      const action: Action =
        r < 0.04
          ? 'BLOCK'
          : r < 0.1
            ? 'WARN'
            : r < 0.11
              ? 'MASK'
              : r < 0.13
                ? 'HUMAN_REVIEW_REQUIRED'
                : r < 0.135
                  ? 'ERROR'
                  : 'LOG';
      const toServer = random() < 0.7;
      const details: Record<string, unknown> = {
        direction: 'REQUEST',
        latencyMs: Math.round(5 + 200 * random() * random()),
        ...(random() < 0.02 ? { outcome: 'ERROR' } : {}),
      };
      if (isLlm) {
        details.llmProviderId = pick(tenant.providers);
      } else if (toServer) {
        details.toolName = `tool_${Math.floor(random() * 5)}`;
      }
      envelopes.push({
        id: randomUUID(),
        type: isLlm ? 'LLM_GATEWAY_CALL' : 'COMMUNICATION_AUDIT',
        version: EVENT_VERSION,
        occurredAt: occurredAt.toISOString(),
        tenantId: tenant.tenantId,
        correlationId: randomUUID(),
        data: {
          protocol: isLlm ? 'REST' : toServer ? 'MCP' : 'JSONRPC',
          action: isLlm ? 'LOG' : action,
          actor: { type: 'USER', id: pick(tenant.users) },
          source: { type: 'AGENT', id: pick(tenant.agents) },
          sink: isLlm
            ? { type: 'LLM_GATEWAY', id: pick(tenant.gateways) }
            : toServer
              ? { type: 'MCP_SERVER', id: pick(tenant.servers) }
              : { type: 'CHANNEL', id: pick(tenant.channels) },
          policyIds: isLlm ? [] : [pick(tenant.policies)],
          details,
        },
      });
    }
    await database.inTenant(tenant.tenantId, async (tx) => {
      await insertEvents(tx, tenant.tenantId, start, envelopes);
      for (const observer of observers) {
        await observer.recordIngested(tx, envelopes);
      }
    });
  }
}

async function insertEvents(
  tx: Tx,
  tenantId: string,
  firstSeq: number,
  envelopes: EventEnvelope[],
): Promise<void> {
  const column = <T>(of: (e: EventEnvelope, i: number) => T): T[] => envelopes.map(of);
  const data = (e: EventEnvelope): Record<string, unknown> => e.data as Record<string, unknown>;
  const party = (e: EventEnvelope, name: string, field: 'type' | 'id'): string | null =>
    (data(e)[name] as Record<string, string> | undefined)?.[field] ?? null;
  await tx.query(
    `INSERT INTO ${AUDIT_SCHEMA}.events (id, tenant_id, family, seq, occurred_at, recorded_at, event_type, protocol,
       action, actor_type, actor_id, source_type, source_id, sink_type, sink_id, policy_ids, details, hash)
     SELECT id, $1, 'bench', seq, at, at, type, protocol, action, actor_type, actor_id, source_type, source_id,
       sink_type, sink_id, ARRAY(SELECT jsonb_array_elements_text(policies))::uuid[], details, '\\x00'::bytea
     FROM unnest($2::uuid[], $3::bigint[], $4::timestamptz[], $5::text[], $6::text[], $7::text[], $8::text[],
       $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::jsonb[], $15::jsonb[])
       AS t(id, seq, at, type, protocol, action, actor_type, actor_id, source_type, source_id, sink_type, sink_id,
         policies, details)`,
    [
      tenantId,
      column((e) => e.id),
      column((_e, i) => firstSeq + i),
      column((e) => e.occurredAt),
      column((e) => e.type),
      column((e) => data(e).protocol),
      column((e) => data(e).action),
      column((e) => party(e, 'actor', 'type')),
      column((e) => party(e, 'actor', 'id')),
      column((e) => party(e, 'source', 'type')),
      column((e) => party(e, 'source', 'id')),
      column((e) => party(e, 'sink', 'type')),
      column((e) => party(e, 'sink', 'id')),
      column((e) => JSON.stringify(data(e).policyIds ?? [])),
      column((e) => JSON.stringify(data(e).details ?? {})),
    ],
  );
}

/**
 * Governance records (the relay's snapshots as the audit projection keeps them, M20) for every
 * agent, MCP server, LLM gateway and channel, as a tenant that adopted governance keeps them: about
 * 1 % of reviews and attestations overdue, 1 in 500 owners disabled, 1 in 1,000 reports late.
 */
export async function writeGovernance(tx: Tx, tenant: BenchTenant, now: Date): Promise<number> {
  const subjects: Array<[string, string]> = [
    ...tenant.servers.map((id): [string, string] => ['MCP_SERVER', id]),
    ...tenant.gateways.map((id): [string, string] => ['LLM_GATEWAY', id]),
    ...tenant.channels.map((id): [string, string] => ['CHANNEL', id]),
    ...tenant.agents.map((id): [string, string] => ['AGENT', id]),
  ];
  await tx.query(
    `INSERT INTO ${AUDIT_SCHEMA}.monitor_governance (tenant_id, record_id, revision, subject_type, subject_id,
       subject_name, risk_tier, tier_severity, owner_user_id, owner_status, review_due_at, attested_at,
       attestation_stale_at, open_incidents)
     SELECT $1, gen_random_uuid(), 1, s.type, s.id, s.type || ' ' || s.n, tier, tier, $4::uuid,
       CASE WHEN s.n % 500 = 0 THEN 'DISABLED' ELSE 'ACTIVE' END,
       $2::timestamptz + make_interval(days => ((s.n % 100) - 1)::int), $2::timestamptz - interval '100 days',
       $2::timestamptz + make_interval(days => ((s.n % 100) - 1)::int),
       CASE WHEN s.n % 1000 = 0 THEN jsonb_build_array(jsonb_build_object('incidentId', gen_random_uuid(),
         'title', 'late report', 'reportDueAt', $2::timestamptz - interval '2 days')) ELSE '[]'::jsonb END
     FROM unnest($3::text[], $5::uuid[]) WITH ORDINALITY AS s(type, id, n)
     CROSS JOIN LATERAL (SELECT (ARRAY['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'])[1 + s.n % 4] AS tier) t`,
    [
      tenant.tenantId,
      now,
      subjects.map(([type]) => type),
      tenant.users[0],
      subjects.map(([, id]) => id),
    ],
  );
  return subjects.length;
}

const TYPES: readonly CustomMonitorType[] = ['THRESHOLD', 'CHANGE', 'OUTLIER'];
const WINDOWS = Object.keys(WINDOW_MINUTES) as TimeWindow[];

/**
 * `count` custom monitors: every other one a count the rollups hold (M26), the others cycling
 * through every metric, aggregation, window, grouping and type (the raw reads' share).
 */
export async function writeMonitors(
  tx: Tx,
  monitors: CustomMonitorsRepository,
  tenantId: string,
  count: number,
): Promise<{ fromRollups: number; fromEvents: number }> {
  const pairs = MONITOR_METRICS.flatMap((metric) =>
    GROUP_BYS.map((groupBy) => ({ metric, groupBy })),
  );
  const held = pairs.filter((p) => rollupSourceOf(p.metric, p.groupBy));
  let fromRollups = 0;
  for (let i = 0; i < count; i += 1) {
    const { metric, groupBy } =
      i % 2 === 0 ? held[(i / 2) % held.length] : pairs[(i * 7) % pairs.length];
    let monitorType = TYPES[i % TYPES.length];
    if (monitorType === 'OUTLIER' && groupBy === 'NONE') {
      monitorType = 'THRESHOLD';
    }
    const allowed = AGGREGATIONS.filter((a) => aggregationAllowed(metric, a));
    const aggregation = allowed[i % allowed.length];
    fromRollups += rollupSourceOf(metric, groupBy) ? 1 : 0;
    await monitors.insert(tx, tenantId, randomUUID(), {
      name: `bench ${i}`,
      description: null,
      monitorType,
      metric,
      aggregation,
      window: WINDOWS[(i * 5) % WINDOWS.length],
      groupBy,
      comparison: 'ABOVE',
      // Set as a tenant would: a monitor that fires on thousands of groups at once is mis-set, and
      // the alerts it opens would measure the raiser, not the evaluation.
      threshold: monitorType === 'THRESHOLD' ? 2_000 : monitorType === 'CHANGE' ? 400 : 8,
      // Small groups are not judged (a CHANGE from nothing fires at minVolume): still read, not
      // raised. BENCH_MIN_VOLUME=0 measures every group judged, the API's default.
      minVolume: Number(process.env.BENCH_MIN_VOLUME ?? 1_000),
      severity: 'MEDIUM',
      enabled: true,
      updatedByLabel: 'bench',
    });
  }
  return { fromRollups, fromEvents: count - fromRollups };
}
