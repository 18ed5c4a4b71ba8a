import { DEFAULT_DETECTOR_SETTINGS } from '../../src/monitors/config/detector-settings';
import { RollupMetric } from '../../src/monitors/rollups/rollup-counters';
import { ANOMALY_KINDS, Anomaly, AnomalyKind } from './anomalies';
import { Random } from './random';
import { Stream, TenantModel, rhythm } from './traffic-model';

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
}

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
  const day =
    Math.floor(random.between(earliest, options.to.getTime() - DAY_MS / 2) / DAY_MS) * DAY_MS;
  const start = new Date(day + Math.round(random.between(8 * 60, 18 * 60)) * MINUTE_MS);
  const isDrop = spec.factor > 0 && spec.factor < 1;
  const minutes = isDrop ? random.int(60, 91) : random.int(30, 61);
  const base = {
    kind,
    detector: spec.detector,
    start,
    minutes,
    factor: spec.factor,
    extraPerMinute: 0,
  };
  const candidates = model.streams.filter(
    (s) => s.subjectType === spec.subjectType && s.metric === spec.metric && !used.has(s.subjectId),
  );
  const level = rhythm(start);
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
      const tenantRate = tenantPeak(model, spec.metric) * level;
      const settings = detectors[spec.detector];
      if (tenantRate * WINDOW * spec.factor < 2 * settings.minVolume) {
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
    default:
      return placeRate(kind, base, candidates, model, level, random);
  }
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
  const touchesTenant = stream.tenantMetrics.length > 0 || stream.subjectType === 'POLICY';
  return {
    ...base,
    subject: { type: stream.subjectType, id: stream.subjectId },
    target: { type: stream.subjectType, id: stream.subjectId, metric: stream.metric },
    affected: touchesTenant ? [stream.subjectId, model.tenantId] : [stream.subjectId],
  };
}

function tenantPeak(model: TenantModel, metric: RollupMetric): number {
  return model.streams
    .filter((s) => s.tenantMetrics.includes(metric))
    .reduce((sum, s) => sum + s.peak, 0);
}

function pick<T>(items: T[], random: Random): T | undefined {
  return items.length > 0 ? items[random.int(0, items.length)] : undefined;
}
