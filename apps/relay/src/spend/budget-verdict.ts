import { REFUSALS } from '../traffic/pipeline/refusal-codes';
import { RefusalAnswer } from '../traffic/pipeline/refusal-answers';
import { Budget } from './spend.types';
import { formatPico } from './usd';

/** A budget as a refusal, a warning or an alert names it (D60: "the budget named"). */
export interface BudgetRef {
  id: string;
  scope: Budget['scope'];
  targetId: string | null;
  period: Budget['period'];
  unit: Budget['unit'];
  softLimit: string | null;
  hardLimit: string | null;
  /** What the window had used when it was read (USD decimal or tokens). */
  used: string;
}

/** What a call holds against its budgets until it settles (SP8). */
export interface BudgetReservation {
  id: string;
  tenantId: string;
  /** The charge reserved, pico-dollars and tokens: taken back out of `used` when it settles. */
  usdPico: bigint;
  tokens: bigint;
  budgets: Budget[];
}

/** SP8: admitted (with the soft limits the call reaches) or refused by a hard limit. */
export type BudgetVerdict =
  | { kind: 'ADMITTED'; reservation?: BudgetReservation; warnings: BudgetRef[] }
  | { kind: 'EXCEEDED'; budget: BudgetRef; reason: string };

const SCALE = 10n ** 12n;

/** Amounts in a budget's unit, scaled as pico-dollars so both units compare alike. */
export function formatUsed(budget: Pick<Budget, 'unit'>, scaled: bigint): string {
  return budget.unit === 'USD' ? formatPico(scaled) : String(scaled / SCALE);
}

export function budgetRef(budget: Budget, usedScaled: bigint): BudgetRef {
  return {
    id: budget.id,
    scope: budget.scope,
    targetId: budget.targetId,
    period: budget.period,
    unit: budget.unit,
    softLimit: budget.softLimit,
    hardLimit: budget.hardLimit,
    used: formatUsed(budget, usedScaled),
  };
}

/** `budget <id> (AGENT <target>, USD per DAY)`: how refusals and warnings name a budget. */
export function budgetLabel(
  b: Pick<BudgetRef, 'id' | 'scope' | 'targetId' | 'period' | 'unit'>,
): string {
  const target = b.targetId ? `${b.scope} ${b.targetId}` : b.scope;
  return `budget ${b.id} (${target}, ${b.unit} per ${b.period})`;
}

export function exceededReason(b: BudgetRef): string {
  return `over the hard limit of ${budgetLabel(b)}: ${b.used} of ${b.hardLimit} ${b.unit} used`;
}

export function softReason(b: BudgetRef): string {
  return `soft limit of ${budgetLabel(b)} reached: ${b.used} of ${b.softLimit} ${b.unit}`;
}

/** D60, D41: −31006 `budget_exceeded`, the budget in `data`, for every path's dialect. */
export function budgetRefusal(
  verdict: Extract<BudgetVerdict, { kind: 'EXCEEDED' }>,
  correlationId: string,
  decisionId?: string,
): RefusalAnswer {
  const refusal = REFUSALS.budgetExceeded;
  return {
    refusal,
    message: refusal.message,
    data: {
      reasons: [verdict.reason],
      budget: verdict.budget,
      ...(decisionId ? { decisionId } : {}),
      correlationId,
    },
  };
}
