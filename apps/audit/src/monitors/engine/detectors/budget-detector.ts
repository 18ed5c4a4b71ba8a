import { BudgetEvidence, SubjectType } from '@agp/contracts';

import { deterministicUuid } from '../deterministic-uuid';
import { Finding } from '../monitors.types';

/** What an LLM_GATEWAY_CALL or a settled payment says of the budgets it took past their soft limit. */
export interface BudgetAlertEvent {
  tenantId: string;
  occurredAt: string;
  details?: Record<string, unknown>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const AMOUNT = /^[0-9]{1,20}(\.[0-9]{1,12})?$/;
const SCOPES = ['TENANT', 'AGENT', 'LLM_GATEWAY', 'SUBSCRIPTION'];
const PERIODS = ['DAY', 'MONTH', 'ROLLING_24H'];
const UNITS = ['USD', 'TOKENS'];
/** The relay marks a budget's soft limit once per window; a call names at most its four budgets. */
const MAX_ALERTS = 4;

/**
 * spend.md SP11: BUDGET_SOFT_LIMIT, one finding per budget in `details.budgetAlerts` (the relay
 * writes it on the one call or payment that first reached the soft limit in the window). MEDIUM:
 * spend goes on, but the next stop is the hard limit. The finding id is the budget and the event's
 * time, so the same event told twice is one finding.
 */
export function budgetFindings(event: BudgetAlertEvent): Finding[] {
  const alerts = event.details?.budgetAlerts;
  if (!Array.isArray(alerts)) {
    return [];
  }
  return alerts.slice(0, MAX_ALERTS).flatMap((alert: unknown) => {
    const finding = findingOf(event, (alert ?? {}) as Record<string, unknown>);
    return finding ? [finding] : [];
  });
}

function findingOf(event: BudgetAlertEvent, a: Record<string, unknown>): Finding | undefined {
  const { id, scope, targetId, period, unit, softLimit, used } = a;
  if (
    typeof id !== 'string' ||
    !UUID.test(id) ||
    !SCOPES.includes(scope as string) ||
    !PERIODS.includes(period as string) ||
    !UNITS.includes(unit as string) ||
    typeof softLimit !== 'string' ||
    !AMOUNT.test(softLimit) ||
    typeof used !== 'string' ||
    !AMOUNT.test(used) ||
    (targetId !== null &&
      targetId !== undefined &&
      (typeof targetId !== 'string' || !UUID.test(targetId)))
  ) {
    return undefined;
  }
  const target = typeof targetId === 'string' ? targetId : undefined;
  const subject = subjectOf(scope as string, target, event.tenantId);
  const evidence: BudgetEvidence = {
    kind: 'BUDGET',
    subjectType: subject.type,
    subjectId: subject.id,
    budgetId: id,
    scope: scope as string,
    ...(target ? { targetId: target } : {}),
    period: period as string,
    unit: unit as string,
    softLimit,
    used,
  };
  const named = target ? `${scope as string} ${target}` : (scope as string);
  return {
    findingId: deterministicUuid('budget-soft-limit', id, event.occurredAt),
    detector: 'BUDGET_SOFT_LIMIT',
    severity: 'MEDIUM',
    direction: 'SPIKE',
    subject,
    summary: `the ${unit as string} budget of ${named} per ${period as string} reached its soft limit: ${used} of ${softLimit}`,
    evidence,
    detectedAt: new Date(event.occurredAt),
  };
}

/** An agent's or a gateway's budget is about it; a tenant's or a subscription's about the tenant. */
function subjectOf(
  scope: string,
  targetId: string | undefined,
  tenantId: string,
): { type: SubjectType; id: string } {
  if ((scope === 'AGENT' || scope === 'LLM_GATEWAY') && targetId) {
    return { type: scope, id: targetId };
  }
  return { type: 'TENANT', id: tenantId };
}
