import { ALERT_STATUSES, AlertStatus } from '@agp/contracts';

import {
  LIFECYCLE_OPERATIONS,
  LifecycleOperation,
  lifecycleFields,
  nextState,
} from './alert-transitions';

const ALLOWED: Record<LifecycleOperation, AlertStatus[]> = {
  acknowledge: ['OPEN'],
  resolve: ['OPEN', 'ACKNOWLEDGED'],
  dismiss: ['OPEN', 'ACKNOWLEDGED'],
  reopen: ['RESOLVED', 'DISMISSED'],
};

describe('alert transitions', () => {
  for (const operation of LIFECYCLE_OPERATIONS) {
    for (const status of ALERT_STATUSES) {
      const allowed = ALLOWED[operation].includes(status);
      it(`should ${allowed ? 'allow' : 'refuse'} ${operation} when the alert is ${status}`, () => {
        expect(nextState(status, operation) !== undefined).toBe(allowed);
      });
    }
  }

  it('should name the history action of each operation', () => {
    expect(nextState('OPEN', 'acknowledge')).toEqual({
      to: 'ACKNOWLEDGED',
      action: 'ACKNOWLEDGED',
    });
    expect(nextState('ACKNOWLEDGED', 'resolve')).toEqual({ to: 'RESOLVED', action: 'RESOLVED' });
    expect(nextState('OPEN', 'dismiss')).toEqual({ to: 'DISMISSED', action: 'DISMISSED' });
    expect(nextState('DISMISSED', 'reopen')).toEqual({ to: 'OPEN', action: 'REOPENED' });
  });

  it('should suppress repeats for the configured hours when dismissing', () => {
    const at = new Date('2026-01-05T10:00:00Z');
    const fields = lifecycleFields('dismiss', {
      at,
      actorLabel: 'ann',
      reason: 'EXPECTED',
      suppressionHours: 24,
    });
    expect(fields).toEqual({
      status: 'DISMISSED',
      resolvedAt: at,
      resolvedByLabel: 'ann',
      dismissedReason: 'EXPECTED',
      suppressedUntil: new Date('2026-01-06T10:00:00Z'),
    });
  });

  it('should clear every closing field when reopening', () => {
    const fields = lifecycleFields('reopen', {
      at: new Date(),
      actorLabel: 'ann',
      suppressionHours: 24,
    });
    expect(Object.values(fields).filter((v) => v !== null)).toEqual(['OPEN']);
  });
});
