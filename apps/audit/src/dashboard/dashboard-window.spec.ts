import { WINDOWS } from '@agp/contracts';

import { frameOf } from './dashboard-window';

describe(frameOf.name, () => {
  const now = new Date('2026-11-22T10:17:42.000Z');

  it('should give 24 hourly buckets ending after now when the window is LAST_24H', () => {
    const frame = frameOf('LAST_24H', now);
    expect(frame.buckets).toHaveLength(24);
    expect(frame.to.toISOString()).toBe('2026-11-22T11:00:00.000Z');
    expect(frame.from.toISOString()).toBe('2026-11-21T11:00:00.000Z');
  });

  it.each(WINDOWS)(
    'should size the series between 10 and 30 points when the window is %s',
    (window) => {
      const frame = frameOf(window, now);
      expect(frame.buckets.length).toBeGreaterThanOrEqual(10);
      expect(frame.buckets.length).toBeLessThanOrEqual(30);
      expect(frame.buckets[0]).toEqual(frame.from);
    },
  );
});
