import { Anomaly } from './anomalies';
import { DrawnCount, PlanOptions, isDrawnDetectable } from './anomaly-planner';
import { Stream, TenantModel, rhythmOf } from './traffic-model';
import { CLASSIC_SHAPES, SHAPED } from './traffic-shapes';

const MINUTE_MS = 60_000;
const start = new Date('2026-02-25T14:00:00Z'); // a Wednesday afternoon
const user: Stream = {
  subjectType: 'USER',
  subjectId: 'u1',
  metric: 'REQUESTS',
  peak: 2,
  tenantMetrics: ['REQUESTS'],
  burstCv: 0,
  trendPerDay: 0,
  shiftHours: 0,
};
const model: TenantModel = {
  tenantId: 't1',
  subjects: [{ type: 'USER', id: 'u1' }],
  streams: [user],
};
const spike: Anomaly = {
  kind: 'USER_SPIKE',
  detector: 'USER_VOLUME_ANOMALY',
  subject: { type: 'USER', id: 'u1' },
  target: { type: 'USER', id: 'u1', metric: 'REQUESTS' },
  start,
  minutes: 30,
  factor: 5,
  extraPerMinute: 0,
  affected: ['u1'],
};
const options = (shapes = SHAPED): PlanOptions => ({
  traceStart: new Date(start.getTime() - 14 * 86_400_000),
  from: start,
  to: new Date(start.getTime() + 86_400_000),
  kinds: [],
  shapes,
});

/** Every minute drawn at `times` the user's usual rate. */
function drawnAt(times: number): DrawnCount {
  return (_type, _id, _metric, from, to) => {
    let total = 0;
    for (let t = from.getTime(); t < to.getTime(); t += MINUTE_MS) {
      total += user.peak * rhythmOf(user, new Date(t)) * times;
    }
    return Math.round(total);
  };
}

describe('isDrawnDetectable (M50)', () => {
  it('should judge a spike planned five-fold but drawn at the usual count as not in the trace', () => {
    expect(isDrawnDetectable(spike, model, options(), drawnAt(1.3))).toBe(false);
  });

  it('should keep a spike drawn as planned', () => {
    expect(isDrawnDetectable(spike, model, options(), drawnAt(5))).toBe(true);
  });

  it('should keep every anomaly of the classic shapes, which the plan places by volume guards', () => {
    expect(isDrawnDetectable(spike, model, options(CLASSIC_SHAPES), drawnAt(1))).toBe(true);
  });

  it('should keep novelty, which has no usual count to exceed', () => {
    const novel: Anomaly = { ...spike, kind: 'NOVEL_TOOL', detector: 'NOVEL_TOOL_CALL', factor: 1 };
    expect(isDrawnDetectable(novel, model, options(), drawnAt(1))).toBe(true);
  });
});
