import { Injectable } from '@nestjs/common';
import { GROUP_BYS, GroupBy } from '@agp/contracts';
import { Tx, queryNamed } from '@agp/database';

import { AUDIT_SCHEMA } from '../../database/tokens';

import { GroupSeries, METRIC_KIND, statisticOfSummary } from '../engine/custom/metric-semantics';
import {
  SERIES_FIELDS,
  SeriesCell,
  SeriesRow,
  samplesOf,
  totalsOf,
  valueOf,
} from '../engine/custom/metric-series';
import { SeriesRead, firstAtOrAfter, samplesByGroup, spansOf } from './metric-series-spans';
import { distinctOver, summariesOver } from './metric-series-summaries';
import { CELLS_UPSERT, SELECT_OF, T, TOTALS, cellsParameter } from './metric-series.sql';

export type { SeriesRead } from './metric-series-spans';

// M29: the custom monitors' per-minute cells (`monitor_series`), written in the ingest's
// transaction and read by grouping at a tick.
@Injectable()
export class MetricSeriesRepository {
  /** Adds a batch's cells (one per grouping, group and minute) to what is stored. */
  async add(tx: Tx, tenantId: string, cells: readonly SeriesCell[]): Promise<void> {
    if (cells.length === 0) {
      return;
    }
    const totals = totalsOf(cells);
    // M33: the groups' totals in the same statement, sorted so that two batches lock them in order.
    await queryNamed(
      tx,
      `WITH cells AS (${CELLS_UPSERT})
       INSERT INTO ${TOTALS} AS t (tenant_id, group_by, group_key, events)
       SELECT $1, u.g, u.k, u.n FROM unnest($3::text[], $4::text[], $5::bigint[]) AS u(g, k, n)
       ON CONFLICT (tenant_id, group_by, group_key) DO UPDATE SET events = t.events + excluded.events`,
      [
        tenantId,
        cellsParameter(cells),
        totals.map((total) => total.groupBy),
        totals.map((total) => total.key),
        totals.map((total) => total.events),
      ],
    );
  }

  // M33: when every read wants groups of some volume, only the cells of the groups whose totals
  // reach the smallest volume asked are fetched; the samples are then counted here (M29, M21).
  async seriesOver(
    tx: Tx,
    tenantId: string,
    groupBy: GroupBy,
    reads: readonly SeriesRead[],
    wanted?: ReadonlyArray<ReadonlyArray<{ read: number; minSamples: number }>>,
  ): Promise<GroupSeries[][]> {
    if (reads.length === 0) {
      return [];
    }
    const fields = [...new Set(reads.flatMap((read) => SERIES_FIELDS[read.metric]))];
    const { inSpans, params } = spansOf(tenantId, groupBy, reads);
    const { wantsAll, keys } = await this.groupsToFetch(tx, tenantId, groupBy, reads, wanted);
    if (keys?.length === 0) {
      return reads.map(() => []);
    }
    const rows: SeriesRow[] = await tx.query(
      `SELECT group_key AS key, minute, ${fields.map((field) => SELECT_OF[field]).join(', ')}
       FROM ${T} WHERE tenant_id = $1 AND group_by = $2 AND (${inSpans})
         ${keys ? `AND group_key = ANY($${params.length + 1}::text[])` : ''}
       ORDER BY minute`,
      keys ? [...params, keys] : params,
    );
    const distinct = await distinctOver(tx, tenantId, groupBy, reads, keys);
    const samples = new Map<number, Map<string, number>>();
    const samplesIn = (j: number): Map<string, number> => {
      let byGroup = samples.get(j);
      if (!byGroup) {
        byGroup = samplesByGroup(rows, reads[j]);
        samples.set(j, byGroup);
      }
      return byGroup;
    };
    return reads.map(({ metric, range, minutes }, k) => {
      const isCount = METRIC_KIND[metric] === 'COUNT';
      const entries = wanted?.[k] ?? [];
      const isWanted = (group: string): boolean =>
        entries.some((e) => (samplesIn(e.read).get(group) ?? 0) >= e.minSamples);
      const byGroup = new Map<string, GroupSeries>();
      const skipped = new Set<string>();
      for (let i = firstAtOrAfter(rows, range.fromMinute); i < rows.length; i += 1) {
        const row = rows[i];
        if (row.minute >= range.toMinute) {
          break;
        }
        const rowSamples = samplesOf(metric, row);
        // A (group, minute) without this metric's events is not one of its minutes.
        if (rowSamples === 0 || skipped.has(row.key)) {
          continue;
        }
        let series = byGroup.get(row.key);
        if (!series) {
          if (!wantsAll[k] && !isWanted(row.key)) {
            skipped.add(row.key);
            continue;
          }
          series = { group: row.key, minutes: new Map(), samples: 0 };
          if (minutes === false && isCount) {
            series.total = 0;
          }
          const ids = distinct.get(k);
          if (ids) {
            series.distinct = ids.get(row.key) ?? 0;
          }
          byGroup.set(row.key, series);
        }
        if (series.total !== undefined) {
          // A count's value in a minute is its samples (M21): the window's total is their sum.
          series.total += rowSamples;
        } else if (minutes !== false) {
          series.minutes.set(row.minute, valueOf(metric, row));
        }
        series.samples += rowSamples;
      }
      return [...byGroup.values()];
    });
  }

  // M44: what `seriesOver` gives each read, with its window's values computed in the database: per
  // read and group its samples, a count's total, a distinct metric's distinct ids and the
  // statistics over minutes its monitors take (`SeriesRead.statistics`); no minutes leave the
  // database (M33).
  async windowValuesOver(
    tx: Tx,
    tenantId: string,
    groupBy: GroupBy,
    reads: readonly SeriesRead[],
    wanted?: ReadonlyArray<ReadonlyArray<{ read: number; minSamples: number }>>,
  ): Promise<GroupSeries[][]> {
    if (reads.length === 0) {
      return [];
    }
    const { wantsAll, keys } = await this.groupsToFetch(tx, tenantId, groupBy, reads, wanted);
    if (keys?.length === 0) {
      return reads.map(() => []);
    }
    const { summaries, distinct } = await summariesOver(tx, tenantId, groupBy, reads, keys);
    const all = reads.map(({ metric, range, statistics = [] }, k) => {
      const width = range.toMinute - range.fromMinute;
      const isCount = METRIC_KIND[metric] === 'COUNT';
      const ids = distinct.get(k);
      const byGroup = new Map<string, GroupSeries>();
      for (const [group, summary] of summaries[k]) {
        const series: GroupSeries = { group, minutes: new Map(), samples: summary.samples };
        if (isCount) {
          // A count's value in a minute is its samples (M21): the window's total is their sum.
          series.total = summary.samples;
        }
        if (ids) {
          series.distinct = ids.get(group) ?? 0;
        }
        if (statistics.length > 0) {
          series.values = Object.fromEntries(
            statistics.map((a) => [a, statisticOfSummary(metric, a, width, summary)]),
          );
        }
        byGroup.set(group, series);
      }
      return byGroup;
    });
    return reads.map((_read, k) => {
      const list = [...all[k].values()];
      if (wantsAll[k]) {
        return list;
      }
      const entries = wanted?.[k] ?? [];
      return list.filter((series) =>
        entries.some((e) => (all[e.read].get(series.group)?.samples ?? 0) >= e.minSamples),
      );
    });
  }

  // Which reads want every group (some monitor judges groups of any volume), and otherwise (M33)
  // the only groups whose cells are worth fetching: those whose totals reach the smallest volume
  // asked.
  private async groupsToFetch(
    tx: Tx,
    tenantId: string,
    groupBy: GroupBy,
    reads: readonly SeriesRead[],
    wanted?: ReadonlyArray<ReadonlyArray<{ read: number; minSamples: number }>>,
  ): Promise<{ wantsAll: boolean[]; keys: string[] | undefined }> {
    const wantsAll = reads.map((_read, k) => {
      const entries = wanted?.[k] ?? [];
      return entries.length === 0 || entries.some((e) => e.read < 0 || e.minSamples <= 0);
    });
    const keys = wantsAll.some(Boolean)
      ? undefined
      : await this.groupsOfAtLeast(
          tx,
          tenantId,
          groupBy,
          Math.min(...(wanted ?? []).flat().map((e) => e.minSamples)),
        );
    return { wantsAll, keys };
  }

  /** M33: the groups whose cells hold at least `events` traffic events in all. */
  private async groupsOfAtLeast(
    tx: Tx,
    tenantId: string,
    groupBy: GroupBy,
    events: number,
  ): Promise<string[]> {
    const rows: Array<{ key: string }> = await tx.query(
      `SELECT group_key AS key FROM ${TOTALS} WHERE tenant_id = $1 AND group_by = $2 AND events >= $3`,
      [tenantId, groupBy, events],
    );
    return rows.map((row) => row.key);
  }

  /** The first whole minute the cells hold (M29). */
  async startMinute(tx: Tx): Promise<number> {
    const rows: Array<{ minute: number }> = await tx.query(
      `SELECT ceil(extract(epoch FROM started_at) / 60)::integer AS minute FROM ${AUDIT_SCHEMA}.monitor_series_start`,
    );
    return rows[0]?.minute ?? Number.MAX_SAFE_INTEGER;
  }

  // Cells older than any window can reach are deleted (system scope), and M33's totals lowered by
  // what they held, in one statement (a group left with none loses its row) (M45).
  async prune(tx: Tx, beforeMinute: number): Promise<void> {
    const same = `t.tenant_id = g.tenant_id AND t.group_by = g.group_by AND t.group_key = g.group_key`;
    await tx.query(
      `WITH gone AS (
         DELETE FROM ${T}
         WHERE tenant_id = ANY(ARRAY(SELECT DISTINCT tenant_id FROM ${TOTALS}))
           AND group_by = ANY($2::text[]) AND minute < $1
         RETURNING tenant_id, group_by, group_key, traffic + llm_failovers AS n
       ), g AS (
         SELECT tenant_id, group_by, group_key, sum(n) AS n FROM gone GROUP BY 1, 2, 3
       ), lowered AS (
         UPDATE ${TOTALS} t SET events = t.events - g.n FROM g WHERE ${same} AND t.events > g.n
       )
       DELETE FROM ${TOTALS} t USING g WHERE ${same} AND t.events <= g.n`,
      [beforeMinute, GROUP_BYS],
    );
  }
}
