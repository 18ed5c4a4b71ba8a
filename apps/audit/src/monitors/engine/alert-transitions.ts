import { AlertLifecycleAction, AlertStatus, DismissReason } from '@agp/contracts';

export const LIFECYCLE_OPERATIONS = ['acknowledge', 'resolve', 'dismiss', 'reopen'] as const;
export type LifecycleOperation = (typeof LIFECYCLE_OPERATIONS)[number];

interface Transition {
  from: readonly AlertStatus[];
  to: AlertStatus;
  action: AlertLifecycleAction;
}

/** D14's transitions; anything else is a 409 naming the current status. */
const TRANSITIONS: Readonly<Record<LifecycleOperation, Transition>> = {
  acknowledge: { from: ['OPEN'], to: 'ACKNOWLEDGED', action: 'ACKNOWLEDGED' },
  resolve: { from: ['OPEN', 'ACKNOWLEDGED'], to: 'RESOLVED', action: 'RESOLVED' },
  dismiss: { from: ['OPEN', 'ACKNOWLEDGED'], to: 'DISMISSED', action: 'DISMISSED' },
  reopen: { from: ['RESOLVED', 'DISMISSED'], to: 'OPEN', action: 'REOPENED' },
};

/** The status and history action an operation leads to from `status`, or undefined when not allowed. */
export function nextState(
  status: AlertStatus,
  operation: LifecycleOperation,
): { to: AlertStatus; action: AlertLifecycleAction } | undefined {
  const transition = TRANSITIONS[operation];
  return transition.from.includes(status)
    ? { to: transition.to, action: transition.action }
    : undefined;
}

/** The lifecycle columns an operation sets (M8); `undefined` leaves a column as it is. */
export interface LifecycleFields {
  status: AlertStatus;
  acknowledgedAt?: Date | null;
  acknowledgedByLabel?: string | null;
  resolvedAt?: Date | null;
  resolvedByLabel?: string | null;
  dismissedReason?: DismissReason | null;
  suppressedUntil?: Date | null;
}

export interface LifecycleInput {
  at: Date;
  actorLabel: string;
  reason?: DismissReason;
  suppressionHours: number;
}

export function lifecycleFields(
  operation: LifecycleOperation,
  input: LifecycleInput,
): LifecycleFields {
  const { at, actorLabel } = input;
  switch (operation) {
    case 'acknowledge':
      return { status: 'ACKNOWLEDGED', acknowledgedAt: at, acknowledgedByLabel: actorLabel };
    case 'resolve':
      return { status: 'RESOLVED', resolvedAt: at, resolvedByLabel: actorLabel };
    case 'dismiss':
      // M8/M9: dismissing closes the alert like a resolution and suppresses repeats for a while.
      return {
        status: 'DISMISSED',
        resolvedAt: at,
        resolvedByLabel: actorLabel,
        dismissedReason: input.reason ?? null,
        suppressedUntil:
          input.suppressionHours > 0
            ? new Date(at.getTime() + input.suppressionHours * 3_600_000)
            : null,
      };
    case 'reopen':
      return {
        status: 'OPEN',
        acknowledgedAt: null,
        acknowledgedByLabel: null,
        resolvedAt: null,
        resolvedByLabel: null,
        dismissedReason: null,
        suppressedUntil: null,
      };
  }
}
