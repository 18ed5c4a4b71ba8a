import { SubjectType } from '@agp/contracts';

import { RollupMetric } from '../../src/monitors/engine/rollup-counters';
import { Random } from './random';
import { CLASSIC_SHAPES, TrafficShapes } from './traffic-shapes';

/** How many subjects of each kind a simulated tenant has. */
export interface Population {
  agents: number;
  users: number;
  mcpServers: number;
  llmGateways: number;
  llmProviders: number;
  channels: number;
  policies: number;
}

export const DEFAULT_POPULATION: Population = {
  agents: 40,
  users: 60,
  mcpServers: 12,
  llmGateways: 4,
  llmProviders: 3,
  channels: 6,
  policies: 25,
};

/** One simulated counter: a subject's metric at `peak` events per minute on a weekday afternoon. */
export interface Stream {
  subjectType: SubjectType;
  subjectId: string;
  metric: RollupMetric;
  peak: number;
  /** What the tenant's own counters add this stream's counts to. */
  tenantMetrics: RollupMetric[];
  /** Outcome streams: their share of the subject's calls (the stream's peak is calls × share). */
  share?: number;
  /** Outcome streams: the subject's metric whose calls they are outcomes of (each call one draw). */
  of?: RollupMetric;
  /** The subject's burstiness: coefficient of variation of its rate per block (0: smooth). */
  burstCv: number;
  /** The subject's steady change of level per day (0.05: 5 % more every day). */
  trendPerDay: number;
  /** The subject's time zone: its rhythm and weekend this many hours after UTC's (0: UTC). */
  shiftHours: number;
  /** Its weekend's (and holidays') level as a share of a weekday's (absent: a third, M11). */
  weekendLevel?: number;
  /** Its night's level as a share of its afternoon peak (absent: M11's 8 %). */
  nightLevel?: number;
  /** Its level multiplied by `factor` from `at` (ms) on: a step that is not an anomaly. */
  step?: { at: number; factor: number };
}

export interface SimulatedSubject {
  type: SubjectType;
  id: string;
  /** MCP servers: the tools they offer. */
  tools?: string[];
}

export interface TenantModel {
  tenantId: string;
  subjects: SimulatedSubject[];
  streams: Stream[];
  /** Holidays as days after the trace's start (each subject's local date, `TrafficShapes`). */
  holidays?: number[];
}

/** Shares of a policy's invocations (M11). */
const POLICY_SHARES: Array<[RollupMetric, number, RollupMetric[]]> = [
  ['BLOCKS', 0.04, ['BLOCKS']],
  ['WARNS', 0.06, ['WARNS']],
  ['HITL_HOLDS', 0.02, ['HITL_HOLDS']],
  ['ERRORS', 0.005, ['ERRORS']],
];

/** A skewed spread of per-subject peak rates: a few busy subjects, many quiet ones. */
function peakRate(random: Random, median: number): number {
  return median * Math.exp(0.9 * random.normal());
}

/**
 * A tenant's subjects and their counters (M11): agents, users, channels, MCP servers (with tools
 * and upstream errors), LLM gateways (with failovers), LLM providers (with errors) and policies
 * (invocations, blocks, warnings, holds, evaluation errors), plus unattributed tenant noise.
 */
export function buildTenantModel(
  tenantId: string,
  population: Population,
  random: Random,
  shapes: TrafficShapes = CLASSIC_SHAPES,
  span?: { start: Date; end: Date },
): TenantModel {
  const subjects: SimulatedSubject[] = [];
  const rawStreams: Array<Omit<Stream, 'burstCv' | 'trendPerDay' | 'shiftHours'>> = [];
  const streams = rawStreams;
  const add = (
    type: SubjectType,
    count: number,
    median: number,
    extra?: (id: string, peak: number) => void,
  ): void => {
    for (let i = 0; i < count; i += 1) {
      const id = random.uuid();
      const peak = peakRate(random, median);
      const subject: SimulatedSubject = { type, id };
      subjects.push(subject);
      streams.push({
        subjectType: type,
        subjectId: id,
        metric: 'REQUESTS',
        peak,
        tenantMetrics: type === 'AGENT' ? ['REQUESTS'] : [],
      });
      extra?.(id, peak);
      if (type === 'MCP_SERVER') {
        subject.tools = Array.from(
          { length: random.int(3, 7) },
          (_, t) => `tool_${t}_${id.slice(0, 4)}`,
        );
      }
    }
  };
  add('AGENT', population.agents, 2);
  add('USER', population.users, 1.5);
  add('CHANNEL', population.channels, 3);
  add('MCP_SERVER', population.mcpServers, 4, (id, peak) => {
    streams.push({
      subjectType: 'MCP_SERVER',
      subjectId: id,
      metric: 'ERRORS',
      peak: peak * 0.02,
      tenantMetrics: ['ERRORS', 'UNATTRIBUTED_ERRORS'],
      share: 0.02,
      of: 'REQUESTS',
    });
  });
  add('LLM_GATEWAY', population.llmGateways, 6, (id, peak) => {
    streams.push({
      subjectType: 'LLM_GATEWAY',
      subjectId: id,
      metric: 'LLM_CALLS',
      peak,
      tenantMetrics: ['LLM_CALLS'],
    });
    streams.push({
      subjectType: 'LLM_GATEWAY',
      subjectId: id,
      metric: 'LLM_FAILOVERS',
      peak: peak * 0.01,
      tenantMetrics: ['LLM_FAILOVERS'],
    });
  });
  for (let i = 0; i < population.llmProviders; i += 1) {
    const id = random.uuid();
    const peak = peakRate(random, 8);
    subjects.push({ type: 'LLM_PROVIDER', id });
    streams.push({
      subjectType: 'LLM_PROVIDER',
      subjectId: id,
      metric: 'LLM_CALLS',
      peak,
      tenantMetrics: [],
    });
    streams.push({
      subjectType: 'LLM_PROVIDER',
      subjectId: id,
      metric: 'ERRORS',
      peak: peak * 0.01,
      tenantMetrics: ['ERRORS', 'UNATTRIBUTED_ERRORS'],
      share: 0.01,
      of: 'LLM_CALLS',
    });
  }
  for (let i = 0; i < population.policies; i += 1) {
    const id = random.uuid();
    const peak = peakRate(random, shapes.policyPeak ?? 6);
    subjects.push({ type: 'POLICY', id });
    streams.push({
      subjectType: 'POLICY',
      subjectId: id,
      metric: 'INVOCATIONS',
      peak,
      tenantMetrics: [],
    });
    const rareWarns = shapes.rareWarnShare > 0 && random.next() < shapes.rareWarnShare;
    for (const [metric, usual, tenantMetrics] of POLICY_SHARES) {
      const share = metric === 'WARNS' && rareWarns ? shapes.rareWarnRate : usual;
      streams.push({
        subjectType: 'POLICY',
        subjectId: id,
        metric,
        peak: peak * share,
        tenantMetrics,
        share,
        of: 'INVOCATIONS',
      });
    }
  }
  subjects.push({ type: 'TENANT', id: tenantId });
  streams.push({
    subjectType: 'TENANT',
    subjectId: tenantId,
    metric: 'UNATTRIBUTED_WARNS',
    peak: 0.3 * (shapes.tenantLevel ?? 1),
    tenantMetrics: ['WARNS'],
  });
  streams.push({
    subjectType: 'TENANT',
    subjectId: tenantId,
    metric: 'UNATTRIBUTED_HITL_HOLDS',
    peak: 0.1 * (shapes.tenantLevel ?? 1),
    tenantMetrics: ['HITL_HOLDS'],
  });
  streams.push({
    subjectType: 'TENANT',
    subjectId: tenantId,
    metric: 'UNATTRIBUTED_ERRORS',
    peak: 0.1 * (shapes.tenantLevel ?? 1),
    tenantMetrics: ['ERRORS'],
  });
  const start = span?.start.getTime() ?? 0;
  return {
    tenantId,
    subjects,
    streams: shapeStreams(rawStreams, shapes, random, span),
    holidays: (shapes.holidays ?? []).map((day) => Math.floor(start / 86_400_000) + day),
  };
}

/** Gives each subject (all its streams alike) its burstiness, trend and time zone; none under CLASSIC. */
function shapeStreams(
  streams: Array<Omit<Stream, 'burstCv' | 'trendPerDay' | 'shiftHours'>>,
  shapes: TrafficShapes,
  random: Random,
  span?: { start: Date; end: Date },
): Stream[] {
  type Shape = Pick<
    Stream,
    'burstCv' | 'trendPerDay' | 'shiftHours' | 'weekendLevel' | 'step' | 'nightLevel'
  > & { busy?: number };
  const bySubject = new Map<string, Shape>();
  const shapeOf = (subjectType: string, subjectId: string): Shape => {
    let shape = bySubject.get(subjectId);
    if (!shape) {
      shape = { burstCv: 0, trendPerDay: 0, shiftHours: 0 };
      if (
        subjectType !== 'TENANT' &&
        shapes.burstyShare > 0 &&
        random.next() < shapes.burstyShare
      ) {
        shape.burstCv = random.between(...shapes.burstCv);
      }
      if (
        subjectType !== 'TENANT' &&
        shapes.trendingShare > 0 &&
        random.next() < shapes.trendingShare
      ) {
        shape.trendPerDay = random.between(...shapes.trendPerDay);
      }
      // Drawn only by shapes that shift subjects, so the earlier shapes' traces stay as they were.
      if (
        subjectType !== 'TENANT' &&
        shapes.shiftedShare > 0 &&
        random.next() < shapes.shiftedShare
      ) {
        shape.shiftHours = Math.round(random.between(...shapes.shiftHours));
      }
      // Held-out-3's shapes, drawn only by shapes that have them (the same reason).
      const weekly = shapes.weeklyShare ?? 0;
      if (subjectType !== 'TENANT' && weekly > 0 && random.next() < weekly) {
        shape.weekendLevel = random.between(...(shapes.weekendLevel ?? [WEEKEND, WEEKEND]));
      }
      const steps = shapes.stepShare ?? 0;
      if (subjectType !== 'TENANT' && steps > 0 && random.next() < steps) {
        const [low, high] = shapes.stepFactor ?? [1, 1];
        const [from, to] = [span?.start.getTime() ?? 0, span?.end.getTime() ?? 0];
        shape.step = {
          at: from + random.next() * (to - from),
          factor: Math.exp(random.between(Math.log(low), Math.log(high))),
        };
      }
      // Held-out-5's round-the-clock subjects, drawn only by shapes that have them.
      const roundTheClock = shapes.roundTheClockShare ?? 0;
      if (subjectType !== 'TENANT' && roundTheClock > 0 && random.next() < roundTheClock) {
        shape.nightLevel = random.between(...(shapes.nightLevel ?? [NIGHT, NIGHT]));
      }
      // Issue 38's busy agents and bursty tenant, drawn only by shapes that have them.
      const busy = shapes.busyShare ?? 0;
      if (subjectType === 'AGENT' && busy > 0 && random.next() < busy) {
        const [low, high] = shapes.busyFactor ?? [1, 1];
        shape.busy = Math.exp(random.between(Math.log(low), Math.log(high)));
        shape.burstCv = random.between(...(shapes.busyBurstCv ?? [0, 0]));
      }
      if (subjectType === 'TENANT' && shapes.tenantBurstCv) {
        shape.burstCv = random.between(...shapes.tenantBurstCv);
      }
      bySubject.set(subjectId, shape);
    }
    return shape;
  };
  return streams.map((stream) => {
    const { busy, ...shape } = shapeOf(stream.subjectType, stream.subjectId);
    return { ...stream, ...shape, peak: stream.peak * (busy ?? 1) };
  });
}

/** A weekend's level as a share of a weekday's (M11). */
const WEEKEND = 0.33;

/** The night's level as a share of the afternoon peak (M11). */
const NIGHT = 0.08;

/**
 * M11: the daily rhythm in UTC: a working-day bell from 07:00 to 20:00 over a night floor, weekends
 * at a third of a weekday; for a subject `shiftHours` from UTC, the same in its own time zone; with
 * a weekly shape of its own, its weekend at `weekendLevel`; on a holiday (UTC day numbers of the
 * subject's local date) at its weekend level; running round the clock, its night at `nightLevel`.
 */
export function rhythm(
  at: Date,
  shiftHours = 0,
  weekendLevel = WEEKEND,
  holidays: readonly number[] = [],
  nightLevel = NIGHT,
): number {
  const local = new Date(at.getTime() + shiftHours * 3_600_000);
  const hour = local.getUTCHours() + local.getUTCMinutes() / 60;
  const day = Math.exp(-((hour - 13.5) ** 2) / (2 * 3.2 ** 2));
  const level = nightLevel + (1 - nightLevel) * day;
  const weekday = local.getUTCDay();
  const isHoliday = holidays.includes(Math.floor(local.getTime() / 86_400_000));
  return weekday === 0 || weekday === 6 || isHoliday ? level * weekendLevel : level;
}

/** A subject's level at `at` from its trend, 1 at the start of the trace, and its step if any. */
export function trendOf(stream: Stream, at: Date, traceStart: Date): number {
  const trend = Math.exp(stream.trendPerDay * ((at.getTime() - traceStart.getTime()) / 86_400_000));
  return trend * stepOf(stream, at);
}

/** The factor of a subject's step at `at` (1 before it, or without one). */
export function stepOf(stream: Stream, at: Date): number {
  return stream.step && at.getTime() >= stream.step.at ? stream.step.factor : 1;
}

/** A stream's rhythm at `at`, in its time zone, with its weekly shape and the tenant's holidays. */
export function rhythmOf(stream: Stream, at: Date, holidays: readonly number[] = []): number {
  return rhythm(at, stream.shiftHours, stream.weekendLevel, holidays, stream.nightLevel);
}
