import { Injectable } from '@nestjs/common';
import { SubjectType } from '@agp/contracts';
import { Tx, queryNamed } from '@agp/database';

import { AUDIT_SCHEMA } from '../../database/tokens';
import { RollupCount, RollupMetric, Sighting } from '../engine/rollup-counters';
import { SightingRow } from '../engine/detectors/novelty-detectors';
import { WindowSegment } from '../engine/detectors/time-window';

export type { SightingRow } from '../engine/detectors/novelty-detectors';
export type { WindowSegment } from '../engine/detectors/time-window';

const R = `${AUDIT_SCHEMA}.monitor_rollups`;
const S = `${AUDIT_SCHEMA}.monitor_sightings`;
/** A sighting after at least this much silence starts a new appearance (M5). */
const REAPPEARANCE_GAP = `interval '60 minutes'`;

/** One rollup row as written: 60 per-minute counts of one subject and metric in one hour (M3). */
export interface HourRow {
  hour: Date;
  subjectType: SubjectType;
  subjectId: string;
  metric: RollupMetric;
  minutes: number[];
}

/** One subject's and metric's counts: `counts[d]` events on day d (0: the recent window). */
export interface WindowCounts {
  subjectType: SubjectType;
  subjectId: string;
  metric: RollupMetric;
  counts: number[];
}

/** Folds single counts into hour rows, so one statement never touches a row twice. */
export function toHourRows(counts: RollupCount[]): HourRow[] {
  const rows = new Map<string, HourRow>();
  for (const count of counts) {
    const hour = new Date(Math.floor(count.minute.getTime() / 3_600_000) * 3_600_000);
    const key = `${hour.getTime()}|${count.subjectType}|${count.subjectId}|${count.metric}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        hour,
        subjectType: count.subjectType,
        subjectId: count.subjectId,
        metric: count.metric,
        minutes: new Array<number>(60).fill(0),
      };
      rows.set(key, row);
    }
    row.minutes[count.minute.getUTCMinutes()] += count.count;
  }
  return [...rows.values()];
}

/** Running totals: element m is the count of minutes 0..m (M3: a window is two array reads). */
export function runningTotals(minutes: readonly number[]): number[] {
  let total = 0;
  return minutes.map((n) => (total += n));
}

/** Sums rows of the same key: ON CONFLICT cannot touch one row twice in a statement. */
function foldHourRows(rows: HourRow[]): HourRow[] {
  const folded = new Map<string, HourRow>();
  for (const row of rows) {
    // A55: one statement holds every tenant's rows, so ids are compared as PostgreSQL does.
    const key = `${row.hour.getTime()}|${row.subjectType}|${row.subjectId.toLowerCase()}|${row.metric}`;
    const seen = folded.get(key);
    if (seen) {
      seen.minutes = seen.minutes.map((n, m) => n + (row.minutes[m] ?? 0));
    } else {
      folded.set(key, { ...row, minutes: [...row.minutes] });
    }
  }
  return [...folded.values()];
}

export function windowParameters(
  tenantId: string,
  segments: readonly WindowSegment[],
  metrics: readonly RollupMetric[],
): unknown[] {
  return [
    tenantId,
    segments.map((s) => s.hour),
    segments.map((s) => s.lo),
    segments.map((s) => s.hi),
    segments.map((s) => s.day),
    metrics,
  ];
}

/** One tenant's share of a batch's rollups. */
export interface TenantCounters {
  tenantId: string;
  hourRows: HourRow[];
  sightings: Sighting[];
}

interface MergedSighting {
  s: Sighting;
  first: Date;
  last: Date;
  n: number;
}

/** One row per key: ON CONFLICT cannot touch one row twice in a statement. */
function mergeSightings(sightings: readonly Sighting[]): MergedSighting[] {
  const merged = new Map<string, MergedSighting>();
  for (const s of sightings) {
    const key = `${s.observation}|${s.subjectType}|${s.subjectId.toLowerCase()}|${s.key}`;
    const seen = merged.get(key);
    if (seen) {
      seen.first = s.at < seen.first ? s.at : seen.first;
      seen.last = s.at > seen.last ? s.at : seen.last;
      seen.n += s.count ?? 1;
    } else {
      merged.set(key, { s, first: s.at, last: s.at, n: s.count ?? 1 });
    }
  }
  return [...merged.values()];
}

const COUNTS_UPSERT = `INSERT INTO ${R} AS r (tenant_id, hour, subject_type, subject_id, metric, total, running)
  SELECT u.tenant_id, u.hour, u.subject_type, u.subject_id, u.metric, (u.running::integer[])[60], u.running::integer[]
  FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::uuid[], $5::text[], $6::text[])
    AS u(tenant_id, hour, subject_type, subject_id, metric, running)
  ON CONFLICT (tenant_id, hour, subject_type, subject_id, metric) DO UPDATE
  SET total = r.total + excluded.total,
      running = ${AUDIT_SCHEMA}.monitor_add_minutes(r.running, excluded.running)`;

// M39: a batch older than the current streak (a replay, a backfill, ingest batches committed
// out of order) is placed where it belongs instead of being read as the newest sightings.
const reappears = `excluded.first_seen_at - s.last_seen_at >= ${REAPPEARANCE_GAP}`;
const isOlder = `excluded.first_seen_at < s.reappeared_at`;
const previousLast = `(s.reappeared_at - make_interval(mins => s.gap_minutes))`;
// The batch ends a full gap before the streak: only the silence before the streak can change,
// learnt when unknown, shortened when the batch falls inside it.
const endsBefore = `${isOlder} AND s.reappeared_at - excluded.last_seen_at >= ${REAPPEARANCE_GAP}`;
const silenceChanges = `${endsBefore} AND (s.gap_minutes IS NULL OR excluded.last_seen_at > ${previousLast})`;
// Otherwise it touches the streak, which then began with it: after the same or a shorter
// silence, or after none known (no earlier streak, or the batch bridges to it).
const touches = `${isOlder} AND s.reappeared_at - excluded.last_seen_at < ${REAPPEARANCE_GAP}`;
const stillAGap = `s.gap_minutes IS NOT NULL AND excluded.first_seen_at - ${previousLast} >= ${REAPPEARANCE_GAP}`;
const minutesBetween = (later: string, earlier: string): string =>
  `floor(extract(epoch FROM ${later} - ${earlier}) / 60)::int`;

const SIGHTINGS_UPSERT = `INSERT INTO ${S} AS s (tenant_id, observation, subject_type, subject_id, key, first_seen_at,
    last_seen_at, reappeared_at, gap_minutes, count_since_reappeared)
  SELECT u.tenant_id, u.observation, u.subject_type, u.subject_id, u.key, u.first_at, u.last_at, u.first_at, NULL, u.n
  FROM unnest($7::uuid[], $8::text[], $9::text[], $10::uuid[], $11::text[], $12::timestamptz[], $13::timestamptz[],
    $14::int[]) AS u(tenant_id, observation, subject_type, subject_id, key, first_at, last_at, n)
  ON CONFLICT (tenant_id, observation, subject_type, subject_id, key) DO UPDATE SET
    reappeared_at = CASE
      WHEN ${reappears} THEN excluded.first_seen_at
      WHEN ${touches} AND (s.gap_minutes IS NULL OR ${stillAGap}) THEN excluded.first_seen_at
      WHEN ${touches} THEN LEAST(s.first_seen_at, excluded.first_seen_at)
      ELSE s.reappeared_at END,
    gap_minutes = CASE
      WHEN ${reappears} THEN ${minutesBetween('excluded.first_seen_at', 's.last_seen_at')}
      WHEN ${touches} AND ${stillAGap} THEN ${minutesBetween('excluded.first_seen_at', previousLast)}
      WHEN ${touches} THEN NULL
      WHEN ${silenceChanges} THEN ${minutesBetween('s.reappeared_at', 'excluded.last_seen_at')}
      ELSE s.gap_minutes END,
    count_since_reappeared = CASE
      WHEN ${reappears} THEN excluded.count_since_reappeared
      WHEN ${endsBefore} THEN s.count_since_reappeared
      ELSE s.count_since_reappeared + excluded.count_since_reappeared END,
    first_seen_at = LEAST(s.first_seen_at, excluded.first_seen_at),
    last_seen_at = GREATEST(s.last_seen_at, excluded.last_seen_at)`;

@Injectable()
export class RollupsRepository {
  /** `count = count + excluded.count`, minute by minute (M3). */
  async addCounts(tx: Tx, tenantId: string, given: HourRow[]): Promise<void> {
    await this.add(tx, [{ tenantId, hourRows: given, sightings: [] }]);
  }

  async addSightings(tx: Tx, tenantId: string, sightings: Sighting[]): Promise<void> {
    await this.add(tx, [{ tenantId, hourRows: [], sightings }]);
  }

  /**
   * A55: every tenant's counts and sightings of a batch in one statement, the counts' upsert as a
   * data-modifying CTE, where there were two statements per tenant.
   */
  async add(tx: Tx, tenants: readonly TenantCounters[]): Promise<void> {
    const counts = tenants.flatMap(({ tenantId, hourRows }) =>
      foldHourRows(hourRows).map((row) => ({ tenantId, row })),
    );
    const sightings = tenants.flatMap(({ tenantId, sightings: given }) =>
      mergeSightings(given).map((merged) => ({ tenantId, ...merged })),
    );
    if (counts.length === 0 && sightings.length === 0) {
      return;
    }
    await queryNamed(
      tx,
      `WITH counts AS (${COUNTS_UPSERT})
       ${SIGHTINGS_UPSERT}`,
      [
        counts.map((c) => c.tenantId),
        counts.map((c) => c.row.hour),
        counts.map((c) => c.row.subjectType),
        counts.map((c) => c.row.subjectId),
        counts.map((c) => c.row.metric),
        counts.map((c) => `{${runningTotals(c.row.minutes).join(',')}}`),
        sightings.map((r) => r.tenantId),
        sightings.map((r) => r.s.observation),
        sightings.map((r) => r.s.subjectType),
        sightings.map((r) => r.s.subjectId),
        sightings.map((r) => r.s.key),
        sightings.map((r) => r.first),
        sightings.map((r) => r.last),
        sightings.map((r) => r.n),
      ],
    );
  }

  async windowCounts(
    tx: Tx,
    tenantId: string,
    segments: WindowSegment[],
    metrics: readonly RollupMetric[],
    lastDay = Math.max(0, ...segments.map((s) => s.day)),
    subjectIds?: readonly string[],
  ): Promise<WindowCounts[]> {
    // One pass, one group per subject and metric: a day's count is a filtered sum (M3).
    const byDay = Array.from(
      { length: lastDay + 1 },
      (_, day) => `coalesce(sum(p.n) FILTER (WHERE p.day = ${day}), 0)`,
    ).join(', ');
    // Tens of thousands of groups for a large tenant: keep the aggregation in memory.
    await tx.query(`SET LOCAL work_mem = '64MB'`);
    // M35: each piece's count is taken first (narrow rows to group, not the hour rows' 60
    // counts), and the answer comes back as one JSON text: parsing it is a fraction of the
    // driver's parsing of thousands of integer arrays.
    const [{ rows }]: Array<{ rows: string }> = await tx.query(
      `WITH p AS MATERIALIZED (
         SELECT r.subject_type, r.subject_id, r.metric, w.day,
                r.running[w.hi] - coalesce(r.running[w.lo - 1], 0) AS n
         FROM unnest($2::timestamptz[], $3::int[], $4::int[], $5::int[]) AS w(hour, lo, hi, day)
         JOIN ${R} r ON r.tenant_id = $1 AND r.hour = w.hour
         WHERE r.hour = ANY($2::timestamptz[]) AND r.metric = ANY($6::text[])
           AND ($7::uuid[] IS NULL OR r.subject_id = ANY($7::uuid[]))
       )
       SELECT coalesce(json_agg(json_build_array(c.subject_type, c.subject_id, c.metric, c.counts)), '[]')::text AS rows
       FROM (SELECT p.subject_type, p.subject_id, p.metric, ARRAY[${byDay}]::int[] AS counts
             FROM p GROUP BY 1, 2, 3) c`,
      // M63: the longer windows read only the subjects whose own window moved.
      [...windowParameters(tenantId, segments, metrics), subjectIds ?? null],
    );
    return (JSON.parse(rows) as Array<[SubjectType, string, RollupMetric, number[]]>).map(
      ([subjectType, subjectId, metric, counts]) => ({ subjectType, subjectId, metric, counts }),
    );
  }

  /** Older subjects all share the full baseline, so they are not read at all. */
  async firstSeenAfter(tx: Tx, tenantId: string, since: Date): Promise<Map<string, Date>> {
    // In a young tenant every subject is young: epoch milliseconds (whole, as a Date holds them)
    // cost the driver less than parsing thousands of timestamps.
    const rows: Array<{ subject: string; firstSeenMs: number }> = await tx.query(
      `SELECT subject_type || ':' || subject_id AS subject,
              floor(extract(epoch FROM first_seen_at) * 1000)::float8 AS "firstSeenMs"
       FROM ${S} WHERE tenant_id = $1 AND observation = 'ACTIVITY' AND first_seen_at > $2`,
      [tenantId, since],
    );
    return new Map(rows.map((row) => [row.subject, new Date(row.firstSeenMs)]));
  }

  async reappearedBetween(tx: Tx, tenantId: string, from: Date, to: Date): Promise<SightingRow[]> {
    return tx.query(
      `SELECT observation, subject_type AS "subjectType", subject_id AS "subjectId", key,
              first_seen_at AS "firstSeenAt", reappeared_at AS "reappearedAt", gap_minutes AS "gapMinutes",
              count_since_reappeared AS "countSinceReappeared"
       FROM ${S} WHERE tenant_id = $1 AND reappeared_at >= $2 AND reappeared_at < $3`,
      [tenantId, from, to],
    );
  }

  /** Subjects of the given types with traffic since `since` (GOVERNANCE_UNCLASSIFIED_ACTIVE). */
  async activeSince(
    tx: Tx,
    tenantId: string,
    subjectTypes: readonly SubjectType[],
    since: Date,
  ): Promise<Array<{ subjectType: SubjectType; subjectId: string; lastSeenAt: Date }>> {
    return tx.query(
      `SELECT subject_type AS "subjectType", subject_id AS "subjectId", last_seen_at AS "lastSeenAt"
       FROM ${S} WHERE tenant_id = $1 AND observation = 'ACTIVITY' AND key = ''
         AND subject_type = ANY($2) AND last_seen_at >= $3`,
      [tenantId, subjectTypes, since],
    );
  }

  /** Tenants with traffic since `since` (system scope: the tick spans tenants). */
  async activeTenants(tx: Tx, since: Date): Promise<string[]> {
    const rows: Array<{ tenantId: string }> = await tx.query(
      `SELECT tenant_id AS "tenantId" FROM ${S}
       WHERE observation = 'ACTIVITY' AND subject_type = 'TENANT' AND last_seen_at >= $1`,
      [since],
    );
    return rows.map((row) => row.tenantId);
  }

  async prune(tx: Tx, before: Date): Promise<void> {
    await tx.query(`DELETE FROM ${R} WHERE hour < $1`, [before]);
  }
}
