import type { AlertStatus } from '@agp/contracts';

import type { AlertAction } from '../api/platform';

/** D14's transitions (the audit's alert-transitions.ts): which operations an alert offers now. */
const FROM: Record<AlertAction, readonly AlertStatus[]> = {
  acknowledge: ['OPEN'],
  resolve: ['OPEN', 'ACKNOWLEDGED'],
  dismiss: ['OPEN', 'ACKNOWLEDGED'],
  reopen: ['RESOLVED', 'DISMISSED'],
};

export function actionsFor(status: AlertStatus): AlertAction[] {
  return (Object.keys(FROM) as AlertAction[]).filter((action) => FROM[action].includes(status));
}
