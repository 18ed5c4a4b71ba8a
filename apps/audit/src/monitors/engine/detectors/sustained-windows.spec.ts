import { DEFAULT_DETECTOR_SETTINGS } from '../detector-settings';
import { Finding } from '../monitors.types';
import { RateInput, SeriesOf, seriesKey } from './detector-input';
import { rateFindings } from './rate-detectors';
import { ownWindowLeans } from './own-window-lean';
import {
  candidatesOnly,
  gateWindow,
  sustainedFindings,
  sustainedWindows,
} from './sustained-windows';

const AGENT = '6f1c0d8e-93a4-4d55-9c54-0c2f0e7d4a11';
const TICK = new Date('2026-01-07T14:01:00Z');
const EXTEND = 22;

/** A busy agent whose quarters burst with a coefficient of variation of 0.7 (M40's pairs say so). */
function burstyAgentInput(windowMinutes: number, factorNow: number): RateInput {
  const perQuarter = 100;
  const perWindow = (perQuarter * windowMinutes) / 15;
  const exposure = (windowMinutes + 2 * EXTEND) / windowMinutes;
  const wiggle = [1, 0.93, 1.08, 0.97, 1.04, 0.95, 1.02, 1];
  const days = wiggle.map((w, day) =>
    Math.round(day === 0 ? perWindow * factorNow : perWindow * exposure * w),
  );
  const parts = days.map((n, day) => (day === 0 ? [n] : [0, 1, 2, 3].map(() => n / 4)));
  const series: SeriesOf = {
    subjectType: 'AGENT',
    subjectId: AGENT,
    metric: 'REQUESTS',
    days,
    parts,
  };
  const key = seriesKey('AGENT', AGENT, 'REQUESTS');
  const pairs = 48;
  return {
    tenantId: '0b7f3c52-1f7e-4a0a-8d0e-3c4b5a697887',
    tick: TICK,
    windowStart: new Date(TICK.getTime() - (windowMinutes + 1) * 60_000),
    windowMinutes,
    exposure,
    series: new Map([[key, series]]),
    byKind: new Map([['AGENT:REQUESTS', [series]]]),
    firstSeen: new Map(),
    settings: DEFAULT_DETECTOR_SETTINGS.AGENT_VOLUME_ANOMALY,
    historyPairs: new Map([
      [
        key,
        Array.from({ length: 7 }, () => ({
          pairs,
          excess: 2 * 0.5 * perQuarter ** 2 * pairs,
          scale: 2 * perQuarter ** 2 * pairs,
        })),
      ],
    ]),
  };
}

describe('sustained windows (M61)', () => {
  it('should find a bursty agent dropping to an eighth over two hours that its 15 minutes cannot show', () => {
    expect(rateFindings('AGENT_VOLUME_ANOMALY', burstyAgentInput(15, 1 / 8))).toEqual([]);
    const [found] = rateFindings('AGENT_VOLUME_ANOMALY', burstyAgentInput(120, 1 / 8));
    expect(found?.direction).toBe('DROP');
  });

  it('should not find the same agent at its usual level over any window', () => {
    for (const minutes of sustainedWindows(15)) {
      expect(rateFindings('AGENT_VOLUME_ANOMALY', burstyAgentInput(minutes, 1))).toEqual([]);
    }
  });

  it('should ask that the own window lean the longer window’s way by its own model (M79)', () => {
    const [drop] = rateFindings('AGENT_VOLUME_ANOMALY', burstyAgentInput(120, 1 / 8));
    const [spike] = rateFindings('AGENT_VOLUME_ANOMALY', burstyAgentInput(120, 4));
    const settings = DEFAULT_DETECTOR_SETTINGS.AGENT_VOLUME_ANOMALY;
    // The drop to an eighth and the fourfold spike still under way lean the own 15 minutes (which
    // cannot prove either alone), the agent back at its usual level or near it does not.
    expect(ownWindowLeans(drop, burstyAgentInput(15, 1 / 8), settings)).toBe(true);
    expect(ownWindowLeans(spike, burstyAgentInput(15, 4), settings)).toBe(true);
    expect(rateFindings('AGENT_VOLUME_ANOMALY', burstyAgentInput(15, 4))).toEqual([]);
    for (const factor of [0.7, 1, 1.4]) {
      expect(ownWindowLeans(drop, burstyAgentInput(15, factor), settings)).toBe(false);
      expect(ownWindowLeans(spike, burstyAgentInput(15, factor), settings)).toBe(false);
    }
    // And a longer window's finding the own window does not lean to is not kept.
    const windows = [
      { minutes: 15, findings: [] },
      { minutes: 120, findings: [drop] },
    ];
    expect(sustainedFindings(windows, () => 10)).toEqual([drop]);
    expect(
      sustainedFindings(
        windows,
        () => 10,
        () => false,
      ),
    ).toEqual([]);
  });

  it('should judge over the longer windows only the subjects whose own window moved', () => {
    const longer = burstyAgentInput(120, 1 / 8);
    const kept = (own: RateInput): number =>
      candidatesOnly(longer, own).byKind.get('AGENT:REQUESTS')?.length ?? 0;
    expect(kept(burstyAgentInput(15, 1))).toBe(0);
    expect(kept(burstyAgentInput(15, 1 / 8))).toBe(1);
    expect(kept(burstyAgentInput(15, 3))).toBe(1);
  });

  it('should judge the own window first and then 60 and 120 minutes', () => {
    expect(sustainedWindows(15)).toEqual([15, 60, 120]);
    expect(sustainedWindows(60)).toEqual([60, 120]);
  });

  it('should not judge a longer window that starts on a day of the other kind', () => {
    // 2026-01-10 is a Saturday: an hour back from 00:30 is a Friday night.
    expect(sustainedWindows(15, new Date('2026-01-10T00:30:00Z'))).toEqual([15]);
    expect(sustainedWindows(15, new Date('2026-01-10T01:30:00Z'))).toEqual([15, 60]);
    expect(sustainedWindows(15, new Date('2026-01-10T03:00:00Z'))).toEqual([15, 60, 120]);
  });

  const finding = (direction: 'SPIKE' | 'DROP', minutes: number, expected: number): Finding =>
    ({
      findingId: `${direction}-${minutes}`,
      detector: 'AGENT_VOLUME_ANOMALY',
      direction,
      subject: { type: 'AGENT', id: AGENT },
      evidence: { baselinePerMinute: expected / minutes, sampleMinutes: minutes },
    }) as unknown as Finding;

  it("should keep a longer window's finding only while the own window still shows the change", () => {
    const drop = finding('DROP', 120, 800);
    // 800 in 120 minutes is 100 in 15: 10 now is still the drop, 95 is over.
    expect(
      sustainedFindings(
        [
          { minutes: 15, findings: [] },
          { minutes: 120, findings: [drop] },
        ],
        () => 10,
      ),
    ).toEqual([drop]);
    expect(
      sustainedFindings(
        [
          { minutes: 15, findings: [] },
          { minutes: 120, findings: [drop] },
        ],
        () => 95,
      ),
    ).toEqual([]);
    const spike = finding('SPIKE', 60, 40);
    expect(
      sustainedFindings(
        [
          { minutes: 15, findings: [] },
          { minutes: 60, findings: [spike] },
        ],
        () => 40,
      ),
    ).toEqual([spike]);
    expect(
      sustainedFindings(
        [
          { minutes: 15, findings: [] },
          { minutes: 60, findings: [spike] },
        ],
        () => 12,
      ),
    ).toEqual([]);
  });

  it('should ask a drop the own window cannot show of the shortest judged window that can (M88)', () => {
    // A night's 24 events in two hours: 3 in 15 minutes, where even 0 is a drop only at 5 %.
    const drop = { ...finding('DROP', 120, 24), evidence: { baselinePerMinute: 0.2, ratio: 0.1 } };
    const windows = [
      { minutes: 15, findings: [] },
      { minutes: 60, findings: [] },
      { minutes: 120, findings: [drop as unknown as Finding] },
    ];
    const asked: number[] = [];
    const count = (last15: number, last60: number) => (_: Finding, minutes: number) => {
      asked.push(minutes);
      return minutes === 60 ? last60 : last15;
    };
    // The last hour at 1 of 12 expected: still the drop, though 15 minutes cannot say so; the
    // lean (M79, the full model) is still asked of the own window (M90).
    const leanAsked: number[] = [];
    const leans = (_: Finding, minutes: number): boolean => leanAsked.push(minutes) > 0;
    expect(sustainedFindings(windows, count(0, 1), leans)).toEqual([drop]);
    expect(asked).toEqual([60]);
    expect(leanAsked).toEqual([15]);
    // The last hour back at its usual level: the drop is over, whatever 15 minutes show.
    expect(sustainedFindings(windows, count(0, 11))).toEqual([]);
    // A drop the own window can show, and any spike, still ask the own window.
    const busy = { ...drop, evidence: { baselinePerMinute: 2, ratio: 0.1 } } as unknown as Finding;
    const spike = { ...finding('SPIKE', 120, 24), evidence: { baselinePerMinute: 0.2, ratio: 5 } };
    expect(gateWindow(busy, 120, [15, 60, 120])).toBe(15);
    expect(gateWindow(spike as unknown as Finding, 120, [15, 60, 120])).toBe(15);
    expect(gateWindow(drop as unknown as Finding, 60, [15, 60])).toBe(15);
  });

  it('should ask of the own window at least half the change on the log scale', () => {
    const spike = {
      ...finding('SPIKE', 60, 400),
      evidence: { baselinePerMinute: 400 / 60, ratio: 16 },
    } as unknown as Finding;
    const windows = [
      { minutes: 15, findings: [] },
      { minutes: 60, findings: [spike] },
    ];
    // 100 expected in 15 minutes: twice that is beyond chance but not the fourfold of a 16-fold hour.
    expect(sustainedFindings(windows, () => 200)).toEqual([]);
    expect(sustainedFindings(windows, () => 420)).toEqual([spike]);
  });

  it('should not take a share falling over a longer window', () => {
    const drop = {
      ...finding('DROP', 120, 100),
      detector: 'POLICY_WARN_ANOMALY',
    } as unknown as Finding;
    expect(
      sustainedFindings(
        [
          { minutes: 15, findings: [] },
          { minutes: 120, findings: [drop] },
        ],
        () => 0,
      ),
    ).toEqual([]);
  });

  it("should give the own window's finding and drop a longer window's on the same subject", () => {
    const own = finding('SPIKE', 15, 10);
    const long = finding('SPIKE', 60, 40);
    expect(
      sustainedFindings(
        [
          { minutes: 15, findings: [own] },
          { minutes: 60, findings: [long] },
        ],
        () => 100,
      ),
    ).toEqual([own]);
  });
});
