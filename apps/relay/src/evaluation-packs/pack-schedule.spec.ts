import { nextRunAfter, scheduleProblem } from './pack-schedule';

describe('pack schedules', () => {
  it('should accept five UTC cron fields and the aliases', () => {
    expect(scheduleProblem('*/15 * * * *')).toBeUndefined();
    expect(scheduleProblem('0 6 * * 1-5')).toBeUndefined();
    expect(scheduleProblem('@daily')).toBeUndefined();
  });

  it('should refuse seconds, too few fields and nonsense with the reason', () => {
    expect(scheduleProblem('0 */5 * * * *')).toMatch(/five cron fields/);
    expect(scheduleProblem('* *')).toMatch(/five cron fields/);
    expect(scheduleProblem('61 * * * *')).toMatch(/not a cron expression/);
    expect(scheduleProblem('@often')).toMatch(/five cron fields/);
  });

  it('should name the next minute the schedule names after a time, in UTC', () => {
    const from = new Date('2026-12-07T09:31:20Z');
    expect(nextRunAfter('*/15 * * * *', from).toISOString()).toBe('2026-12-07T09:45:00.000Z');
    expect(nextRunAfter('0 6 * * *', from).toISOString()).toBe('2026-12-08T06:00:00.000Z');
    expect(nextRunAfter('*/15 * * * *', new Date('2026-12-07T09:45:00Z')).toISOString()).toBe(
      '2026-12-07T10:00:00.000Z',
    );
  });
});
