import { randomUUID } from 'node:crypto';

import { GroupBy, MonitorMetric } from '@agp/contracts';
import { Database, Tx } from '@agp/database';
import { ROOT_LOGGER } from '@agp/http';
import { JobRuns } from '@agp/jobs';
import { Logger } from 'pino';

import { AUDIT_SCHEMA } from '../src/database/tokens';
import { AlertRaiserService } from '../src/monitors/alerts/alert-raiser.service';
import { GOVERNANCE_DETECTORS } from '../src/monitors/engine/detector-settings';
import { MonitorConfigService } from '../src/monitors/config/monitor-config.service';
import { CustomMonitorsEvaluatorService } from '../src/monitors/custom/custom-monitors-evaluator.service';
import { CustomMonitorsRepository } from '../src/monitors/custom/custom-monitors.repository';
import { RollupSeriesRepository } from '../src/monitors/custom/rollup-series.repository';
import { DetectorEvaluatorService } from '../src/monitors/tick/detector-evaluator.service';
import { seriesKey } from '../src/monitors/engine/detectors/detector-input';
import { DetectorTickService } from '../src/monitors/tick/detector-tick.service';
import { QuarterPairs } from '../src/monitors/engine/baselines/history-dispersion';
import { HistoryDispersionRepository } from '../src/monitors/tick/history-dispersion.repository';
import { HistoryDispersionService } from '../src/monitors/tick/history-dispersion.service';
import { GovernanceEvaluatorService } from '../src/monitors/governance/governance-evaluator.service';
import { GovernanceProjectionRepository } from '../src/monitors/governance/governance-projection.repository';
import { QuietService } from '../src/monitors/quiet/quiet.service';
import { RollupMetric } from '../src/monitors/engine/rollup-counters';
import {
  RollupsRepository,
  WindowCounts,
  WindowSegment,
  windowParameters,
} from '../src/monitors/rollups/rollups.repository';
import { GroupSeries } from '../src/monitors/engine/custom/metric-semantics';
import {
  SERIES_FIELDS,
  SeriesCell,
  SeriesField,
  SeriesRow,
  samplesOf,
  valueOf,
} from '../src/monitors/engine/custom/metric-series';
import { MetricSeriesRepository } from '../src/monitors/custom/metric-series.repository';
import { SeriesRead, firstAtOrAfter, spansOf } from '../src/monitors/custom/metric-series-spans';
import {
  CELLS_UPSERT,
  SAMPLES_SQL,
  SELECT_OF,
  cellsParameter,
} from '../src/monitors/custom/metric-series.sql';
import { MonitorsBench } from './monitors-bench-app';

const CELLS = `${AUDIT_SCHEMA}.monitor_series`;

/** The cells' fields of each metric as read before M35: a distinct metric's ids themselves. */
const FIELDS_BEFORE: Readonly<Record<MonitorMetric, readonly SeriesField[]>> = {
  ...SERIES_FIELDS,
  USER_DISTINCT: ['users', 'userEvents'],
  AGENT_DISTINCT: ['agents', 'agentEvents'],
};

/** The ids a distinct metric counts in a cell. */
function idsOfRow(metric: MonitorMetric, row: SeriesRow): readonly string[] | undefined {
  return metric === 'USER_DISTINCT'
    ? (row.users ?? [])
    : metric === 'AGENT_DISTINCT'
      ? (row.agents ?? [])
      : undefined;
}

/**
 * The custom monitors' cells read as `main` read them before M44: every cell of the judged groups
 * over the windows fetched (M33's bound), and the window values made in the process from the
 * minutes, or from totals where no monitor needs minutes (M36).
 */
export class SeriesBeforeM44 extends MetricSeriesRepository {
  override windowValuesOver(
    tx: Tx,
    tenantId: string,
    groupBy: GroupBy,
    reads: readonly SeriesRead[],
    wanted?: ReadonlyArray<ReadonlyArray<{ read: number; minSamples: number }>>,
  ): Promise<GroupSeries[][]> {
    return this.seriesOver(tx, tenantId, groupBy, reads, wanted);
  }
}

/**
 * The bench's baseline of M33: the custom monitors' cells written and read as `main` did before it
 * (M29), so that before and after run in one process on one database. When every read wants groups of
 * some volume, one aggregate over the grouping's cells first sums each group's samples per window
 * (a parallel scan of the whole wide table), then the cells of the groups wanted are fetched.
 */
export class SeriesBeforeM33 extends SeriesBeforeM44 {
  /** The cells alone, without M33's totals. */
  override async add(tx: Tx, tenantId: string, cells: readonly SeriesCell[]): Promise<void> {
    if (cells.length > 0) {
      await tx.query(CELLS_UPSERT, [tenantId, cellsParameter(cells)]);
    }
  }

  override async seriesOver(
    tx: Tx,
    tenantId: string,
    groupBy: GroupBy,
    reads: readonly SeriesRead[],
    wanted?: ReadonlyArray<ReadonlyArray<{ read: number; minSamples: number }>>,
  ): Promise<GroupSeries[][]> {
    if (reads.length === 0) {
      return [];
    }
    const fields = [...new Set(reads.flatMap((read) => FIELDS_BEFORE[read.metric]))];
    const { inSpans, params } = spansOf(tenantId, groupBy, reads);
    const needed = wanted
      ? await this.groupsWantedBefore(tx, params, inSpans, reads, wanted)
      : undefined;
    const keys = needed?.every((set) => set !== undefined)
      ? [...new Set(needed.flatMap((set) => [...(set ?? [])]))]
      : undefined;
    if (keys?.length === 0) {
      return reads.map(() => []);
    }
    const rows: SeriesRow[] = await tx.query(
      `SELECT group_key AS key, minute, ${fields.map((field) => SELECT_OF[field]).join(', ')}
       FROM ${CELLS} WHERE tenant_id = $1 AND group_by = $2 AND (${inSpans})
         ${keys ? `AND group_key = ANY($${params.length + 1}::text[])` : ''}
       ORDER BY minute`,
      keys ? [...params, keys] : params,
    );
    return reads.map(({ metric, range }, k) => {
      const only = needed?.[k];
      const byGroup = new Map<string, GroupSeries>();
      const ids = new Map<string, Set<string>>();
      for (let i = firstAtOrAfter(rows, range.fromMinute); i < rows.length; i += 1) {
        const row = rows[i];
        if (row.minute >= range.toMinute) {
          break;
        }
        const samples = samplesOf(metric, row);
        // A (group, minute) without this metric's events is not one of its minutes.
        if (samples === 0 || (only && !only.has(row.key))) {
          continue;
        }
        let series = byGroup.get(row.key);
        if (!series) {
          series = { group: row.key, minutes: new Map(), samples: 0 };
          byGroup.set(row.key, series);
        }
        series.minutes.set(row.minute, valueOf(metric, row));
        series.samples += samples;
        const rowIds = idsOfRow(metric, row);
        if (rowIds) {
          const seen = ids.get(row.key) ?? new Set<string>();
          rowIds.forEach((id) => seen.add(id));
          ids.set(row.key, seen);
        }
      }
      for (const [group, seen] of ids) {
        const series = byGroup.get(group);
        if (series) {
          series.distinct = seen.size;
        }
      }
      return [...byGroup.values()];
    });
  }

  /**
   * The groups each read must give (undefined: all of them): one aggregate over the cells, each
   * group's samples in the window of every read some entry names.
   */
  private async groupsWantedBefore(
    tx: Tx,
    params: unknown[],
    inSpans: string,
    reads: readonly SeriesRead[],
    wanted: ReadonlyArray<ReadonlyArray<{ read: number; minSamples: number }>>,
  ): Promise<Array<Set<string> | undefined>> {
    const all = wanted.map(
      (entries) => entries.length === 0 || entries.some((e) => e.read < 0 || e.minSamples <= 0),
    );
    if (all.every(Boolean)) {
      return wanted.map(() => undefined);
    }
    const named = [
      ...new Set(wanted.flatMap((entries, k) => (all[k] ? [] : entries.map((e) => e.read)))),
    ];
    const sums = named.map((j, i) => {
      const { metric } = reads[j];
      const at = params.length + 2 * i;
      return `sum(${SAMPLES_SQL[metric]}) FILTER (WHERE minute >= $${at + 1} AND minute < $${at + 2}) AS s${i}`;
    });
    const rows: Array<Record<string, string | null>> = await tx.query(
      `SELECT group_key AS key, ${sums.join(', ')}
       FROM ${CELLS} WHERE tenant_id = $1 AND group_by = $2 AND (${inSpans}) GROUP BY group_key`,
      [...params, ...named.flatMap((j) => [reads[j].range.fromMinute, reads[j].range.toMinute])],
    );
    return wanted.map((entries, k) => {
      if (all[k]) {
        return undefined;
      }
      const groups = new Set<string>();
      for (const row of rows) {
        if (entries.some((e) => Number(row[`s${named.indexOf(e.read)}`] ?? 0) >= e.minSamples)) {
          groups.add(String(row.key));
        }
      }
      return groups;
    });
  }
}

/**
 * The detectors' reads of `main` before M35: the window counts as integer arrays grouped over the
 * hour rows themselves, the young subjects' first sightings as timestamps.
 */
export class RollupReadsBeforeM35 extends RollupsRepository {
  override async windowCounts(
    tx: Tx,
    tenantId: string,
    segments: WindowSegment[],
    metrics: readonly RollupMetric[],
    lastDay = Math.max(0, ...segments.map((s) => s.day)),
  ): Promise<WindowCounts[]> {
    const byDay = Array.from(
      { length: lastDay + 1 },
      (_, day) =>
        `coalesce(sum(r.running[w.hi] - coalesce(r.running[w.lo - 1], 0)) FILTER (WHERE w.day = ${day}), 0)`,
    ).join(', ');
    await tx.query(`SET LOCAL work_mem = '64MB'`);
    return tx.query(
      `SELECT r.subject_type AS "subjectType", r.subject_id AS "subjectId", r.metric,
              ARRAY[${byDay}]::int[] AS counts
       FROM unnest($2::timestamptz[], $3::int[], $4::int[], $5::int[]) AS w(hour, lo, hi, day)
       JOIN ${AUDIT_SCHEMA}.monitor_rollups r ON r.tenant_id = $1 AND r.hour = w.hour
       WHERE r.hour = ANY($2::timestamptz[]) AND r.metric = ANY($6::text[])
       GROUP BY 1, 2, 3`,
      windowParameters(tenantId, segments, metrics),
    );
  }

  override async firstSeenAfter(tx: Tx, tenantId: string, since: Date): Promise<Map<string, Date>> {
    const rows: Array<{ subjectType: string; subjectId: string; firstSeenAt: Date }> =
      await tx.query(
        `SELECT subject_type AS "subjectType", subject_id AS "subjectId", first_seen_at AS "firstSeenAt"
         FROM ${AUDIT_SCHEMA}.monitor_sightings
         WHERE tenant_id = $1 AND observation = 'ACTIVITY' AND first_seen_at > $2`,
        [tenantId, since],
      );
    return new Map(rows.map((row) => [`${row.subjectType}:${row.subjectId}`, row.firstSeenAt]));
  }
}

/**
 * The whole tick as `main` ran it before M33–M36, for the bench's before/after in one run: the
 * same services, with the custom monitors reading as before M33, and the three evaluations of a
 * tenant one after the other.
 */
export class TickBeforeM33 {
  readonly custom: CustomMonitorsEvaluatorService;
  readonly traffic: DetectorEvaluatorService;
  private readonly runs: JobRuns;

  constructor(private readonly bench: MonitorsBench) {
    const { app, database } = bench;
    this.runs = new JobRuns(database);
    this.custom = new CustomMonitorsEvaluatorService(
      database,
      {},
      app.get(CustomMonitorsRepository),
      app.get(RollupSeriesRepository),
      new SeriesBeforeM33(),
    );
    // M40's history read is the same on both paths: only the reads M33–M36 changed differ.
    this.traffic = new DetectorEvaluatorService(
      database,
      new RollupReadsBeforeM35(),
      app.get(HistoryDispersionService),
    );
  }

  /** The tick of `minute`; how many findings it raised. */
  async tick(minute: Date): Promise<number> {
    const { app, database } = this.bench;
    // The claim and its end as the service's tick has them (F30), so both paths pay for them.
    if (!(await this.runs.claim('audit-monitors', minute))) {
      return 0;
    }
    const correlationId = randomUUID();
    await app.get(QuietService).recordExpiries(minute, correlationId);
    const since = new Date(minute.getTime() - 35 * 86_400_000);
    const tenants = await database.asSystem(async (tx) => [
      ...new Set([
        ...(await app.get(RollupsRepository).activeTenants(tx, since)),
        ...(await app.get(GovernanceProjectionRepository).tenants(tx)),
        ...(await app.get(CustomMonitorsRepository).tenants(tx)),
      ]),
    ]);
    let found = 0;
    for (const tenantId of tenants) {
      const settings = await database.inTenant(tenantId, (tx) =>
        app.get(MonitorConfigService).settingsOf(tx, tenantId),
      );
      const traffic = await this.traffic.evaluate(tenantId, minute, settings);
      const governance = await app
        .get(GovernanceEvaluatorService)
        .evaluate(tenantId, minute, settings);
      const custom = await this.custom.evaluate(tenantId, minute);
      const selfResolving = [...governance, ...custom.findings];
      const findings = [...traffic, ...selfResolving];
      await database.inTenant(tenantId, async (tx) => {
        const raiser = app.get(AlertRaiserService);
        const suppressionOf = await app.get(QuietService).lookupAt(tx, tenantId, minute);
        await raiser.raise(tx, tenantId, findings, correlationId, suppressionOf);
        await raiser.resolveClosed(
          tx,
          tenantId,
          GOVERNANCE_DETECTORS.filter((d) => settings.detectors[d].enabled),
          custom.evaluated,
          selfResolving,
          correlationId,
          minute,
        );
      });
      found += findings.length;
    }
    await this.runs.finish('audit-monitors', minute, 3_600_000);
    return found;
  }
}

/** M40's history as `main` read it before M45: the whole lookback once an hour per tenant. */
export class HistoryBeforeM45 extends HistoryDispersionService {
  private readonly lastRead = new Map<
    string,
    { key: string; pairs: Map<string, QuarterPairs[]> }
  >();

  constructor(
    private readonly db: Database,
    private readonly reads: HistoryDispersionRepository,
  ) {
    super(db, reads);
  }

  override async pairsBefore(
    tenantId: string,
    windowEnd: Date,
    lookbackDays: number,
    metrics: readonly RollupMetric[],
  ): Promise<Map<string, QuarterPairs[]>> {
    const to = new Date(Math.floor(windowEnd.getTime() / 3_600_000) * 3_600_000);
    const from = new Date(to.getTime() - lookbackDays * 86_400_000);
    const sorted = [...metrics].sort();
    const key = `${to.toISOString()}|${lookbackDays}|${sorted.join(',')}`;
    const cached = this.lastRead.get(tenantId);
    if (cached?.key === key) {
      return cached.pairs;
    }
    const rows = await this.db.inTenant(tenantId, (tx) =>
      this.reads.quarterPairs(tx, tenantId, from, to, sorted),
    );
    const pairs = new Map<string, QuarterPairs[]>();
    for (const row of rows) {
      const series = seriesKey(row.subjectType, row.subjectId, row.metric);
      pairs.set(series, [
        ...(pairs.get(series) ?? []),
        { pairs: row.pairs, excess: row.excess, scale: row.scale },
      ]);
    }
    this.lastRead.set(tenantId, { key, pairs });
    return pairs;
  }
}

/**
 * The whole tick as `main` ran it before M44–M45, for the bench's before/after in one run: the
 * service's own tick (M34's evaluations at once) built with the custom monitors' reads of before
 * M44 and the history read of before M45.
 */
export function tickBeforeM44(bench: MonitorsBench): {
  tick: DetectorTickService;
  custom: CustomMonitorsEvaluatorService;
  history: HistoryBeforeM45;
} {
  const { app, database } = bench;
  const custom = new CustomMonitorsEvaluatorService(
    database,
    {},
    app.get(CustomMonitorsRepository),
    app.get(RollupSeriesRepository),
    new SeriesBeforeM44(),
  );
  const history = new HistoryBeforeM45(database, app.get(HistoryDispersionRepository));
  const tick = new DetectorTickService(
    database,
    app.get<Logger>(ROOT_LOGGER),
    app.get(RollupsRepository),
    app.get(MonitorConfigService),
    new DetectorEvaluatorService(database, app.get(RollupsRepository), history),
    app.get(AlertRaiserService),
    app.get(GovernanceEvaluatorService),
    app.get(GovernanceProjectionRepository),
    custom,
    app.get(CustomMonitorsRepository),
    app.get(QuietService),
    app.get(MetricSeriesRepository),
  );
  return { tick, custom, history };
}
