import { SubjectType } from '@agp/contracts';

import { RollupMetric, Sighting } from '../../src/monitors/engine/rollup-counters';
import { HourRow } from '../../src/monitors/rollups/rollups.repository';
import { Anomaly, isActive } from './anomalies';
import { Random } from './random';
import { Stream, TenantModel, rhythmOf, trendOf } from './traffic-model';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Day-to-day level noise of each subject: about 8 % (M11). */
const DAY_NOISE = 0.08;

export interface HourBatch {
  hour: Date;
  rows: HourRow[];
  sightings: Sighting[];
}

/** Writes a tenant's traffic hour by hour, with the anomalies applied (M11). */
export class TrafficGenerator {
  private readonly dayNoise = new Map<string, number>();
  private readonly anomaliesByStream = new Map<string, Anomaly[]>();

  /** This hour's burst multipliers, per subject and block (bursty subjects only). */
  private bursts = new Map<string, number>();

  constructor(
    private readonly model: TenantModel,
    private readonly anomalies: Anomaly[],
    private readonly random: Random,
    private readonly traceStart = new Date(0),
    private readonly burstBlockMinutes = 10,
  ) {
    for (const anomaly of anomalies) {
      const key = `${anomaly.target.type}:${anomaly.target.id}:${anomaly.target.metric}`;
      this.anomaliesByStream.set(key, [...(this.anomaliesByStream.get(key) ?? []), anomaly]);
    }
  }

  hour(hour: Date): HourBatch {
    const rows: HourRow[] = [];
    this.bursts = new Map();
    const tenantTotals = new Map<RollupMetric, number[]>();
    const activity = new Map<string, { type: SubjectType; id: string; minutes: number[] }>();
    // Calls first, then their outcomes, each call one draw of them (an outcome's extra events are
    // extra calls too): an error or a warning is always one of the subject's calls.
    const drawn = new Map<string, number[]>();
    const keyOf = (stream: Stream, metric = stream.metric): string =>
      `${stream.subjectType}:${stream.subjectId}:${metric}`;
    for (const stream of this.model.streams.filter((s) => !s.of)) {
      drawn.set(keyOf(stream), this.minutesOf(stream, hour));
    }
    for (const stream of this.model.streams.filter((s) => s.of)) {
      const calls = drawn.get(keyOf(stream, stream.of));
      drawn.set(
        keyOf(stream),
        calls ? this.outcomesOf(stream, hour, calls) : new Array<number>(60).fill(0),
      );
    }
    for (const stream of this.model.streams) {
      const minutes = drawn.get(keyOf(stream)) ?? [];
      const total = minutes.reduce((sum, n) => sum + n, 0);
      if (total === 0) {
        continue;
      }
      rows.push({
        hour,
        subjectType: stream.subjectType,
        subjectId: stream.subjectId,
        metric: stream.metric,
        minutes,
      });
      for (const metric of stream.tenantMetrics) {
        const sums = tenantTotals.get(metric) ?? new Array<number>(60).fill(0);
        minutes.forEach((n, m) => (sums[m] += n));
        tenantTotals.set(metric, sums);
      }
      const key = `${stream.subjectType}:${stream.subjectId}`;
      const seen = activity.get(key) ?? {
        type: stream.subjectType,
        id: stream.subjectId,
        minutes: new Array<number>(60).fill(0),
      };
      minutes.forEach((n, m) => (seen.minutes[m] += n));
      activity.set(key, seen);
    }
    for (const [metric, minutes] of tenantTotals) {
      rows.push({ hour, subjectType: 'TENANT', subjectId: this.model.tenantId, metric, minutes });
    }
    return { hour, rows, sightings: this.sightingsOf(hour, activity) };
  }

  private minutesOf(stream: Stream, hour: Date): number[] {
    const anomalies =
      this.anomaliesByStream.get(`${stream.subjectType}:${stream.subjectId}:${stream.metric}`) ??
      [];
    const noise = this.noiseOf(stream.subjectId, hour) * trendOf(stream, hour, this.traceStart);
    const minutes = new Array<number>(60);
    for (let m = 0; m < 60; m += 1) {
      const at = new Date(hour.getTime() + m * MINUTE_MS);
      let lambda =
        stream.peak * rhythmOf(stream, at, this.model.holidays) * noise * this.burstOf(stream, m);
      for (const anomaly of anomalies) {
        if (isActive(anomaly, at)) {
          lambda = lambda * anomaly.factor + anomaly.extraPerMinute;
        } else if (anomaly.silentFrom && at >= anomaly.silentFrom) {
          lambda = 0;
        }
      }
      minutes[m] = this.random.poisson(lambda);
    }
    return minutes;
  }

  /**
   * An outcome stream's minutes: each of the minute's calls is one with the stream's share (an
   * anomaly's factor multiplies it, at most 1); an anomaly's extra events are calls of their own
   * (added to `calls`) that all have the outcome.
   */
  private outcomesOf(stream: Stream, hour: Date, calls: number[]): number[] {
    const anomalies = this.anomaliesByStream.get(
      `${stream.subjectType}:${stream.subjectId}:${stream.metric}`,
    );
    const minutes = new Array<number>(60);
    for (let m = 0; m < 60; m += 1) {
      const at = new Date(hour.getTime() + m * MINUTE_MS);
      let share = stream.share ?? 0;
      let extra = 0;
      for (const anomaly of anomalies ?? []) {
        if (isActive(anomaly, at)) {
          share *= anomaly.factor;
          extra += this.random.poisson(anomaly.extraPerMinute);
        }
      }
      minutes[m] = this.random.binomial(calls[m] ?? 0, Math.min(1, share)) + extra;
      calls[m] = (calls[m] ?? 0) + extra;
    }
    return minutes;
  }

  /** The same multiplier for every stream of a subject in a block: outcomes burst with calls. */
  private burstOf(stream: Stream, minute: number): number {
    if (stream.burstCv <= 0) {
      return 1;
    }
    const key = `${stream.subjectId}:${Math.floor(minute / this.burstBlockMinutes)}`;
    let burst = this.bursts.get(key);
    if (burst === undefined) {
      burst = this.random.gammaMeanOne(1 / stream.burstCv ** 2);
      this.bursts.set(key, burst);
    }
    return burst;
  }

  private noiseOf(subjectId: string, hour: Date): number {
    const key = `${subjectId}:${Math.floor(hour.getTime() / DAY_MS)}`;
    let noise = this.dayNoise.get(key);
    if (noise === undefined) {
      noise = Math.exp(DAY_NOISE * this.random.normal());
      this.dayNoise.set(key, noise);
    }
    return noise;
  }

  /** First and last active minute of each subject in the hour, its tools, and injected new tools. */
  private sightingsOf(
    hour: Date,
    activity: Map<string, { type: SubjectType; id: string; minutes: number[] }>,
  ): Sighting[] {
    const sightings: Sighting[] = [];
    const at = (m: number): Date => new Date(hour.getTime() + m * MINUTE_MS);
    let tenantFirst = 60;
    let tenantLast = -1;
    for (const { type, id, minutes } of activity.values()) {
      const first = minutes.findIndex((n) => n > 0);
      if (first < 0 || type === 'TENANT') {
        continue;
      }
      const last = 59 - [...minutes].reverse().findIndex((n) => n > 0);
      tenantFirst = Math.min(tenantFirst, first);
      tenantLast = Math.max(tenantLast, last);
      const count = minutes.reduce((sum, n) => sum + n, 0);
      const observations: Array<['ACTIVITY' | 'TOOL_CALL', string]> = [['ACTIVITY', '']];
      if (type === 'MCP_SERVER') {
        const tools = this.model.subjects.find((s) => s.id === id)?.tools ?? [];
        observations.push(...tools.map((tool): ['TOOL_CALL', string] => ['TOOL_CALL', tool]));
      }
      for (const [observation, key] of observations) {
        sightings.push({
          observation,
          subjectType: type,
          subjectId: id,
          key,
          at: at(first),
          count,
        });
        sightings.push({
          observation,
          subjectType: type,
          subjectId: id,
          key,
          at: at(last),
          count: 0,
        });
      }
    }
    if (tenantLast >= 0) {
      sightings.push({
        observation: 'ACTIVITY',
        subjectType: 'TENANT',
        subjectId: this.model.tenantId,
        key: '',
        at: at(tenantFirst),
      });
      sightings.push({
        observation: 'ACTIVITY',
        subjectType: 'TENANT',
        subjectId: this.model.tenantId,
        key: '',
        at: at(tenantLast),
        count: 0,
      });
    }
    for (const anomaly of this.anomalies.filter((a) => a.toolName)) {
      for (let m = 0; m < 60; m += 1) {
        if (isActive(anomaly, at(m))) {
          const key = anomaly.toolName ?? '';
          sightings.push({
            observation: 'TOOL_CALL',
            subjectType: 'MCP_SERVER',
            subjectId: anomaly.subject.id,
            key,
            at: at(m),
          });
        }
      }
    }
    return sightings;
  }
}

export function hoursBetween(start: Date, end: Date): Date[] {
  const hours: Date[] = [];
  for (let t = Math.floor(start.getTime() / HOUR_MS) * HOUR_MS; t < end.getTime(); t += HOUR_MS) {
    hours.push(new Date(t));
  }
  return hours;
}
