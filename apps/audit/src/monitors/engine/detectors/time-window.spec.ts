import { baselineDays, windowSegments } from './time-window';

describe('windowSegments', () => {
  it('should split a window across the hour rows it touches when it crosses an hour', () => {
    const end = new Date('2026-01-07T10:05:00Z');
    expect(windowSegments(end, 15, [0, 1])).toEqual([
      { hour: new Date('2026-01-07T09:00:00Z'), lo: 51, hi: 60, day: 0 },
      { hour: new Date('2026-01-07T10:00:00Z'), lo: 1, hi: 5, day: 0 },
      { hour: new Date('2026-01-06T09:00:00Z'), lo: 51, hi: 60, day: 1 },
      { hour: new Date('2026-01-06T10:00:00Z'), lo: 1, hi: 5, day: 1 },
    ]);
  });

  it('should give one piece when the window sits inside an hour', () => {
    expect(windowSegments(new Date('2026-01-07T10:30:00Z'), 15, [0])).toEqual([
      { hour: new Date('2026-01-07T10:00:00Z'), lo: 16, hi: 30, day: 0 },
    ]);
  });
});

describe('baselineDays', () => {
  it('should take the weekdays of the lookback when the window is on a weekday', () => {
    // 2026-01-07 is a Wednesday: Tuesday, Monday, Friday, Thursday and last Wednesday.
    expect(baselineDays(new Date('2026-01-07T10:00:00Z'), 7, undefined)).toEqual([1, 2, 5, 6, 7]);
  });

  it('should take the weekend days when the window is on a Saturday', () => {
    expect(baselineDays(new Date('2026-01-10T10:00:00Z'), 7, undefined)).toEqual([6, 7]);
  });

  it('should leave out the days before the subject was first seen', () => {
    expect(
      baselineDays(new Date('2026-01-07T10:00:00Z'), 7, new Date('2026-01-05T09:00:00Z')),
    ).toEqual([1, 2]);
  });

  it('should give no day when the subject is younger than two days', () => {
    expect(
      baselineDays(new Date('2026-01-07T10:00:00Z'), 7, new Date('2026-01-06T09:00:00Z')),
    ).toEqual([]);
  });
});
