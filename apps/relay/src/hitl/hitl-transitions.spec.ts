import { HITL_STATUSES, HitlStatus } from './hitl.types';
import { canMove } from './hitl-transitions';

describe('hitl transitions', () => {
  const allowed: Array<[HitlStatus, HitlStatus]> = [
    ['PENDING', 'APPROVED'],
    ['PENDING', 'REJECTED'],
    ['PENDING', 'EXPIRED'],
    ['APPROVED', 'RELEASED'],
  ];

  it.each(allowed)('should allow %s → %s (D34)', (from, to) => {
    expect(canMove(from, to)).toBe(true);
  });

  it('should refuse every other move', () => {
    for (const from of HITL_STATUSES) {
      for (const to of HITL_STATUSES) {
        const isAllowed = allowed.some(([f, t]) => f === from && t === to);
        expect([from, to, canMove(from, to)]).toEqual([from, to, isAllowed]);
      }
    }
  });
});
