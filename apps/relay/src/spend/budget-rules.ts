import { FieldError } from '@agp/http';

import { BudgetChange } from './budgets.repository';
import { parseDecimal } from './usd';

/** SP6: what makes a budget whole beyond its fields' shapes (D12: every fault listed). */
export function budgetFaults(b: BudgetChange): FieldError[] {
  const faults: FieldError[] = [];
  if (b.scope === 'TENANT' && b.targetId !== null) {
    faults.push({ field: 'targetId', message: 'a TENANT budget has no targetId' });
  }
  if (b.scope !== 'TENANT' && b.targetId === null) {
    faults.push({ field: 'targetId', message: `a ${b.scope} budget needs the targetId it counts` });
  }
  if (b.softLimit === null && b.hardLimit === null) {
    faults.push({ field: 'hardLimit', message: 'a budget needs a softLimit, a hardLimit or both' });
  }
  for (const field of ['softLimit', 'hardLimit'] as const) {
    const value = b[field];
    if (value !== null && b.unit === 'TOKENS' && value.includes('.')) {
      faults.push({ field, message: `${field} of a TOKENS budget must be a whole number` });
    }
  }
  if (b.softLimit !== null && b.hardLimit !== null) {
    const soft = parseDecimal(b.softLimit);
    const hard = parseDecimal(b.hardLimit);
    if (soft !== undefined && hard !== undefined && soft > hard) {
      faults.push({ field: 'softLimit', message: 'softLimit must not be above hardLimit' });
    }
  }
  return faults;
}
