import { budgetFaults } from './budget-rules';
import { BudgetChange } from './budgets.repository';

const agentBudget: BudgetChange = {
  scope: 'AGENT',
  targetId: '8d1c0f7e-55d5-4b8e-9a3b-1f0a4e9f6d21',
  period: 'DAY',
  unit: 'USD',
  softLimit: '8',
  hardLimit: '10.5',
};

describe(budgetFaults.name, () => {
  it('should accept a whole budget', () => {
    expect(budgetFaults(agentBudget)).toEqual([]);
    expect(budgetFaults({ ...agentBudget, scope: 'TENANT', targetId: null })).toEqual([]);
  });

  it('should list every fault: a target where none belongs or missing, no limit, fractional tokens, soft above hard', () => {
    expect(budgetFaults({ ...agentBudget, scope: 'TENANT' }).map((f) => f.field)).toEqual([
      'targetId',
    ]);
    expect(budgetFaults({ ...agentBudget, targetId: null }).map((f) => f.field)).toEqual([
      'targetId',
    ]);
    expect(
      budgetFaults({ ...agentBudget, softLimit: null, hardLimit: null }).map((f) => f.field),
    ).toEqual(['hardLimit']);
    expect(
      budgetFaults({ ...agentBudget, unit: 'TOKENS', softLimit: '1.5', hardLimit: '1' }).map(
        (f) => f.field,
      ),
    ).toEqual(['softLimit', 'softLimit']);
  });
});
