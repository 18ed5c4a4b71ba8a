import { DEFAULT_DETECTOR_SETTINGS } from '../detector-settings';
import {
  ShareDay,
  assessCount,
  assessShare,
  severityOf,
  shareDispersion,
  sharePrior,
} from './baseline';
import { BaselineDay, MIN_DISPERSION } from './seasonal-baseline';

const volume = DEFAULT_DETECTOR_SETTINGS.AGENT_VOLUME_ANOMALY;
const warns = DEFAULT_DETECTOR_SETTINGS.POLICY_WARN_ANOMALY;
const errorRate = DEFAULT_DETECTOR_SETTINGS.MCP_SERVER_ERROR_RATE_SPIKE;

/** Baseline days 1, 2, … ago, all of the window's kind, counts already per window. */
function sameKind(perWindow: number[]): BaselineDay[] {
  return perWindow.map((count, i) => ({ age: i + 1, perWindow: count, sameKind: true }));
}

function shares(days: Array<[number, number]>): ShareDay[] {
  return days.map(([hits, trials]) => ({ hits, trials }));
}

/**
 * Baseline days 1, 2, … ago from each day's window read in pieces (M18), as the tick scales them
 * (a widened window of `exposure` windows), with M6's kind and the tenant's holiday (M43).
 */
function fromPieces(
  pieces: number[][],
  exposure: number,
  sameKindOf: (age: number) => boolean,
  holiday: number,
): BaselineDay[] {
  return pieces.map((parts, i) => ({
    age: i + 1,
    perWindow: parts.reduce((sum, n) => sum + n, 0) / exposure,
    sameKind: sameKindOf(i + 1),
    isHoliday: i + 1 === holiday,
    pieces: parts.map((n) => (n * parts.length) / exposure),
  }));
}

describe('assessCount', () => {
  it('should find a night drop over a longer window once the floor fades (M89)', () => {
    // 40 events a window on five days, 7 now: within z 5 with M6's whole floor, z −5.3 with M89's.
    const days = sameKind([40, 40, 40, 40, 40]);
    expect(assessCount(7, days, volume)).toBeUndefined();
    expect(
      assessCount(7, days, volume, 1, false, { dispersion: 0, weekday: -1, fadeFloor: true }),
    ).toMatchObject({ direction: 'DROP', observed: 7 });
  });

  it('should find a SPIKE when the window is four times its steady baseline', () => {
    expect(assessCount(400, sameKind([100, 95, 105, 98, 102]), volume)).toMatchObject({
      direction: 'SPIKE',
      expected: 100,
      ratio: 4,
    });
  });

  it('should find a SPIKE of 180 events against 9 expected', () => {
    const deviation = assessCount(180, sameKind([9, 9, 9, 9, 9]), volume);
    expect(deviation).toMatchObject({ direction: 'SPIKE', expected: 9, ratio: 20 });
    expect(deviation?.z).toBeGreaterThan(volume.zScore);
  });

  it('should find the same twentyfold SPIKE at a tenth of the volume (a night, a quiet subject)', () => {
    // 18 against 0.9, the baseline days holding 3.6 events each (four windows' worth): the
    // volume guard (minVolume 30) kept this silent before M17.
    expect(assessCount(18, sameKind([0.9, 0.9, 0.9, 0.9, 0.9]), volume, 4)).toMatchObject({
      direction: 'SPIKE',
      ratio: 18,
    });
  });

  it('should find nothing when a naturally bursty subject triples', () => {
    // Mean 98, days from 60 to 150: three times the mean is within what this subject does.
    expect(assessCount(294, sameKind([60, 150, 80, 130, 70]), volume)).toBeUndefined();
    // The same three times on a steady subject is a spike.
    expect(assessCount(294, sameKind([98, 97, 99, 98, 98]), volume)).toMatchObject({
      direction: 'SPIKE',
    });
  });

  it('should find a SPIKE when a bursty subject jumps far beyond its own bursts', () => {
    expect(assessCount(980, sameKind([60, 150, 80, 130, 70]), volume)).toMatchObject({
      direction: 'SPIKE',
      ratio: 10,
    });
  });

  it('should find nothing when a subject grows steadily through the week', () => {
    // 30 % more every day: on a Monday the weekdays 3 to 7 days ago held 100 × 1.3^-age and the
    // weekend a third of that; today's 100 is 3.5 times the weekdays' mean but on the trend.
    const growing = [1, 2, 3, 4, 5, 6, 7].map((age) => ({
      age,
      perWindow: (age <= 2 ? 1 / 3 : 1) * 100 * 1.3 ** -age,
      sameKind: age > 2,
    }));
    expect(assessCount(100, growing, volume)).toBeUndefined();
    expect(assessCount(500, growing, volume)).toMatchObject({ direction: 'SPIKE' });
  });

  it('should find a DROP when a busy subject goes almost silent', () => {
    expect(assessCount(5, sameKind([100, 95, 105, 98, 102]), volume)).toMatchObject({
      direction: 'DROP',
    });
  });

  it('should find nothing when the window is within ordinary noise', () => {
    expect(assessCount(125, sameKind([100, 95, 105, 98, 102]), volume)).toBeUndefined();
    expect(assessCount(80, sameKind([100, 95, 105, 98, 102]), volume)).toBeUndefined();
  });

  it('should find no DROP when so few events were expected that silence is ordinary', () => {
    // P(0 | 2 expected) is e^-2, 14 %.
    expect(assessCount(0, sameKind([2, 2, 1, 3, 2]), volume, 4)).toBeUndefined();
  });

  it('should find nothing when the baseline swings as much as the window does', () => {
    expect(assessCount(400, sameKind([100, 450, 90, 380, 120]), volume)).toBeUndefined();
  });

  it('should find nothing when there is no baseline day', () => {
    expect(assessCount(400, [], volume)).toBeUndefined();
  });

  it('should find nothing when the whole lookback shows the subject triples by itself (M40)', () => {
    // Steady days at this clock time, but a squared coefficient of variation of 1 per window
    // over the whole week: three times the usual is one of its ordinary bursts.
    const days = sameKind([100, 95, 105, 98, 102]);
    expect(assessCount(300, days, volume)).toMatchObject({ direction: 'SPIKE' });
    expect(
      assessCount(300, days, volume, 1, false, { dispersion: 1, weekday: -1 }),
    ).toBeUndefined();
  });

  it('should leave the tenant’s holiday out of a subject’s weekdays (M43)', () => {
    // A weekday at a weekend's level: left out, the drop is judged against the other four days
    // (95–102, a slight slope); kept, it lowers the level and swells the day-to-day variation
    // until the drop is not significant (held-out-3's misses).
    const plain = sameKind([100, 95, 33, 98, 102]);
    const days = plain.map((d) => ({ ...d, isHoliday: d.age === 3 }));
    expect(assessCount(5, days, volume)?.expected).toBeGreaterThan(95);
    expect(assessCount(5, plain, volume)).toBeUndefined();
  });
});

describe('assessCount on a subject eight hours behind UTC with the tenant’s holiday (M47)', () => {
  // Held-out-4's policy at 03:09 UTC on a Tuesday, its Monday evening: its weekend is UTC's
  // Sunday and Monday (ages 2, 1), its holiday on its own Wednesday, UTC's Thursday (age 5); the
  // tenant's holiday is UTC's Wednesday (age 6). 55 in the window was taken for 4× the usual.
  const exposure = 59 / 15;
  // Each day's window in its four pieces, as read (M18).
  const pieces = [
    [14, 9, 14, 13],
    [7, 13, 7, 7],
    [24, 33, 27, 26],
    [41, 24, 34, 37],
    [9, 9, 8, 8],
    [29, 35, 24, 22],
    [37, 16, 23, 22],
  ];
  const days = fromPieces(pieces, exposure, (age) => age !== 2 && age !== 3, 6);
  const own = { dispersion: 0.004, weekday: 2 };
  const policy = DEFAULT_DETECTOR_SETTINGS.POLICY_INVOCATION_ANOMALY;

  it('should judge its weekday against its weekdays', () => {
    expect(assessCount(55, days, policy, exposure, false, own)).toBeUndefined();
  });

  it('should still find five times its weekday level', () => {
    expect(assessCount(150, days, policy, exposure, false, own)).toMatchObject({
      direction: 'SPIKE',
    });
  });
});

describe('assessCount on a bursty subject whose busiest day a moved holiday would drop (M47)', () => {
  // Held-out-4 (its first simulator) at 09:04 UTC on a Monday: a bursty policy (φ 0.335) whose
  // busiest day, Thursday (age 4), is one day off the tenant's Wednesday holiday (age 5). Moving
  // the holiday there let a week of Sunday and Monday drop that day and judge 75 against 6.5.
  const exposure = 59 / 15;
  const pieces = [
    [2, 1, 5, 1],
    [8, 9, 12, 15],
    [33, 19, 23, 5],
    [52, 41, 27, 34],
    [3, 18, 6, 12],
    [34, 36, 12, 7],
    [5, 13, 12, 12],
  ];
  const days = fromPieces(pieces, exposure, (age) => age >= 3, 5);
  const own = { dispersion: 0.335, weekday: 1 };
  const policy = DEFAULT_DETECTOR_SETTINGS.POLICY_INVOCATION_ANOMALY;

  it('should not take a busy day for its holiday', () => {
    expect(assessCount(75, days, policy, exposure, false, own)).toBeUndefined();
  });

  it('should still find a burst far beyond its burstiness', () => {
    expect(assessCount(800, days, policy, exposure, false, own)).toMatchObject({
      direction: 'SPIKE',
    });
  });
});

describe('assessShare', () => {
  it('should find a SPIKE when a policy that warned on 2 % of its invocations warns on 40 %', () => {
    // 12 warnings among 30 invocations; the baseline days 12 of 600 (2 %). As a count, 12 was
    // under minVolume (20) and no finding was possible.
    const days = shares([
      [3, 120],
      [2, 120],
      [3, 120],
      [2, 120],
      [2, 120],
    ]);
    const deviation = assessShare(12, 30, days, warns);
    expect(deviation).toMatchObject({ direction: 'SPIKE', observed: 12 });
    // The baseline share with half an event added above and below: 12.5 / 601.
    expect(deviation?.ratio).toBeCloseTo(0.4 / (12.5 / 601), 6);
    expect(assessShare(2, 30, days, warns)).toBeUndefined();
  });

  it('should find nothing when the share itself swings from day to day as much', () => {
    const days = shares([
      [0, 120],
      [30, 120],
      [1, 120],
      [28, 120],
      [0, 120],
    ]);
    expect(assessShare(12, 30, days, warns)).toBeUndefined();
  });

  it('should find a SPIKE when the error rate jumps from 2 % to 30 %', () => {
    const days = shares(Array.from({ length: 5 }, (): [number, number] => [8, 400]));
    expect(assessShare(60, 200, days, errorRate)).toMatchObject({
      direction: 'SPIKE',
      observed: 60,
    });
  });

  it('should find nothing when errors rise only with the traffic', () => {
    const days = shares(Array.from({ length: 5 }, (): [number, number] => [8, 400]));
    expect(assessShare(12, 600, days, errorRate)).toBeUndefined();
  });

  it('should find a SPIKE at few calls when half of them fail against a 2 % baseline', () => {
    // 10 errors in 20 calls: before M19 the call guard (minBaselineVolume 30) kept this silent.
    const days = shares(Array.from({ length: 5 }, (): [number, number] => [8, 400]));
    expect(assessShare(10, 20, days, errorRate)).toMatchObject({ direction: 'SPIKE' });
  });

  it('should find a SPIKE of 11 errors in 81 calls on a Saturday against a 2 % error rate', () => {
    // The e2e trace's MCP server: two weekend days alone left the share too uncertain, and binomial
    // noise on a few errors a day was counted as over-dispersion (p 5e-4 before, above zScore 4).
    const days: ShareDay[] = [
      { hits: 16, trials: 757, sameKind: false },
      { hits: 16, trials: 728, sameKind: false },
      { hits: 20, trials: 888, sameKind: false },
      { hits: 22, trials: 777, sameKind: false },
      { hits: 9, trials: 830, sameKind: false },
      { hits: 8, trials: 229, sameKind: true },
      { hits: 5, trials: 257, sameKind: true },
    ];
    expect(assessShare(11, 81, days, errorRate)).toMatchObject({
      direction: 'SPIKE',
      observed: 11,
    });
  });

  it('should find nothing when a weekend share that always differs from the weekdays holds', () => {
    const days: ShareDay[] = [
      ...Array.from({ length: 5 }, (): ShareDay => ({ hits: 8, trials: 400, sameKind: false })),
      { hits: 40, trials: 200, sameKind: true },
      { hits: 44, trials: 200, sameKind: true },
    ];
    expect(assessShare(30, 150, days, warns)).toBeUndefined();
  });

  it('should find nothing when the rate is below minRatePct', () => {
    const days = shares(Array.from({ length: 5 }, (): [number, number] => [0, 4000]));
    expect(assessShare(4, 100, days, errorRate)).toBeUndefined();
  });
});

describe('severityOf', () => {
  it('should rise with the size of a spike', () => {
    expect([2, 3, 5, 10].map((ratio) => severityOf('SPIKE', ratio))).toEqual([
      'LOW',
      'MEDIUM',
      'HIGH',
      'CRITICAL',
    ]);
  });

  it('should rise with the depth of a drop', () => {
    expect([0.5, 0.3, 0.1, 0].map((ratio) => severityOf('DROP', ratio))).toEqual([
      'LOW',
      'MEDIUM',
      'HIGH',
      'CRITICAL',
    ]);
  });
});

describe('shareDispersion', () => {
  it('should count binomial noise on about one outcome a day as no over-dispersion', () => {
    const days = shares([
      [0, 80],
      [2, 80],
      [0, 80],
      [1, 80],
      [3, 80],
      [0, 80],
      [1, 80],
    ]);
    const share = 7.5 / 561;
    expect(shareDispersion(days, share)).toBeCloseTo((MIN_DISPERSION * share) / (1 - share), 12);
  });

  it('should find over-dispersion when the share swings far beyond binomial noise', () => {
    const days = shares([
      [0, 400],
      [40, 400],
      [2, 400],
      [36, 400],
      [1, 400],
    ]);
    expect(shareDispersion(days, 79.5 / 2001)).toBeGreaterThan(0.01);
  });
});

describe('sharePrior', () => {
  it('should pool the peers’ share and trust it as far as their shares agree', () => {
    // Five servers failing on 2 % of their calls, within binomial noise of each other: the prior
    // is the pooled 2 %, as strong as the median server's calls (its cap).
    const prior = sharePrior([
      { hits: 8, trials: 400 },
      { hits: 9, trials: 400 },
      { hits: 7, trials: 400 },
      { hits: 8, trials: 420 },
      { hits: 8, trials: 380 },
    ]);
    expect(prior?.share).toBeCloseTo(40.5 / 2001, 10);
    expect(prior?.strength).toBe(400);
  });

  it('should be weak when the peers’ shares differ far beyond noise', () => {
    const prior = sharePrior([
      { hits: 4, trials: 400 },
      { hits: 80, trials: 400 },
      { hits: 8, trials: 400 },
      { hits: 40, trials: 400 },
    ]);
    expect(prior?.strength).toBeLessThan(40);
  });

  it('should need three peers with calls', () => {
    expect(
      sharePrior([
        { hits: 1, trials: 10 },
        { hits: 0, trials: 0 },
        { hits: 1, trials: 10 },
      ]),
    ).toBeUndefined();
  });
});

describe('assessShare with a prior from the peers (M31)', () => {
  // A quiet night: no error in 150 calls over the baseline days, so the server's own share reads
  // 0.33 %, while every server of the tenant fails on about 2 %.
  const night = shares(Array.from({ length: 5 }, (): [number, number] => [0, 30]));
  const peers = { share: 0.02, strength: 150 };

  it('should find nothing when 3 of 6 calls fail against the 2 % its peers show', () => {
    expect(assessShare(3, 6, night, errorRate)).toMatchObject({ direction: 'SPIKE' });
    expect(assessShare(3, 6, night, errorRate, peers)).toBeUndefined();
  });

  it('should still find the error rate jumping from 2 % to 30 %', () => {
    expect(assessShare(12, 40, night, errorRate, peers)).toMatchObject({ direction: 'SPIKE' });
  });
});
