import { Inject, Injectable, Optional } from '@nestjs/common';
import { Database } from '@agp/database';

import { AUDIT_DATABASE } from '../../database/tokens';

import { MonitorSettings, TRAFFIC_DETECTORS, TrafficDetector } from '../engine/detector-settings';
import { ownWindowLeans } from '../engine/detectors/own-window-lean';
import { Finding } from '../engine/monitors.types';
import { RollupMetric } from '../engine/rollup-counters';
import { RollupsRepository, WindowCounts, WindowSegment } from '../rollups/rollups.repository';
import { RateInput, SeriesOf, seriesKey } from '../engine/detectors/detector-input';
import {
  ERROR_RATE_DETECTORS,
  ErrorRateDetector,
  errorRateFindings,
  errorRateMetrics,
} from '../engine/detectors/error-rate-detectors';
import { HistoryDispersionService } from './history-dispersion.service';
import { NOVELTY_DETECTORS, noveltyFindings } from '../engine/detectors/novelty-detectors';
import {
  RATE_DETECTORS,
  RateDetector,
  rateFindings,
  rateMetrics,
} from '../engine/detectors/rate-detectors';
import { DAY_MS, MINUTE_MS, windowSegments } from '../engine/detectors/time-window';
import {
  WindowFindings,
  candidateSubjects,
  candidatesOnly,
  detectorSeriesKey,
  isSustainedDetector,
  sustainedFindings,
  sustainedWindows,
} from '../engine/detectors/sustained-windows';
import { MONITORS_OPTIONS, MonitorsOptions } from '../monitors.options';

/** M6: the window ends one minute before the tick, so that events still in flight are not missed. */
export const EVALUATION_DELAY_MINUTES = 1;
/** M6: baseline windows are widened by this on each side (four times the samples of 15 minutes). */
export const BASELINE_EXTEND_MINUTES = 22;
/** M18: each widened baseline window is read in this many pieces, about one window each. */
export const BASELINE_PARTS = 4;

/** Runs every enabled detector of one tenant at one tick, from rollups and sightings only. */
@Injectable()
export class DetectorEvaluatorService {
  constructor(
    @Inject(AUDIT_DATABASE) private readonly database: Database,
    private readonly rollups: RollupsRepository,
    private readonly history: HistoryDispersionService,
    @Optional() @Inject(MONITORS_OPTIONS) private readonly options: MonitorsOptions = {},
  ) {}

  /** Reads in short transactions of its own, never one inside another. */
  async evaluate(tenantId: string, tick: Date, settings: MonitorSettings): Promise<Finding[]> {
    const windowEnd = new Date(tick.getTime() - EVALUATION_DELAY_MINUTES * MINUTE_MS);
    const findings: Finding[] = [];
    const longest = Math.max(...TRAFFIC_DETECTORS.map((d) => settings.detectors[d].lookbackDays));
    const since = new Date(windowEnd.getTime() - (longest + 1) * DAY_MS);
    const novelty = NOVELTY_DETECTORS.filter((d) => settings.detectors[d].enabled);
    const widest = Math.max(0, ...novelty.map((d) => settings.detectors[d].windowMinutes));
    const [firstSeen, sightings] = await this.database.inTenant(tenantId, async (tx) => [
      await this.rollups.firstSeenAfter(tx, tenantId, since),
      widest > 0
        ? await this.rollups.reappearedBetween(
            tx,
            tenantId,
            new Date(windowEnd.getTime() - widest * MINUTE_MS),
            windowEnd,
          )
        : [],
    ]);
    for (const [windowMinutes, group] of this.rateGroups(settings)) {
      // M61: the own window, then the longer ones (the same detectors but failovers) beside it.
      const windows =
        this.options.sustainedWindows === false
          ? [windowMinutes]
          : sustainedWindows(windowMinutes, windowEnd);
      const own = await this.windowInput(
        tenantId,
        tick,
        windowEnd,
        windowMinutes,
        group,
        settings,
        firstSeen,
      );
      const ownSettings =
        settings.detectors[group.rate[0] ?? group.errorRate[0] ?? 'AGENT_VOLUME_ANOMALY'];
      // M63: the longer windows read and judge only the subjects whose own window moved.
      const subjects =
        windows.length > 1 ? candidateSubjects({ ...own, settings: ownSettings }) : [];
      const inputs = [
        own,
        ...(await Promise.all(
          windows
            .slice(1)
            .map((minutes) =>
              this.windowInput(
                tenantId,
                tick,
                windowEnd,
                minutes,
                group,
                settings,
                firstSeen,
                subjects,
              ),
            ),
        )),
      ];
      const inputOf = (minutes: number): Omit<RateInput, 'settings'> =>
        inputs[windows.indexOf(minutes)] ?? own;
      const byWindow = inputs.map((input) =>
        input === own
          ? findingsOver(input, group, settings, false)
          : findingsOver(
              candidatesOnly(input, { ...own, settings: ownSettings }),
              group,
              settings,
              true,
            ),
      );
      findings.push(
        ...sustainedFindings(
          byWindow,
          (f, minutes) => inputOf(minutes).series.get(detectorSeriesKey(f))?.days[0],
          // M79: the window asked (M88) leans the longer window's way by its own model.
          (f, minutes) =>
            ownWindowLeans(f, inputOf(minutes), settings.detectors[f.detector as TrafficDetector]),
        ),
      );
    }
    const tenantFirstSeen = firstSeen.get(`TENANT:${tenantId}`);
    for (const detector of novelty) {
      const detectorSettings = settings.detectors[detector];
      const from = windowEnd.getTime() - detectorSettings.windowMinutes * MINUTE_MS;
      findings.push(
        ...noveltyFindings(detector, {
          tenantId,
          tick,
          sightings: sightings.filter((row) => row.reappearedAt.getTime() >= from),
          tenantFirstSeen,
          settings: detectorSettings,
        }),
      );
    }
    return findings;
  }

  /** One window length's reads as the detectors' input (every length reads the same metrics). */
  private async windowInput(
    tenantId: string,
    tick: Date,
    windowEnd: Date,
    windowMinutes: number,
    group: { rate: RateDetector[]; errorRate: ErrorRateDetector[] },
    settings: MonitorSettings,
    firstSeen: Map<string, Date>,
    subjectIds?: readonly string[],
  ): Promise<Omit<RateInput, 'settings'>> {
    const lookback = Math.max(
      ...[...group.rate, ...group.errorRate].map((d) => settings.detectors[d].lookbackDays),
    );
    const days = Array.from({ length: lookback + 1 }, (_, day) => day);
    const metrics: RollupMetric[] = [
      ...new Set([...rateMetrics(group.rate), ...errorRateMetrics(group.errorRate)]),
    ];
    const slots = lookback + 1;
    // M40's read (once an hour per tenant) runs beside the windows' reads, not after them.
    const [counts, historyPairs] = await Promise.all([
      this.readWindows(
        tenantId,
        windowSegments(windowEnd, windowMinutes, days, BASELINE_EXTEND_MINUTES, BASELINE_PARTS),
        metrics,
        BASELINE_PARTS * slots - 1,
        subjectIds,
      ),
      this.history.pairsBefore(tenantId, windowEnd, lookback, metrics),
    ]);
    const series = new Map<string, SeriesOf>();
    const byKind = new Map<string, SeriesOf[]>();
    for (const row of counts) {
      const { days: totals, parts } = daysOf(row.counts, slots);
      const entry: SeriesOf = {
        subjectType: row.subjectType,
        subjectId: row.subjectId,
        metric: row.metric,
        days: totals,
        parts,
      };
      series.set(seriesKey(row.subjectType, row.subjectId, row.metric), entry);
      const kind = `${row.subjectType}:${row.metric}`;
      const list = byKind.get(kind);
      if (list) {
        list.push(entry);
      } else {
        byKind.set(kind, [entry]);
      }
    }
    return {
      exposure: (windowMinutes + 2 * BASELINE_EXTEND_MINUTES) / windowMinutes,
      tenantId,
      tick,
      windowStart: new Date(windowEnd.getTime() - windowMinutes * MINUTE_MS),
      windowMinutes,
      series,
      byKind,
      firstSeen,
      historyPairs,
    };
  }

  private async readWindows(
    tenantId: string,
    segments: WindowSegment[],
    metrics: RollupMetric[],
    lastSlot: number,
    subjectIds?: readonly string[],
  ): Promise<WindowCounts[]> {
    const read = (parity: number): Promise<WindowCounts[]> =>
      this.database.inTenant(tenantId, (tx) =>
        this.rollups.windowCounts(
          tx,
          tenantId,
          segments.filter((s) => s.day % 2 === parity),
          metrics,
          lastSlot,
          subjectIds,
        ),
      );
    const [even, odd] = await Promise.all([read(0), read(1)]);
    const merged = new Map<string, WindowCounts>();
    for (const rows of [even, odd]) {
      for (const row of rows) {
        const key = seriesKey(row.subjectType, row.subjectId, row.metric);
        const seen = merged.get(key);
        if (seen) {
          // Each slot is one day's (M18): the halves' counts are added in place.
          for (let slot = 0; slot < seen.counts.length; slot += 1) {
            seen.counts[slot] += row.counts[slot] ?? 0;
          }
        } else {
          merged.set(key, row);
        }
      }
    }
    return [...merged.values()];
  }

  /** Enabled count and error-rate detectors, grouped by window length so each group is one query. */
  private rateGroups(
    settings: MonitorSettings,
  ): Map<number, { rate: RateDetector[]; errorRate: ErrorRateDetector[] }> {
    const groups = new Map<number, { rate: RateDetector[]; errorRate: ErrorRateDetector[] }>();
    const groupOf = (minutes: number): { rate: RateDetector[]; errorRate: ErrorRateDetector[] } => {
      const group = groups.get(minutes) ?? { rate: [], errorRate: [] };
      groups.set(minutes, group);
      return group;
    };
    for (const detector of RATE_DETECTORS.filter((d) => settings.detectors[d].enabled)) {
      groupOf(settings.detectors[detector].windowMinutes).rate.push(detector);
    }
    for (const detector of ERROR_RATE_DETECTORS.filter((d) => settings.detectors[d].enabled)) {
      groupOf(settings.detectors[detector].windowMinutes).errorRate.push(detector);
    }
    return groups;
  }
}

/** The findings of `group`'s detectors over one window (the longer ones: M61's detectors only). */
function findingsOver(
  input: Omit<RateInput, 'settings'>,
  group: { rate: RateDetector[]; errorRate: ErrorRateDetector[] },
  settings: MonitorSettings,
  sustainedOnly: boolean,
): WindowFindings {
  const judged = sustainedOnly ? isSustainedDetector : (): boolean => true;
  const findings: Finding[] = [];
  for (const detector of group.rate.filter(judged)) {
    findings.push(...rateFindings(detector, { ...input, settings: settings.detectors[detector] }));
  }
  for (const detector of group.errorRate.filter(judged)) {
    findings.push(
      ...errorRateFindings(detector, { ...input, settings: settings.detectors[detector] }),
    );
  }
  return { minutes: input.windowMinutes, findings };
}

/** A subject's counts by day from its slots (part × slots + day, time-window.ts). */
function daysOf(counts: readonly number[], slots: number): { days: number[]; parts: number[][] } {
  const days: number[] = [];
  const parts: number[][] = [];
  for (let day = 0; day < slots; day += 1) {
    const pieces: number[] = [];
    let total = 0;
    for (let part = 0; part < (day === 0 ? 1 : BASELINE_PARTS); part += 1) {
      const n = Number(counts[part * slots + day] ?? 0);
      pieces.push(n);
      total += n;
    }
    days.push(total);
    parts.push(pieces);
  }
  return { days, parts };
}
