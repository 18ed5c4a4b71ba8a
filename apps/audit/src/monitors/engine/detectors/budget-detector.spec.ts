import { budgetFindings } from './budget-detector';

const tenantId = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const agentId = '8d1c0f7e-55d5-4b8e-9a3b-1f0a4e9f6d21';
const alert = {
  id: '0b9e1a4c-1d2f-4e5a-9b7c-1234567890ab',
  scope: 'AGENT',
  targetId: agentId,
  period: 'DAY',
  unit: 'USD',
  softLimit: '8',
  hardLimit: null,
  used: '8.004',
};

describe(budgetFindings.name, () => {
  it('should raise one finding per budget alert, about the agent whose budget it is', () => {
    const sut = budgetFindings({
      tenantId,
      occurredAt: '2026-12-07T10:00:00.000Z',
      details: {
        budgetAlerts: [
          alert,
          { ...alert, id: '1b9e1a4c-1d2f-4e5a-9b7c-1234567890ab', scope: 'TENANT', targetId: null },
        ],
      },
    });
    expect(sut).toHaveLength(2);
    expect(sut[0]).toMatchObject({
      detector: 'BUDGET_SOFT_LIMIT',
      severity: 'MEDIUM',
      subject: { type: 'AGENT', id: agentId },
      evidence: { kind: 'BUDGET', budgetId: alert.id, softLimit: '8', used: '8.004' },
    });
    expect(sut[1].subject).toEqual({ type: 'TENANT', id: tenantId });
    expect(sut[0].findingId).not.toBe(sut[1].findingId);
  });

  it('should raise the same finding for the same event and nothing for calls without alerts or with nonsense', () => {
    const event = {
      tenantId,
      occurredAt: '2026-12-07T10:00:00.000Z',
      details: { budgetAlerts: [alert] },
    };
    expect(budgetFindings(event)[0].findingId).toBe(budgetFindings(event)[0].findingId);
    expect(budgetFindings({ tenantId, occurredAt: event.occurredAt, details: {} })).toEqual([]);
    expect(
      budgetFindings({
        ...event,
        details: { budgetAlerts: [{ ...alert, used: '1e9' }, 'x', null] },
      }),
    ).toEqual([]);
  });
});
