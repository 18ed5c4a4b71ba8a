import type { MonitorEvidence } from '@agp/contracts';

import { evidenceFacts } from './evidence-facts';

const SUBJECT = '5b1c2d3e-0000-4000-8000-000000000001';
const VOLUME = {
  direction: 'SPIKE',
  observedTotal: 120,
  observedPerMinute: 8,
  baselinePerMinute: 1.5,
  ratio: 5.333,
  sampleMinutes: 15,
} as const;

const EXAMPLES: Record<MonitorEvidence['kind'], MonitorEvidence> = {
  CUSTOM_QUERY: {
    kind: 'CUSTOM_QUERY',
    monitorType: 'THRESHOLD',
    metric: 'BLOCKS',
    aggregation: 'SUM',
    window: 'LAST_1H',
    groupBy: 'AGENT',
    observedValue: 42,
    threshold: 10,
    subjectLabel: 'billing-agent',
  },
  DORMANT_REACTIVATION: {
    kind: 'DORMANT_REACTIVATION',
    subjectType: 'AGENT',
    subjectId: SUBJECT,
    dormantDays: 45,
    recentEventCount: 12,
  },
  ENTITY_VOLUME: { kind: 'ENTITY_VOLUME', subjectType: 'USER', subjectId: SUBJECT, ...VOLUME },
  INFRASTRUCTURE_INCIDENT: {
    kind: 'INFRASTRUCTURE_INCIDENT',
    incidentType: 'FAILOVER',
    subjectType: 'LLM_GATEWAY',
    subjectId: SUBJECT,
    ...VOLUME,
  },
  FIRST_SEEN: {
    kind: 'FIRST_SEEN',
    subjectType: 'AGENT',
    subjectId: SUBJECT,
    observation: 'TOOL_CALL',
    key: 'delete_repository',
    lookbackDays: 30,
    occurrencesInRecent: 3,
  },
  GOVERNANCE_GAP: {
    kind: 'GOVERNANCE_GAP',
    subjectType: 'AGENT',
    subjectId: SUBJECT,
    subjectName: 'billing-agent',
    gap: 'REVIEW_DUE',
    riskTier: 'HIGH',
    daysOverdue: 9,
  },
  POLICY_METRIC: { kind: 'POLICY_METRIC', policyId: SUBJECT, metric: 'BLOCKS', ...VOLUME },
  TENANT_ACTION_SPIKE: {
    kind: 'TENANT_ACTION_SPIKE',
    action: 'BLOCK',
    ...VOLUME,
    topContributors: [{ policyId: SUBJECT, count: 90, percentage: 75 }],
    unattributedCount: 30,
  },
  TOOL_DEFINITION: {
    kind: 'TOOL_DEFINITION',
    subjectType: 'MCP_SERVER',
    subjectId: SUBJECT,
    tool: 'search',
    change: 'TOOL_DEFINITION_CHANGED',
    changedFields: ['description'],
  },
  EVALUATION_RUN: {
    kind: 'EVALUATION_RUN',
    subjectType: 'TENANT',
    subjectId: SUBJECT,
    packId: SUBJECT,
    packName: 'nightly',
    runId: SUBJECT,
    status: 'COMPLETED',
    failed: 1,
    evaluationCount: 3,
  },
  BUDGET: {
    kind: 'BUDGET',
    subjectType: 'AGENT',
    subjectId: SUBJECT,
    budgetId: SUBJECT,
    scope: 'AGENT',
    targetId: SUBJECT,
    period: 'DAY',
    unit: 'USD',
    softLimit: '8',
    used: '8.004',
  },
};

describe(evidenceFacts.name, () => {
  it.each(Object.values(EXAMPLES))(
    'should describe $kind evidence with a value for every fact',
    (evidence) => {
      const facts = evidenceFacts(evidence);

      expect(facts.length).toBeGreaterThan(2);
      for (const fact of facts) {
        expect(fact.label).not.toBe('');
        expect(fact.value).not.toMatch(/undefined|NaN|\[object/);
      }
    },
  );

  it('should show the volume figures rounded, with the sample window, when evidence has them', () => {
    const facts = evidenceFacts(EXAMPLES.ENTITY_VOLUME);

    expect(facts).toEqual(
      expect.arrayContaining([
        { label: 'Subject', value: `USER ${SUBJECT}` },
        { label: 'Observed', value: '120 in 15 min' },
        { label: 'Ratio to baseline', value: '×5.33' },
      ]),
    );
  });

  it('should show a dash for an optional figure when the evidence leaves it out', () => {
    const facts = evidenceFacts(EXAMPLES.CUSTOM_QUERY);

    expect(facts).toContainEqual({ label: 'Compared with', value: '—' });
    expect(facts).toContainEqual({ label: 'Metric', value: 'SUM of BLOCKS' });
  });

  it('should refuse a kind it does not know rather than show nothing', () => {
    const unknown = { kind: 'SOMETHING_NEW' } as unknown as MonitorEvidence;

    expect(() => evidenceFacts(unknown)).toThrow(/SOMETHING_NEW/);
  });
});
