import fc from 'fast-check';

import {
  DEFAULT_RETRY_SCHEDULE,
  RetrySchedule,
  nextState,
  retryDelayMs,
  retrySpanMs,
} from './webhook-schedule';

const schedules = fc.record<RetrySchedule>({
  maxAttempts: fc.integer({ min: 6, max: 20 }),
  baseDelayMs: fc.integer({ min: 10, max: 3_600_000 }),
  maxDelayMs: fc.integer({ min: 3_600_000, max: 86_400_000 }),
});

describe('retry schedule', () => {
  it('should make at least 6 attempts over at least 30 minutes by default', () => {
    expect(DEFAULT_RETRY_SCHEDULE.maxAttempts).toBeGreaterThanOrEqual(6);
    expect(retrySpanMs(DEFAULT_RETRY_SCHEDULE)).toBeGreaterThanOrEqual(30 * 60_000);
  });

  it('should wait 1, 3, 9, 27, 81, 243 minutes, then 12 hours, then give up by default', () => {
    const waits = Array.from({ length: 8 }, (_, i) => retryDelayMs(i + 1, DEFAULT_RETRY_SCHEDULE));

    expect(waits).toEqual([
      60_000,
      180_000,
      540_000,
      1_620_000,
      4_860_000,
      14_580_000,
      43_200_000,
      null,
    ]);
  });

  it('should grow each wait by three until the cap, and stop after the last attempt', () => {
    fc.assert(
      fc.property(schedules, (schedule) => {
        const waits = Array.from({ length: schedule.maxAttempts - 1 }, (_, i) =>
          retryDelayMs(i + 1, schedule),
        ) as number[];

        expect(waits[0]).toBe(Math.min(schedule.baseDelayMs, schedule.maxDelayMs));
        for (let i = 1; i < waits.length; i++) {
          expect(waits[i]).toBe(Math.min(waits[i - 1] * 3, schedule.maxDelayMs));
        }
        expect(retryDelayMs(schedule.maxAttempts, schedule)).toBeNull();
      }),
    );
  });

  it('should leave a delivered attempt DELIVERED, a failed one PENDING until the round is spent, then FAILED', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const schedule = { ...DEFAULT_RETRY_SCHEDULE, maxAttempts: 6 };

    expect(nextState(true, 6, schedule, now)).toEqual({ status: 'DELIVERED', nextAttemptAt: null });
    expect(nextState(false, 1, schedule, now)).toEqual({
      status: 'PENDING',
      nextAttemptAt: new Date('2026-01-01T00:01:00Z'),
    });
    expect(nextState(false, 5, schedule, now).status).toBe('PENDING');
    expect(nextState(false, 6, schedule, now)).toEqual({ status: 'FAILED', nextAttemptAt: null });
  });
});
