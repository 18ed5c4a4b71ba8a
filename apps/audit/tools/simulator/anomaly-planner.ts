import { DEFAULT_DETECTOR_SETTINGS } from '../../src/monitors/engine/detector-settings';
import { RollupMetric } from '../../src/monitors/engine/rollup-counters';
import { ANOMALY_KINDS, Anomaly, AnomalyKind } from './anomalies';
import { Random } from './random';
import {
  NegativeBinomial,
  betaBinomialTail,
  negativeBinomialLower,
  negativeBinomialUpper,
} from '../../src/monitors/engine/baselines/count-tests';
import { Stream, TenantModel, rhythm, rhythmOf, stepOf, trendOf } from './traffic-model';
import { TrafficShapes } from './traffic-shapes';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Anomalies keep this far apart, so that each finding has one cause to be scored against. */
const SPACING_MS = 45 * MINUTE_MS;
const WINDOW = 15;

export interface PlanOptions {
  /** Start of the trace (history begins here). */
  traceStart: Date;
  /** The anomalies fall in [from, to). */
  from: Date;
  to: Date;
  kinds: AnomalyKind[];
  shapes: TrafficShapes;
  /** The tenant's holidays (`TenantModel.holidays`). */
  holidays?: readonly number[];
}

/**
 * With `anyHour` shapes an anomaly is kept only where the subject's own variation (its Poisson
 * counts, bursts and day noise at that hour) would reach the anomalous mean in a 15-minute window
 * less often than this: anything milder is not an anomaly of that subject, whatever its ratio.
 */
const DETECTABLE_TAIL = 1e-9;
/** Day-to-day level noise of the generator (M11), part of every stream's variation. */
const DAY_NOISE = 0.08;

/**
 * Places the requested anomalies (M11): each on a subject busy enough, at that time of day, for the
 * anomaly to be detectable at all under the default guards (a spike must pass the minimum volume
 * with room to spare, a drop needs a baseline above its guard), at least 90 minutes apart.
 */
export function planAnomalies(model: TenantModel, options: PlanOptions, random: Random): Anomaly[] {
  const planned: Anomaly[] = [];
  const used = new Set<string>();
  for (const kind of options.kinds) {
    for (let attempt = 0; attempt < 500; attempt += 1) {
      const anomaly = tryPlace(kind, model, options, random, used);
      const clashes =
        anomaly &&
        planned.some((p) => Math.abs(p.start.getTime() - anomaly.start.getTime()) < SPACING_MS);
      if (anomaly && !clashes) {
        if (kind === 'NEW_MCP_SERVER') {
          model.subjects.push({ type: 'MCP_SERVER', id: anomaly.subject.id });
          model.streams.push({
            subjectType: 'MCP_SERVER',
            subjectId: anomaly.subject.id,
            metric: 'REQUESTS',
            peak: 0,
            tenantMetrics: [],
            burstCv: 0,
            trendPerDay: 0,
            shiftHours: 0,
          });
        }
        planned.push(anomaly);
        used.add(anomaly.target.id);
        break;
      }
    }
  }
  return planned.sort((a, b) => a.start.getTime() - b.start.getTime());
}

function tryPlace(
  kind: AnomalyKind,
  model: TenantModel,
  options: PlanOptions,
  random: Random,
  used: Set<string>,
): Anomaly | undefined {
  const spec = ANOMALY_KINDS[kind];
  const dormant = kind === 'DORMANT_AGENT' || kind === 'DORMANT_USER';
  const earliest = dormant
    ? Math.max(options.from.getTime(), options.traceStart.getTime() + 10 * DAY_MS)
    : options.from.getTime();
  const start = options.shapes.anyHour
    ? new Date(
        Math.floor(
          random.between(earliest, options.to.getTime() - 2 * 60 * MINUTE_MS) / MINUTE_MS,
        ) * MINUTE_MS,
      )
    : new Date(
        Math.floor(random.between(earliest, options.to.getTime() - DAY_MS / 2) / DAY_MS) * DAY_MS +
          Math.round(random.between(8 * 60, 18 * 60)) * MINUTE_MS,
      );
  const isDrop = spec.factor > 0 && spec.factor < 1;
  const minutes = isDrop ? random.int(60, 91) : random.int(30, 61);
  const base = {
    kind,
    detector: spec.detector,
    start,
    minutes,
    factor: spec.factor,
    extraPerMinute: 0,
    ...sizedByShapes(kind, start, options, random),
  };
  const candidates = model.streams.filter(
    (s) => s.subjectType === spec.subjectType && s.metric === spec.metric && !used.has(s.subjectId),
  );
  const level = rhythm(start);
  const shaped = options.shapes.anyHour;
  const detectors = DEFAULT_DETECTOR_SETTINGS;
  // eslint-disable-next-line @typescript-eslint/switch-exhaustiveness-check -- the rest are plain rate anomalies
  switch (kind) {
    case 'NEW_MCP_SERVER': {
      const id = random.uuid();
      return {
        ...base,
        factor: 1,
        extraPerMinute: 1,
        subject: { type: 'MCP_SERVER', id },
        target: { type: 'MCP_SERVER', id, metric: 'REQUESTS' },
        affected: [id],
      };
    }
    case 'NOVEL_TOOL': {
      const server = pick(
        model.streams.filter(
          (s) =>
            s.subjectType === 'MCP_SERVER' && s.metric === 'REQUESTS' && !used.has(s.subjectId),
        ),
        random,
      );
      return (
        server && {
          ...base,
          factor: 1,
          subject: { type: 'MCP_SERVER', id: server.subjectId },
          target: { type: 'MCP_SERVER', id: server.subjectId, metric: 'TOOL_CALLS' },
          toolName: `novel_tool_${random.int(1_000, 9_999)}`,
          affected: [server.subjectId],
        }
      );
    }
    case 'DORMANT_AGENT':
    case 'DORMANT_USER': {
      const stream = pick(
        candidates.filter((s) => s.peak >= 0.5),
        random,
      );
      return (
        stream && {
          ...base,
          extraPerMinute: 1.5,
          subject: { type: stream.subjectType, id: stream.subjectId },
          target: { type: stream.subjectType, id: stream.subjectId, metric: stream.metric },
          silentFrom: new Date(options.traceStart.getTime() + 2 * DAY_MS),
          affected: [stream.subjectId, model.tenantId],
        }
      );
    }
    case 'TENANT_ERRORS':
    case 'TENANT_WARNS':
    case 'TENANT_HITL': {
      const settings = detectors[spec.detector];
      const tenantStreams = model.streams.filter((s) => s.tenantMetrics.includes(spec.metric));
      // Subjects in other time zones are at their own hour of the day (held-out-2).
      const tenantRate =
        options.shapes.shiftedShare > 0
          ? tenantStreams.reduce(
              (sum, s) => sum + s.peak * rhythmOf(s, start, options.holidays) * stepOf(s, start),
              0,
            )
          : tenantPeak(model, spec.metric) * level;
      if (
        shaped
          ? !countDetectable(tenantStreams, start, options, spec.factor)
          : tenantRate * WINDOW * spec.factor < 2 * settings.minVolume
      ) {
        return undefined;
      }
      const policy = pick(candidates, random);
      return (
        policy && {
          ...base,
          factor: 1,
          extraPerMinute: (spec.factor - 1) * tenantRate,
          subject: { type: 'TENANT', id: model.tenantId },
          target: { type: 'POLICY', id: policy.subjectId, metric: spec.metric },
          affected: [model.tenantId, policy.subjectId],
        }
      );
    }
    case 'LLM_GATEWAY_FAILOVERS': {
      const gateway = pick(candidates, random);
      return (
        gateway && {
          ...base,
          factor: 1,
          extraPerMinute: 2,
          subject: { type: 'LLM_GATEWAY', id: gateway.subjectId },
          target: { type: 'LLM_GATEWAY', id: gateway.subjectId, metric: 'LLM_FAILOVERS' },
          affected: [gateway.subjectId, model.tenantId],
        }
      );
    }
    case 'POLICY_WARN_RARE_TO_COMMON': {
      const rare = Math.min(...candidates.map((s) => s.share ?? 1));
      const policy = pick(
        candidates.filter(
          (s) =>
            (s.share ?? 1) <= rare &&
            shareDetectable(invocationsOf(model, s), s.share ?? 1, 0.4, start, options),
        ),
        random,
      );
      return (
        policy && {
          ...base,
          factor: 0.4 / (policy.share ?? 1),
          subject: { type: 'POLICY', id: policy.subjectId },
          target: { type: 'POLICY', id: policy.subjectId, metric: 'WARNS' },
          affected: [policy.subjectId, model.tenantId],
        }
      );
    }
    default:
      return shaped
        ? placeDetectable(kind, base, candidates, model, options, random)
        : placeRate(kind, base, candidates, model, level, random);
  }
}

/**
 * Issue 38: a volume or invocation anomaly's size and length, and an MCP error burst's time, drawn
 * from the shapes' ranges (nothing drawn for shapes without them, so earlier traces stay as they were).
 */
function sizedByShapes(
  kind: AnomalyKind,
  start: Date,
  options: PlanOptions,
  random: Random,
): Partial<Pick<Anomaly, 'start' | 'minutes' | 'factor'>> {
  const spec = ANOMALY_KINDS[kind];
  const shapes = options.shapes;
  const counted = spec.metric === 'REQUESTS' || spec.metric === 'INVOCATIONS';
  const sized: Partial<Pick<Anomaly, 'start' | 'minutes' | 'factor'>> = {};
  const range = ([low, high]: [number, number]): number => random.between(low, high);
  if (counted && spec.factor > 1 && shapes.spikeFactor && shapes.spikeMinutes) {
    sized.factor = range(shapes.spikeFactor);
    sized.minutes = Math.round(range(shapes.spikeMinutes));
  }
  if (counted && spec.factor > 0 && spec.factor < 1 && shapes.dropFactor && shapes.dropMinutes) {
    sized.factor = range(shapes.dropFactor);
    sized.minutes = Math.round(range(shapes.dropMinutes));
  }
  if (kind === 'MCP_SERVER_ERRORS' && shapes.errorBurstHours && shapes.errorBurstMinutes) {
    const day = Math.floor(start.getTime() / DAY_MS) * DAY_MS;
    const minute = Math.floor(range(shapes.errorBurstHours) * 60);
    sized.start = new Date(Math.max(day + minute * MINUTE_MS, options.from.getTime()));
    sized.minutes = Math.round(range(shapes.errorBurstMinutes));
  }
  return sized;
}

/** Spikes, drops and error bursts on a subject's own stream. */
function placeRate(
  kind: AnomalyKind,
  base: Pick<Anomaly, 'kind' | 'detector' | 'start' | 'minutes' | 'factor' | 'extraPerMinute'>,
  candidates: Stream[],
  model: TenantModel,
  level: number,
  random: Random,
): Anomaly | undefined {
  const spec = ANOMALY_KINDS[kind];
  const settings = DEFAULT_DETECTOR_SETTINGS[spec.detector];
  const isError = spec.metric === 'ERRORS';
  const qualifying = candidates.filter((s) => {
    const window = s.peak * level * WINDOW;
    if (isError) {
      // The calls behind the errors: 2 % (MCP) or 1 % (provider) of them fail normally.
      const calls = window / (s.subjectType === 'MCP_SERVER' ? 0.02 : 0.01);
      return (
        calls >= 2 * settings.minBaselineVolume && window * spec.factor >= 2 * settings.minVolume
      );
    }
    return spec.factor < 1
      ? window >= 1.5 * settings.minBaselineVolume
      : window * spec.factor >= 2 * settings.minVolume;
  });
  const stream = pick(qualifying, random);
  if (!stream) {
    return undefined;
  }
  const touchesTenant = touchesTenantOf(model, stream);
  return {
    ...base,
    subject: { type: stream.subjectType, id: stream.subjectId },
    target: { type: stream.subjectType, id: stream.subjectId, metric: stream.metric },
    affected: touchesTenant ? [stream.subjectId, model.tenantId] : [stream.subjectId],
  };
}

/** `anyHour` shapes: spikes, drops and error bursts kept where the subject cannot produce them itself. */
function placeDetectable(
  kind: AnomalyKind,
  base: Pick<Anomaly, 'kind' | 'detector' | 'start' | 'minutes' | 'factor' | 'extraPerMinute'>,
  candidates: Stream[],
  model: TenantModel,
  options: PlanOptions,
  random: Random,
): Anomaly | undefined {
  const spec = ANOMALY_KINDS[kind];
  const qualifying = candidates.filter((s) =>
    s.share !== undefined && s.metric === 'ERRORS' && s.subjectType !== 'POLICY'
      ? shareDetectable(
          callsOf(model, s),
          s.share,
          s.share * spec.factor,
          base.start,
          options,
          base.minutes,
        )
      : countDetectable([s], base.start, options, base.factor, base.minutes),
  );
  const stream = pick(qualifying, random);
  if (!stream) {
    return undefined;
  }
  const touchesTenant = touchesTenantOf(model, stream);
  return {
    ...base,
    subject: { type: stream.subjectType, id: stream.subjectId },
    target: { type: stream.subjectType, id: stream.subjectId, metric: stream.metric },
    affected: touchesTenant ? [stream.subjectId, model.tenantId] : [stream.subjectId],
  };
}

/**
 * A stream's expected count in a window of `window` minutes from `at` (15: the rhythm at `at`, as
 * M11 planned; longer: the rhythm summed in 5-minute steps), and its variation beyond Poisson.
 */
function windowOf(
  streams: Stream[],
  at: Date,
  options: PlanOptions,
  window = WINDOW,
): NegativeBinomial {
  let mean = 0;
  let variance = 0;
  for (const s of streams) {
    const level = (t: Date): number =>
      s.peak * rhythmOf(s, t, options.holidays) * trendOf(s, t, options.traceStart);
    let m = level(at) * WINDOW;
    if (window !== WINDOW) {
      m = 0;
      for (let step = 0; step < window; step += 5) {
        m += level(new Date(at.getTime() + (step + 2.5) * MINUTE_MS)) * 5;
      }
    }
    const blocks = Math.max(1, window / options.shapes.burstBlockMinutes);
    mean += m;
    variance += m * m * (s.burstCv ** 2 / blocks + DAY_NOISE ** 2);
  }
  return { mean, size: mean > 0 ? (mean * mean) / Math.max(variance, 1e-12) : 1 };
}

/** Issue 38: the window lengths at which an anomaly of `minutes` is judged detectable in principle. */
function windowsFor(options: PlanOptions, minutes: number): number[] {
  return options.shapes.durationAware
    ? LONG_WINDOWS.filter((w) => w === WINDOW || w <= minutes)
    : [WINDOW];
}
const LONG_WINDOWS = [WINDOW, 30, 60, 120];

/** A rate multiplied by `factor` reaches a count its streams alone would not. */
function countDetectable(
  streams: Stream[],
  at: Date,
  options: PlanOptions,
  factor: number,
  minutes = WINDOW,
): boolean {
  return windowsFor(options, minutes).some((window) => {
    const usual = windowOf(streams, at, options, window);
    if (usual.mean <= 0) {
      return false;
    }
    return factor < 1
      ? negativeBinomialLower(Math.floor(usual.mean * factor), usual) <= DETECTABLE_TAIL
      : negativeBinomialUpper(Math.ceil(usual.mean * factor), usual) <= DETECTABLE_TAIL;
  });
}

/** A share rising from `usual` to `changed` among the calls of a window is beyond chance. */
function shareDetectable(
  calls: Stream | undefined,
  usual: number,
  changed: number,
  at: Date,
  options: PlanOptions,
  minutes = WINDOW,
): boolean {
  return windowsFor(options, minutes).some((window) => {
    const trials = calls ? Math.round(windowOf([calls], at, options, window).mean) : 0;
    return (
      trials > 0 &&
      betaBinomialTail(
        Math.ceil(trials * changed),
        { trials, alpha: usual * 1e6, beta: (1 - usual) * 1e6 },
        true,
      ) <= DETECTABLE_TAIL
    );
  });
}

/**
 * Whether the stream's anomaly moves a tenant counter: its own, or its subject's outcomes that the
 * tenant counts (a server's errors follow its calls).
 */
function touchesTenantOf(model: TenantModel, stream: Stream): boolean {
  return (
    stream.subjectType === 'POLICY' ||
    model.streams.some(
      (s) =>
        s.subjectId === stream.subjectId &&
        s.tenantMetrics.length > 0 &&
        (s === stream || s.of === stream.metric),
    )
  );
}

function invocationsOf(model: TenantModel, outcome: Stream): Stream | undefined {
  return model.streams.find((s) => s.subjectId === outcome.subjectId && s.metric === 'INVOCATIONS');
}

/** The calls behind an error stream: an MCP server's requests, a provider's LLM calls. */
function callsOf(model: TenantModel, errors: Stream): Stream | undefined {
  const metric = errors.subjectType === 'MCP_SERVER' ? 'REQUESTS' : 'LLM_CALLS';
  return model.streams.find((s) => s.subjectId === errors.subjectId && s.metric === metric);
}

function tenantPeak(model: TenantModel, metric: RollupMetric): number {
  return model.streams
    .filter((s) => s.tenantMetrics.includes(metric))
    .reduce((sum, s) => sum + s.peak, 0);
}

function pick<T>(items: T[], random: Random): T | undefined {
  return items.length > 0 ? items[random.int(0, items.length)] : undefined;
}

/** Kinds without a usual count to exceed: novelty, dormancy, failovers (the plan places them as they come). */
const UNJUDGED_KINDS: readonly AnomalyKind[] = [
  'NEW_MCP_SERVER',
  'NOVEL_TOOL',
  'DORMANT_AGENT',
  'DORMANT_USER',
  'LLM_GATEWAY_FAILOVERS',
];

/** A drawn count: the series' events in [from, to) (a tenant's counter for `TENANT`). */
export type DrawnCount = (
  subjectType: string,
  subjectId: string,
  metric: RollupMetric,
  from: Date,
  to: Date,
) => number;

/**
 * M50: whether the drawn trace holds the anomaly the plan meant, judged as the plan judges an
 * anomaly's expected size (`tryPlace`) and independently of any detector: some 15-minute window
 * inside it whose drawn count is beyond the subject's own usual variation (`windowOf`, the
 * generator's model without the anomaly) at `DETECTABLE_TAIL`, or, for an error burst the plan
 * placed by its share, whose drawn errors among the drawn calls are beyond the usual share. The
 * plan keeps an anomaly on its mean; the binomial outcomes of M48 (and the Poisson minutes) can
 * draw it within ordinary variation. Only `anyHour` shapes' rate anomalies are judged (the classic
 * planner places by volume guards, and novelty, dormancy and failovers have no usual count to
 * exceed): the rest always count as drawn.
 */
export function isDrawnDetectable(
  anomaly: Anomaly,
  model: TenantModel,
  options: PlanOptions,
  drawn: DrawnCount,
): boolean {
  return drawnTail(anomaly, model, options, drawn) <= DETECTABLE_TAIL;
}

/**
 * The smallest tail probability of the anomaly's drawn 15-minute windows under the subject's usual
 * variation (`isDrawnDetectable`); 0 for an anomaly not judged so.
 */
export function drawnTail(
  anomaly: Anomaly,
  model: TenantModel,
  options: PlanOptions,
  drawn: DrawnCount,
): number {
  const spec = ANOMALY_KINDS[anomaly.kind];
  const judged = options.shapes.anyHour && !UNJUDGED_KINDS.includes(anomaly.kind);
  if (!judged || anomaly.minutes < WINDOW) {
    return 0;
  }
  const tenant = anomaly.subject.type === 'TENANT';
  const target = model.streams.find(
    (s) =>
      s.subjectType === anomaly.target.type &&
      s.subjectId === anomaly.target.id &&
      s.metric === anomaly.target.metric,
  );
  if (!target) {
    return 0;
  }
  const streams = tenant
    ? model.streams.filter((s) => s.tenantMetrics.includes(spec.metric))
    : [target];
  // The plan's own test of each kind: an error burst and a rare warning becoming common by share.
  const rare = anomaly.kind === 'POLICY_WARN_RARE_TO_COMMON';
  const byShare =
    rare ||
    (!tenant &&
      target.share !== undefined &&
      target.metric === 'ERRORS' &&
      target.subjectType !== 'POLICY');
  const calls = rare ? invocationsOf(model, target) : byShare ? callsOf(model, target) : undefined;
  const isDrop = anomaly.factor > 0 && anomaly.factor < 1;
  let best = 1;
  for (const window of windowsFor(options, anomaly.minutes)) {
    for (let m = 0; m + window <= anomaly.minutes; m += window === WINDOW ? 1 : 5) {
      const from = new Date(anomaly.start.getTime() + m * MINUTE_MS);
      const to = new Date(from.getTime() + window * MINUTE_MS);
      const count = tenant
        ? drawn('TENANT', anomaly.subject.id, spec.metric, from, to)
        : drawn(target.subjectType, target.subjectId, target.metric, from, to);
      let tail: number;
      if (calls) {
        const trials = Math.max(
          drawn(calls.subjectType, calls.subjectId, calls.metric, from, to),
          count,
        );
        const usual = target.share ?? 0;
        tail =
          trials > 0
            ? betaBinomialTail(count, { trials, alpha: usual * 1e6, beta: (1 - usual) * 1e6 }, true)
            : 1;
      } else {
        const usual = windowOf(streams, from, options, window);
        if (usual.mean <= 0) {
          return 0;
        }
        tail = isDrop ? negativeBinomialLower(count, usual) : negativeBinomialUpper(count, usual);
      }
      best = Math.min(best, tail);
    }
  }
  return best;
}
