import 'reflect-metadata';

import {
  DEFAULT_DETECTOR_SETTINGS,
  DetectorSettings,
} from '../src/monitors/engine/detector-settings';
import { Deviation } from '../src/monitors/engine/baselines/baseline';
import {
  BASELINE_EXTEND_MINUTES,
  BASELINE_PARTS,
  EVALUATION_DELAY_MINUTES,
} from '../src/monitors/tick/detector-evaluator.service';
import {
  RateInput,
  SeriesOf,
  seasonalDaysOf,
  seriesKey,
} from '../src/monitors/engine/detectors/detector-input';
import {
  ERROR_RATE_SPECS,
  ErrorRateDetector,
  assessErrorRate,
  errorRatePrior,
} from '../src/monitors/engine/detectors/error-rate-detectors';
import {
  RATE_DETECTORS,
  RATE_SPECS,
  RateDetector,
  assessSeries,
} from '../src/monitors/engine/detectors/rate-detectors';
import { learnedDayKinds } from '../src/monitors/engine/baselines/day-kinds';
import {
  NO_PAIRS,
  QuarterPairs,
  historyDispersion,
  quarterPairsOf,
} from '../src/monitors/engine/baselines/history-dispersion';
import { windowSegments } from '../src/monitors/engine/detectors/time-window';
import { seasonalBaseline } from '../src/monitors/engine/baselines/seasonal-baseline';
import { Finding } from '../src/monitors/engine/monitors.types';
import { ANOMALY_KIND_NAMES, Anomaly } from '../tools/simulator/anomalies';
import { drawnTail, isDrawnDetectable } from '../tools/simulator/anomaly-planner';
import { normalEquivalent } from '../src/monitors/engine/baselines/count-tests';
import { planSimulation } from '../tools/simulator/simulation';
import { hoursBetween } from '../tools/simulator/traffic-generator';
import { SHAPES } from '../tools/simulator/traffic-shapes';
import { scoreQuality, sideBySide } from './monitors-quality';
import { Engine, WORKING_ENGINE, engineAt } from './base-engine';
import { sustainedWindows } from '../src/monitors/engine/detectors/sustained-windows';

/**
 * The quality bench's count and share detectors replayed in memory (a development tool, not the
 * bench): the same simulated trace, the same window reads (M6, M18) computed from the generated
 * minutes instead of the rollups, the same detector functions, and for every miss and false alarm
 * what the detector saw (observed, expected, tail probability as z). Novelty detectors are left
 * to the real bench (they read sightings). Figures reported anywhere come from the real bench.
 *
 * node -r ./scripts/register-ts.js bench/monitors-quality-replay.ts (BENCH_SEED, BENCH_SHAPES,
 * BENCH_TICK_MINUTES as in the bench).
 */
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
const TRACE_END = new Date('2026-03-02T00:00:00Z');
const SEED = Number(process.env.BENCH_SEED ?? 7);
const TICK_EVERY = Number(process.env.BENCH_TICK_MINUTES ?? 5);
const SHAPES_NAME = process.env.BENCH_SHAPES ?? 'shaped';
const WINDOW = 15;
const LOOKBACK = 7;
/** BENCH_Z: every count and share detector's zScore (default: their default settings). */
const Z = process.env.BENCH_Z ? Number(process.env.BENCH_Z) : undefined;

interface Stored {
  subjectType: SeriesOf['subjectType'];
  subjectId: string;
  metric: SeriesOf['metric'];
  /** Running sum of the minutes from the trace start (index m: minutes before m). */
  running: Float64Array;
  /** Whether an hour row exists (the hour's total is not 0). */
  hours: Uint8Array;
  /** M40's quarter pairs summed over the hour rows before hour h (index h). */
  pairs: Float64Array[];
}

function main(): void {
  const shapes = SHAPES[SHAPES_NAME];
  if (!shapes) {
    throw new Error(`BENCH_SHAPES: one of ${Object.keys(SHAPES).join(', ')}`);
  }
  const simulation = planSimulation({
    seed: SEED,
    days: 14,
    end: TRACE_END,
    anomalyDays: 7,
    anomalies: [...ANOMALY_KIND_NAMES, ...ANOMALY_KIND_NAMES],
    shapes,
  });
  const start = simulation.start.getTime();
  const hourList = hoursBetween(simulation.start, simulation.end);
  const minutes = hourList.length * 60;
  const stored = new Map<string, Stored & { raw: Float64Array }>();
  const firstSeen = new Map<string, Date>();
  for (const [h, hour] of hourList.entries()) {
    const batch = simulation.generator.hour(hour);
    for (const row of batch.rows) {
      const key = seriesKey(row.subjectType, row.subjectId, row.metric);
      let entry = stored.get(key);
      if (!entry) {
        entry = {
          subjectType: row.subjectType,
          subjectId: row.subjectId,
          metric: row.metric,
          running: new Float64Array(0),
          pairs: [],
          raw: new Float64Array(minutes),
          hours: new Uint8Array(hourList.length),
        };
        stored.set(key, entry);
      }
      entry.hours[h] = 1;
      const raw = entry.raw;
      row.minutes.forEach((n, m) => {
        raw[h * 60 + m] = (raw[h * 60 + m] ?? 0) + n;
      });
    }
    for (const s of batch.sightings) {
      if (s.observation !== 'ACTIVITY') {
        continue;
      }
      const key = `${s.subjectType}:${s.subjectId}`;
      const seen = firstSeen.get(key);
      if (!seen || s.at < seen) {
        firstSeen.set(key, s.at);
      }
    }
  }
  for (const entry of stored.values()) {
    entry.running = new Float64Array(minutes + 1);
    for (let m = 0; m < minutes; m += 1) {
      entry.running[m + 1] = (entry.running[m] ?? 0) + (entry.raw[m] ?? 0);
    }
    // M40's sums as the database computes them: the hour rows that exist, four quarters each.
    entry.pairs = [0, 1, 2].map(() => new Float64Array(hourList.length + 1));
    for (let h = 0; h < hourList.length; h += 1) {
      const quarters = [0, 1, 2, 3].map(
        (q) => (entry.running[h * 60 + (q + 1) * 15] ?? 0) - (entry.running[h * 60 + q * 15] ?? 0),
      );
      const sums = entry.hours[h] ? quarterPairsOf([quarters]) : NO_PAIRS;
      [sums.pairs, sums.excess, sums.scale].forEach((value, i) => {
        const column = entry.pairs[i];
        if (column) {
          column[h + 1] = (column[h] ?? 0) + value;
        }
      });
    }
  }
  const evaluationStart = TRACE_END.getTime() - 7 * DAY_MS;
  const inputs = new Map<string, RateInput>();
  const days = Array.from({ length: LOOKBACK + 1 }, (_, day) => day);
  const slots = LOOKBACK + 1;
  const inputAt = (tick: number, window = WINDOW): RateInput => {
    const cached = inputs.get(`${tick}:${window}`);
    if (cached) {
      return cached;
    }
    const windowEnd = new Date(tick - EVALUATION_DELAY_MINUTES * MINUTE_MS);
    const segments = windowSegments(
      windowEnd,
      window,
      days,
      BASELINE_EXTEND_MINUTES,
      BASELINE_PARTS,
    );
    const series = new Map<string, SeriesOf>();
    const byKind = new Map<string, SeriesOf[]>();
    const historyPairs = new Map<string, QuarterPairs[]>();
    for (const [key, entry] of stored) {
      const counts = new Array<number>(BASELINE_PARTS * slots).fill(0);
      let present = false;
      for (const segment of segments) {
        const h = Math.round((segment.hour.getTime() - start) / HOUR_MS);
        if (h < 0 || h >= hourList.length || !entry.hours[h]) {
          continue;
        }
        present = true;
        const from = h * 60 + segment.lo - 1;
        const to = h * 60 + segment.hi;
        counts[segment.day] =
          (counts[segment.day] ?? 0) + (entry.running[to] ?? 0) - (entry.running[from] ?? 0);
      }
      if (!present) {
        continue;
      }
      const parts = days.map((day) =>
        Array.from(
          { length: day === 0 ? 1 : BASELINE_PARTS },
          (_, part) => counts[part * slots + day] ?? 0,
        ),
      );
      const value: SeriesOf = {
        subjectType: entry.subjectType,
        subjectId: entry.subjectId,
        metric: entry.metric,
        days: parts.map((p) => p.reduce((sum, n) => sum + n, 0)),
        parts,
      };
      series.set(key, value);
      // M40: the whole hours of the lookback before the window's hour, per 24 hours back.
      const to = Math.floor((windowEnd.getTime() - start) / HOUR_MS);
      const perDay: QuarterPairs[] = [];
      for (let day = 0; day < LOOKBACK; day += 1) {
        const hi = Math.max(0, to - day * 24);
        const lo = Math.max(0, hi - 24);
        const [pairs, excess, scale] = entry.pairs.map((c) => (c[hi] ?? 0) - (c[lo] ?? 0));
        if ((pairs ?? 0) > 0) {
          perDay.push({ pairs: pairs ?? 0, excess: excess ?? 0, scale: scale ?? 0 });
        }
      }
      historyPairs.set(key, perDay);
      const kind = `${entry.subjectType}:${entry.metric}`;
      byKind.set(kind, [...(byKind.get(kind) ?? []), value]);
    }
    const since = windowEnd.getTime() - (LOOKBACK + 1) * DAY_MS;
    const input: RateInput = {
      tenantId: simulation.model.tenantId,
      tick: new Date(tick),
      windowStart: new Date(windowEnd.getTime() - window * MINUTE_MS),
      windowMinutes: window,
      exposure: (window + 2 * BASELINE_EXTEND_MINUTES) / window,
      series,
      byKind,
      firstSeen: new Map([...firstSeen].filter(([, at]) => at.getTime() > since)),
      settings: DEFAULT_DETECTOR_SETTINGS.AGENT_VOLUME_ANOMALY,
      historyPairs,
    };
    inputs.set(`${tick}:${window}`, input);
    return input;
  };
  if (process.env.DEBUG_AT) {
    const input = inputAt(
      new Date(process.env.DEBUG_AT).getTime(),
      Number(process.env.DEBUG_WINDOW ?? WINDOW),
    );
    for (const [key, series] of input.series) {
      if (key.includes(process.env.DEBUG_SUBJECT ?? '-')) {
        process.stdout.write(
          `${key} days ${series.days.join(',')} parts ${JSON.stringify(series.parts)}\n`,
        );
        const pieces = series.parts?.[1]?.length ?? 0;
        const days = seasonalDaysOf(input)(series.subjectType, series.subjectId).map(
          ({ day, sameKind, isHoliday }) => ({
            age: day,
            perWindow: (series.days[day] ?? 0) / input.exposure,
            sameKind,
            isHoliday,
            pieces: (series.parts?.[day] ?? []).map((n) => (n * pieces) / input.exposure),
          }),
        );
        const phi = historyDispersion(input.historyPairs?.get(key) ?? [], input.windowMinutes);
        const kinds = learnedDayKinds(days, input.exposure, phi, input.windowStart.getUTCDay());
        const workdays = kinds.filter((d) => !d.isHoliday);
        const baseline = seasonalBaseline(
          workdays.some((d) => d.sameKind) ? workdays : kinds,
          input.exposure,
          input.exposure / pieces,
        );
        process.stdout.write(
          `window ${input.windowStart.toISOString()} holidays ${days
            .filter((d) => d.isHoliday)
            .map((d) => d.age)
            .join(',')} ` +
            `history φ ${phi.toFixed(3)} kinds ${kinds.map((d) => (d.sameKind ? 1 : 0)).join('')} ${JSON.stringify(baseline)}\n`,
        );
      }
    }
    return;
  }
  const started = Date.now();
  // Issue 38: main's detectors (BENCH_BASE_REF) beside the working tree's on the same trace, and
  // with BENCH_TODAY=1 today's (each detector's own window alone, M64).
  const base = engineAt();
  const methods: Record<string, { engine: Engine; sustained: boolean }> = {
    ...(process.env.BENCH_TODAY === '1'
      ? { today: { engine: WORKING_ENGINE, sustained: false } }
      : {}),
    // BENCH_NO_BASE=1: the working tree alone (a diagnosis run, half the time).
    ...(process.env.BENCH_NO_BASE === '1'
      ? {}
      : { [`main ${base.commit}`]: { engine: base.engine, sustained: true } }),
    new: { engine: WORKING_ENGINE, sustained: true },
  };
  const byMethod: Record<string, Finding[]> = {};
  // The working tree's longer-window findings that its gates refused, and which gate (a diagnosis).
  const refused: Array<{ finding: Finding; minutes: number; gate: string }> = [];
  for (let tick = evaluationStart; tick < TRACE_END.getTime(); tick += TICK_EVERY * MINUTE_MS) {
    const own = inputAt(tick, WINDOW);
    for (const [method, { engine, sustained }] of Object.entries(methods)) {
      const { rate, errorRate } = engine;
      const { sustainedWindows: windowsOf, candidatesOnly: candidates } = engine.sustained;
      const settingsIn = (d: RateDetector | ErrorRateDetector): DetectorSettings => {
        const defaults = engine.settings.DEFAULT_DETECTOR_SETTINGS[d];
        return Z === undefined ? defaults : { ...defaults, zScore: Z };
      };
      const windows = sustained
        ? windowsOf(WINDOW, new Date(tick - EVALUATION_DELAY_MINUTES * MINUTE_MS))
        : [WINDOW];
      const byWindow = windows.map((window) => {
        // M63: a longer window judges only the subjects its gate could let through.
        const input = window === WINDOW ? own : candidates(inputAt(tick, window), own);
        return {
          minutes: window,
          findings: [
            ...rate.RATE_DETECTORS.flatMap((d) =>
              rate.rateFindings(d, { ...input, settings: settingsIn(d) }),
            ),
            ...errorRate.ERROR_RATE_DETECTORS.flatMap((d) =>
              errorRate.errorRateFindings(d, { ...input, settings: settingsIn(d) }),
            ),
          ],
        };
      });
      // M88: the window asked (main's engine asks the own one, with one argument).
      const asked = (minutes = WINDOW): RateInput =>
        minutes === WINDOW ? own : inputAt(tick, minutes);
      const recent = (f: Finding, minutes?: number): number | undefined =>
        asked(minutes).series.get(engine.sustained.detectorSeriesKey(f))?.days[0];
      const leans = (f: Finding, minutes?: number): boolean =>
        engine.lean.ownWindowLeans(f, asked(minutes), settingsIn(f.detector as RateDetector));
      const kept = engine.sustained.sustainedFindings(byWindow, recent, leans);
      (byMethod[method] ??= []).push(...kept);
      if (method === 'new') {
        refused.push(...refusedOf(byWindow, kept, engine, recent));
      }
    }
    for (const key of inputs.keys()) {
      if (key.startsWith(`${tick}:`)) {
        inputs.delete(key);
      }
    }
  }
  const findings = byMethod.new ?? [];
  const subjectsCount = simulation.model.subjects.length;
  process.stdout.write(
    `${sideBySide(
      Object.fromEntries(
        Object.entries(byMethod).map(([method, found]) => [
          method,
          scoreQuality(simulation.anomalies, found, subjectsCount, 7 * 24),
        ]),
      ),
    )}\n`,
  );
  for (const [method, found] of Object.entries(byMethod).filter(([m]) => m !== 'new')) {
    for (const alarm of scoreQuality(simulation.anomalies, found, subjectsCount, 7 * 24)
      .falseAlarms) {
      process.stdout.write(`FALSE (${method}) ${alarm.at} ${alarm.detector} ${alarm.summary}\n`);
    }
  }
  const isScored = (a: Anomaly): boolean =>
    (RATE_DETECTORS as string[]).includes(a.detector) || a.detector in ERROR_RATE_SPECS;
  const subjects = simulation.model.subjects.length;
  // Every anomaly explains the findings on what it touches; only the count and share ones are scored.
  const all = scoreQuality(simulation.anomalies, findings, subjects, 7 * 24);
  const scoredReport = scoreQuality(
    simulation.anomalies.filter(isScored),
    findings,
    subjects,
    7 * 24,
  );
  const report = { ...scoredReport, falseAlarms: all.falseAlarms };
  const out = (text: string): boolean => process.stdout.write(`${text}\n`);
  // M50: the anomalies the drawn trace holds, judged as the plan judges their expected size.
  const planOptions = {
    traceStart: simulation.start,
    from: simulation.start,
    to: simulation.end,
    kinds: [],
    shapes,
    holidays: simulation.model.holidays,
  };
  const drawnCount = (type: string, id: string, metric: string, from: Date, to: Date): number => {
    const running = stored.get(seriesKey(type, id, metric))?.running;
    const at = (d: Date): number => running?.[Math.round((d.getTime() - start) / MINUTE_MS)] ?? 0;
    return at(to) - at(from);
  };
  const drawn = simulation.anomalies.filter((a) =>
    isDrawnDetectable(a, simulation.model, planOptions, drawnCount),
  );
  const drawnZ = (a: Anomaly): string =>
    normalEquivalent(drawnTail(a, simulation.model, planOptions, drawnCount)).toFixed(2);
  const drawnReport = scoreQuality(drawn.filter(isScored), findings, subjects, 7 * 24);
  for (const a of simulation.anomalies.filter((x) => !drawn.includes(x))) {
    out(`NOT DRAWN ${describeAnomaly(a)} (drawn z ${drawnZ(a)})`);
  }
  out(
    `M50 scoring (drawn anomalies only): found ${drawnReport.found} / ${drawnReport.injected} (${((100 * drawnReport.found) / drawnReport.injected).toFixed(1)} %); false alarms as below`,
  );
  out(
    `replay: seed ${SEED}, shapes ${SHAPES_NAME}, ticks every ${TICK_EVERY} min, ${subjects} subjects, ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  out(
    `count and share anomalies found ${report.found} / ${report.injected} (${((100 * report.found) / report.injected).toFixed(1)} %); false alarms ${report.falseAlarms.length} (${((report.falseAlarms.length * 10_000) / report.subjectHours).toFixed(2)} per 10k subject-hours)`,
  );
  for (const [family, entry] of Object.entries(report.byFamily)) {
    out(`  ${family}: ${entry.found} / ${entry.injected}`);
  }
  for (const missed of report.missed) {
    out(`MISSED ${describeAnomaly(missed)} (drawn z ${drawnZ(missed)})`);
    out(`   best: ${bestDuring(missed, inputAt)}`);
    for (const r of refused.filter(
      (x) =>
        x.finding.detector === missed.detector &&
        x.finding.subject.id === missed.subject.id &&
        x.finding.detectedAt.getTime() >= missed.start.getTime() &&
        x.finding.detectedAt.getTime() <=
          missed.start.getTime() + (missed.minutes + 20) * MINUTE_MS,
    )) {
      out(
        `   refused by ${r.gate}: ${dayHour(r.finding.detectedAt.getTime())} ${r.minutes} min ${r.finding.summary}`,
      );
    }
  }
  for (const alarm of report.falseAlarms) {
    const tick = new Date(alarm.at).getTime();
    const [type, id] = alarm.subject.split(':');
    out(`FALSE ${alarm.at} ${alarm.detector} ${alarm.subject} ${dayHour(tick)} ${alarm.summary}`);
    out(`   ${judgeText(alarm.detector as RateDetector, type ?? '', id ?? '', inputAt(tick))}`);
  }
}

/** The longer-window findings `sustainedFindings` left out, each with the gate that refused it. */
function refusedOf(
  byWindow: ReadonlyArray<{ minutes: number; findings: Finding[] }>,
  kept: readonly Finding[],
  engine: Engine,
  recent: (f: Finding, minutes?: number) => number | undefined,
): Array<{ finding: Finding; minutes: number; gate: string }> {
  const keys = new Set(kept.map((f) => `${f.detector}:${f.subject.id}`));
  return byWindow.slice(1).flatMap(({ minutes, findings }) =>
    findings
      .filter((f) => !keys.has(`${f.detector}:${f.subject.id}`))
      .map((finding) => {
        const alone = engine.sustained.sustainedFindings(
          byWindow.map((w) => ({
            minutes: w.minutes,
            findings: w.minutes === minutes ? [finding] : [],
          })),
          recent,
          () => true,
        );
        return { finding, minutes, gate: alone.length > 0 ? 'lean (M79)' : 'under way (M62)' };
      }),
  );
}

function describeAnomaly(a: Anomaly): string {
  return `${a.kind} ${a.detector} ${a.subject.type}:${a.subject.id.slice(0, 8)} ${a.start.toISOString()} ${dayHour(a.start.getTime())} ${a.minutes} min factor ${a.factor.toFixed(2)} extra ${a.extraPerMinute.toFixed(2)}/min`;
}

function dayHour(t: number): string {
  const d = new Date(t);
  return `${['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()]} ${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
}

/** The most extreme tail probability the anomaly's detector gave its subject while it lasted. */
function bestDuring(a: Anomaly, inputAt: (tick: number, window?: number) => RateInput): string {
  let best: { z: number; text: string } | undefined;
  const first = Math.ceil(a.start.getTime() / (TICK_EVERY * MINUTE_MS)) * TICK_EVERY * MINUTE_MS;
  for (
    let tick = first;
    tick <= a.start.getTime() + (a.minutes + 20) * MINUTE_MS;
    tick += TICK_EVERY * MINUTE_MS
  ) {
    for (const window of sustainedWindows(WINDOW)) {
      const input = inputAt(tick, window);
      const deviation = judge(
        a.detector,
        a.subject.type,
        a.subject.id,
        input,
        a.factor < 1 && a.factor > 0,
      );
      const drop = a.factor < 1 && a.factor > 0;
      if (deviation && (!best || (drop ? deviation.z < best.z : deviation.z > best.z))) {
        const judged = sustainedWindows(
          WINDOW,
          new Date(tick - EVALUATION_DELAY_MINUTES * MINUTE_MS),
        ).includes(window);
        best = {
          z: deviation.z,
          text: `${dayHour(tick)} ${window} min ${show(deviation)}${judged ? '' : ' (window not judged then: M62 weekend rule)'}`,
        };
      }
    }
  }
  return best?.text ?? 'no baseline';
}

function show(d: Deviation): string {
  return `${d.direction} observed ${d.observed} expected ${d.expected.toFixed(2)} ratio ${d.ratio.toFixed(2)} z ${d.z.toFixed(2)}`;
}

function judgeText(detector: RateDetector, type: string, id: string, input: RateInput): string {
  const up = judge(detector, type, id, input, false);
  const down = judge(detector, type, id, input, true);
  const series = seriesFor(detector, type, id, input);
  return `${up ? show(up) : '-'} | ${down ? show(down) : '-'} | days ${series?.days.join(',') ?? '?'}`;
}

function seriesFor(
  detector: string,
  type: string,
  id: string,
  input: RateInput,
): SeriesOf | undefined {
  const metric =
    detector in ERROR_RATE_SPECS
      ? ERROR_RATE_SPECS[detector as ErrorRateDetector].calls
      : RATE_SPECS[detector as RateDetector].metric;
  return input.series.get(seriesKey(type, id, metric));
}

/** The detector's deviation with no cut at all, in one direction. */
function judge(
  detector: string,
  type: string,
  id: string,
  input: RateInput,
  drop: boolean,
): Deviation | undefined {
  const base = DEFAULT_DETECTOR_SETTINGS[detector as RateDetector];
  const relaxed: DetectorSettings = drop
    ? { ...base, zScore: -40, spikeRatio: Infinity, dropRatio: Infinity }
    : { ...base, zScore: -40, spikeRatio: 0, dropRatio: 0, minRatePct: 0 };
  const series = seriesFor(detector, type, id, input);
  if (!series) {
    return undefined;
  }
  const withSettings = { ...input, settings: relaxed };
  const daysOf = seasonalDaysOf(withSettings);
  return detector in ERROR_RATE_SPECS
    ? assessErrorRate(
        series,
        daysOf,
        withSettings,
        relaxed,
        errorRatePrior(ERROR_RATE_SPECS[detector as ErrorRateDetector], daysOf, withSettings),
      )
    : assessSeries(detector as RateDetector, series, daysOf, withSettings, relaxed);
}

main();
